/**
 * Rules own the parts of bodies (issue 18): every documented path of every documented response body has exactly
 * one owning rule in specs/rules.yaml (`covers:`), and every `covers:` pattern names at least one documented path.
 */
import { describe, expect, it } from 'vitest';
import { compileCoverPattern, coverIndex } from './body-paths.js';
import { documentedPaths } from './documented-paths.js';
import { rules } from './rules.js';
import { loadSpec } from './specs.js';

const paths = documentedPaths(
  (['record-rest', 'portal-action'] as const).map((name) => ({ name, doc: loadSpec(name) })),
);
const index = coverIndex(rules);

describe('covers: of specs/rules.yaml', () => {
  it('finds the documented bodies of both APIs', () => {
    const bodies = new Set(paths.map((p) => p.body));
    for (const body of ['rest-envelope', 'IVVcEnvelope', 'portal-list', 'portal-login', 'PortalReportFilters'])
      expect(bodies, body).toContain(body);
    expect(paths.some((p) => p.path === 'portal-list:data/IVVc/Sum4')).toBe(true);
    expect(paths.some((p) => p.path === 'IVVcEnvelope:data/@register')).toBe(true);
  });

  it('gives every documented path exactly one owner', () => {
    const unowned = paths.filter((p) => index.owners(p.path).element === undefined).map((p) => p.path);
    const tied = paths
      .filter((p) => index.owners(p.path).ties.length > 0)
      .map((p) => `${p.path}: ${index.owners(p.path).ties.join(' ')}`);
    expect(unowned).toEqual([]);
    expect(tied).toEqual([]);
  });

  it('has no pattern that names no documented path', () => {
    const idle = rules.flatMap((r) =>
      (r.covers ?? [])
        .filter((c) => !paths.some((p) => compileCoverPattern(c).test(p.path)))
        .map((c) => `${r.id}: ${c}`),
    );
    expect(idle).toEqual([]);
  });

  it.each([
    ['portal-list:data/IVVc/Sum4', 'element', 'PORTAL.LIST.IVVC_FIELDS'],
    ['portal-list:data/@count', 'element', 'PORTAL.LIST.PAGED_SHAPE'],
    ['portal-list:data/IVVc', 'element', 'PORTAL.LIST.PAGED_SHAPE'],
    ['rest-envelope:data/IVVc/@url', 'element', 'REST.RECORD.META_FIELDS'],
    ['rest-envelope:data/IVVc/@url', 'value', 'REST.RECORD.URL_FORMAT'],
    ['IVVcEnvelope:data/@register', 'element', 'REST.ENVELOPE.REGISTER'],
    ['IVVcEnvelope:data/IVVc/SerNr', 'element', 'REST.REGISTER.IVVC'],
    ['IVVcEnvelope:data/IVVc/SerNr', 'value', 'REST.RECORD.STRING_VALUES'],
    ['IVVcEnvelope:data/IVVc/@url', 'value', 'REST.RECORD.URL_FORMAT'],
    ['rest-envelope:data/IVVc/rows/row/stp', 'value', 'REST.RECORD.ROW_TYPES'],
    ['rest-envelope:data/IVVc/OKFlag', 'value', 'REST.STATE.OKFLAG_VALUES'],
    ['rest-envelope:data', 'element', 'REST.QUERY.LIST_RECORDS'],
    ['IVVcEnvelope:data/IVVc/SerNr', 'null', 'REST.RECORD.EMPTY_STRING'],
    ['IVVcEnvelope:data/IVVc/OKFlag', 'null', 'REST.RECORD.EMPTY_STRING'],
    ['IVVcEnvelope:data/IVVc/@url', 'null', 'REST.RECORD.URL_FORMAT'],
    ['IVVcEnvelope:data/IVVc/@register', 'null', 'REST.RECORD.META_FIELDS'],
    ['IVVcEnvelope:data/@register', 'null', 'REST.ENVELOPE.REGISTER'],
  ] as const)('%s (%s) belongs to %s', (path, aspect, rule) => {
    expect(index.owners(path)[aspect]).toBe(rule);
  });
});
