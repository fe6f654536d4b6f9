import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BehaviourCatalogueError, behaviours, loadBehaviours, specOperations } from './behaviours.js';
import { getRule, rules } from './rules.js';

const dir = mkdtempSync(join(tmpdir(), 'behaviours-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const load = (yaml: string) => {
  const file = join(dir, `b${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml, 'utf8');
  return () => loadBehaviours(file);
};

describe('specs/behaviours.yaml', () => {
  const b = behaviours();
  it('links every entry to a documented or inferred, observable rule of its API that applies to its operation', () => {
    const entries = Object.values(b).flat();
    expect(entries.length).toBeGreaterThan(50);
    for (const e of entries) {
      const rule = getRule(e.rule);
      expect(rule, e.rule).toBeDefined();
      expect(rule!.api).toBe(e.api);
      expect(rule!.standing).not.toBe('unspecified');
      if (rule!.appliesTo) expect(rule!.appliesTo, e.rule).toContain(e.operation);
    }
  });
  it('blames a refusal of a whole operation on its REGISTERS rule where "Registers per operation" lists some', () => {
    for (const a of b.accepts.filter((x) => x.when === undefined)) {
      const listing = rules.find(
        (r) => r.api === a.api && /REGISTERS$/.test(r.id) && r.appliesTo?.includes(a.operation),
      );
      expect(a.rule, a.operation).toBe(listing?.id ?? a.rule);
      if (listing) expect(a.alsoBreaks?.length, a.operation).toBe(1);
    }
  });
  it('names only parameters the OpenAPI specs document for the operation', () => {
    const ops = specOperations();
    for (const p of b.parameters)
      expect(ops.get(`${p.api} ${p.operation}`), `${p.operation} ${p.name}`).toContain(
        p.in === 'body' ? `body:${p.name}` : p.name,
      );
  });
});

describe('specOperations', () => {
  it('reads the operations and their parameters from both specs', () => {
    const ops = specOperations();
    expect([...ops.get('REST list')!]).toEqual(
      expect.arrayContaining(['compcode', 'fields', 'sort', 'range', 'limit', 'offset', 'filter.*']),
    );
    expect(ops.get('PORTAL list')).toContain('maxsize');
    expect(ops.get('PORTAL pastespecial')).toContain('bfilter');
    expect(ops.get('PORTAL unokrecord')).toContain('usercode');
    expect(ops.get('PORTAL windowactions')).toContain('body:rowindex');
    expect(ops.has('REST create-json')).toBe(true);
  });
});

describe('loadBehaviours', () => {
  const ok = '{ api: REST, operation: list, name: limit, rule: REST.QUERY.LIMIT }';
  it('loads a good entry, with the query as the default place of a parameter', () => {
    expect(load(`parameters:\n  - ${ok}\n`)().parameters).toEqual([
      { api: 'REST', operation: 'list', name: 'limit', rule: 'REST.QUERY.LIMIT', in: 'query' },
    ]);
  });
  it.each([
    ['a rule not in the catalogue', '{ api: REST, operation: list, name: limit, rule: REST.QUERY.NOPE }', 'no rule'],
    [
      'an unspecified rule',
      '{ api: REST, operation: update, name: compcode, rule: REST.WRITE.PATCH_BODY_NOT_SHOWN }',
      'is unspecified',
    ],
    [
      'an undocumented parameter',
      '{ api: REST, operation: list, name: top, rule: REST.QUERY.LIMIT }',
      'top is not a documented parameter',
    ],
    [
      'an operation of neither spec',
      '{ api: PORTAL, operation: fly, name: id, rule: PORTAL.LOOKUP.ID_IS_SEARCH }',
      'no operation fly',
    ],
    [
      'an operation its rule does not apply to',
      '{ api: PORTAL, operation: document, name: id, rule: PORTAL.LOOKUP.ID_IS_SEARCH }',
      'does not apply to document',
    ],
    [
      'the other API',
      '{ api: PORTAL, operation: list, name: perpage, rule: REST.QUERY.LIMIT }',
      'rule of the REST API',
    ],
  ])('refuses %s, naming the entry', (_name, entry, why) => {
    expect(load(`parameters:\n  - ${entry}\n`)).toThrow(BehaviourCatalogueError);
    expect(load(`parameters:\n  - ${entry}\n`)).toThrow(/parameters\[0\]/);
    expect(load(`parameters:\n  - ${entry}\n`)).toThrow(why);
  });
});
