/** specs/attestation/certification-predicate.v1.schema.json: the predicate erpcert signs (packages/cli/src/attest). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { specsDir } from './paths.js';
import { rules } from './rules.js';

const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;
const schema = JSON.parse(
  readFileSync(join(specsDir, 'attestation', 'certification-predicate.v1.schema.json'), 'utf8'),
);

const sha = (c: string) => c.repeat(64);

// biome-ignore lint/suspicious/noExplicitAny: the spoiled predicates reach into any field
type Json = any;

/** A predicate written by hand from the schema's description (not from erpcert's builder). */
function predicate(): Json {
  return {
    target: { url: 'https://erp.example.com', embedded: false },
    erpcert: { version: '0.1.0' },
    spec: {
      sha256: sha('a'),
      versions: { rest: '1', portal: '1.0.1' },
      files: [
        { path: 'rules.yaml', sha256: sha('b') },
        { path: 'xsd/rest-registers.xsd', sha256: sha('c') },
      ],
      ruleCatalogue: { path: 'rules.yaml', sha256: sha('b') },
    },
    run: {
      profile: 'full',
      seed: null,
      runs: null,
      only: 'REST.QUERY.*',
      shard: '1/2',
      startedAt: '2025-03-01T10:00:00.000Z',
      finishedAt: '2025-03-01T10:00:42.000Z',
      runTag: 'ECAB12',
      outcome: 'fail',
      interrupted: false,
    },
    totals: { rules: 2, PASS: 1, FAIL: 1, ERROR: 0, WARN: 0, SKIP: 0, NONE: 0 },
    coverage: { judged: 2, of: 300 },
    rules: [
      { id: 'REST.QUERY.SORT_ASCENDING', verdict: 'PASS', standing: 'documented', observable: true },
      { id: 'REST.QUERY.FILTER_AND', verdict: 'FAIL', standing: 'documented', observable: true },
    ],
    load: null,
  };
}

describe('the certification predicate schema', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  it('is a valid JSON Schema 2020-12 document that compiles in strict mode', () => {
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(schema.$id).toMatch(/^https:\/\/erpcert\.invalid\/attestation\/certification\/v1\//);
  });

  it('accepts a predicate with and without a load run', () => {
    expect(validate(predicate()), JSON.stringify(validate.errors)).toBe(true);
    const withLoad = predicate();
    withLoad.load = {
      resultsSha256: sha('d'),
      erpcertVersion: '0.1.0',
      targetUrl: 'https://erp.example.com',
      engine: 'k6',
      startedAt: '2025-03-01T11:00:00.000Z',
      finishedAt: '2025-03-01T11:05:00.000Z',
      outcome: 'pass',
      scenarios: [
        {
          scenario: 'rest-read',
          verdict: 'pass',
          documented: '1000 records in 1 s',
          measured: '1200 records in 1 s',
          ratio: 1.2,
        },
      ],
    };
    expect(validate(withLoad), JSON.stringify(validate.errors)).toBe(true);
  });

  it('admits every rule id of the catalogue', () => {
    const p = predicate();
    p.rules = rules.map((r) => ({ id: r.id, verdict: 'NONE', standing: r.standing, observable: r.observable }));
    expect(validate(p), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it.each<[string, (p: Json) => void]>([
    ['no coverage', (p) => delete p.coverage],
    ['a spec digest that is not SHA-256 hex', (p) => (p.spec.sha256 = 'abc')],
    ['an unknown verdict', (p) => (p.rules[0].verdict = 'MAYBE')],
    ['a rule id outside the catalogue scheme', (p) => (p.rules[0].id = 'rest.query.x')],
    ['a field the schema does not name', (p) => (p.signedBy = 'someone')],
    ['a start time that is not a date-time', (p) => (p.run.startedAt = 'yesterday')],
    ['a load run without its digest', (p) => (p.load = { engine: 'k6' })],
    ['negative totals', (p) => (p.totals.FAIL = -1)],
  ])('refuses %s', (_name, spoil) => {
    const p = predicate();
    spoil(p);
    expect(validate(p)).toBe(false);
  });
});
