import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRule, type Rule, rules } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import {
  CERTIFICATION_PREDICATE_TYPE,
  certificationPredicate,
  documentedCoverage,
  readSigningKey,
  validatePredicate,
} from '@erpcert/runs';
import { describe, expect, it } from 'vitest';
import { sampleLoadRun } from '../load/testing.js';
import { writeLoadReports } from '../load/write-load-reports.js';
import { CertifyError, certifyFolder } from './certify-folder.js';
import { certifiableResults, unsignedFolder, writeKeyPair } from './testing.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-predicate-'));
const key = readSigningKey(writeKeyPair(join(root, 'keys')).keyFile, {});

function rule(id: string, standing: Rule['standing'], observable = true): Rule {
  return { ...(getRule('REST.QUERY.FILTER_FIELDS') ?? rules[0]!), id, standing, observable } as Rule;
}

describe('documentedCoverage', () => {
  const catalogue = [
    rule('REST.A.ONE', 'documented'),
    rule('REST.A.TWO', 'documented'),
    rule('REST.A.THREE', 'documented'),
    rule('REST.A.HIDDEN', 'documented', false),
    rule('REST.A.INF', 'inferred'),
    rule('REST.A.UNS', 'unspecified'),
  ];
  const doc = (verdicts: Record<string, string>) =>
    ({ rules: Object.entries(verdicts).map(([id, verdict]) => ({ id, verdict })) }) as unknown as ResultsDocument;
  it.each([
    ['PASS and FAIL judge a rule', { 'REST.A.ONE': 'PASS', 'REST.A.TWO': 'FAIL' }, { judged: 2, of: 3 }],
    ['KNOWN judges a rule', { 'REST.A.ONE': 'KNOWN' }, { judged: 1, of: 3 }],
    [
      'ERROR, SKIP, WARN and NONE do not',
      { 'REST.A.ONE': 'ERROR', 'REST.A.TWO': 'SKIP', 'REST.A.THREE': 'NONE' },
      { judged: 0, of: 3 },
    ],
    ['a rule left out by --only counts in the total', { 'REST.A.ONE': 'PASS' }, { judged: 1, of: 3 }],
    [
      'inferred, unspecified and unobservable rules count in neither',
      { 'REST.A.INF': 'PASS', 'REST.A.UNS': 'WARN', 'REST.A.HIDDEN': 'PASS' },
      { judged: 0, of: 3 },
    ],
  ])('%s', (_name, verdicts, want) => {
    expect(documentedCoverage(doc(verdicts), catalogue)).toEqual(want);
  });
});

describe('certificationPredicate: a FAIL that follows from another (issue 28)', () => {
  it('carries causedBy on the follower only, and matches the schema', () => {
    const doc = certifiableResults();
    const [first, second] = doc.rules;
    const withFollower = {
      ...doc,
      rules: doc.rules.map((r) =>
        r.id === second!.id ? { ...r, verdict: 'FAIL' as const, causedBy: [first!.id] } : { ...r, causedBy: null },
      ),
      totals: { ...doc.totals, following: 1 },
    };
    const files = [{ path: 'rules.yaml', sha256: 'a'.repeat(64) }];
    const p = certificationPredicate(withFollower, { specFiles: files, coverage: { judged: 0, of: 1 } });
    expect(p.rules.find((r) => r.id === second!.id)?.causedBy).toEqual([first!.id]);
    expect(p.rules.filter((r) => 'causedBy' in r)).toHaveLength(1);
    expect(p.totals.following).toBe(1);
    expect(validatePredicate(p)).toEqual({ valid: true, errors: [] });
    const bad = { ...p, rules: p.rules.map((r) => (r.id === second!.id ? { ...r, causedBy: ['lower.case'] } : r)) };
    expect(validatePredicate(bad).valid).toBe(false);
  });
});

describe('certifyFolder', () => {
  it('states what results.json holds, and the predicate matches its schema', () => {
    const dir = unsignedFolder(mkdtempSync(join(root, 'f-')));
    const done = certifyFolder(dir, key);
    const doc = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as ResultsDocument;
    const p = done.predicate;
    expect(validatePredicate(p)).toEqual({ valid: true, errors: [] });
    expect(p.target.url).toBe('https://erp.example.com');
    expect(p.spec.sha256).toBe(doc.spec.sha256);
    expect(p.spec.ruleCatalogue.path).toBe('rules.yaml');
    expect(p.spec.files.map((f) => f.path)).toContain('record-rest.openapi.yaml');
    expect(p.rules.map((r) => `${r.id} ${r.verdict}`)).toEqual(doc.rules.map((r) => `${r.id} ${r.verdict}`));
    expect(p.totals.FAIL).toBe(1);
    expect(p.load).toBeNull();
    expect(doc.attestation).toEqual({
      file: 'attestation.intoto.jsonl',
      predicateType: CERTIFICATION_PREDICATE_TYPE,
      keyFingerprint: key.fingerprint,
      keyAlgorithm: 'ecdsa-p256',
    });
    // the private key is never copied into the folder
    const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const body = pem.split('\n')[1]!;
    for (const f of ['results.json', 'report.html', 'summary.md', 'junit.xml', 'attestation.intoto.jsonl'])
      expect(readFileSync(join(dir, f), 'utf8')).not.toContain(body);
  });

  it('adds a load run with --load-report: its figures, verdicts and results.json digest', () => {
    const dir = unsignedFolder(mkdtempSync(join(root, 'l-')));
    const loadDir = join(root, 'load-run');
    writeLoadReports(sampleLoadRun(), loadDir);
    const p = certifyFolder(dir, key, { loadReport: loadDir }).predicate;
    expect(validatePredicate(p).errors).toEqual([]);
    const load = sampleLoadRun();
    expect(p.load?.scenarios.map((s) => s.scenario)).toEqual(load.scenarios.map((s) => s.scenario));
    expect(p.load?.resultsSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(p.load?.engine).toBe(load.run.engine);
  });

  it.each([
    ['no results.json', (dir: string) => rmSync(join(dir, 'results.json')), /holds no results\.json/],
    ['a results.json that is not JSON', (dir: string) => writeFileSync(join(dir, 'results.json'), '{'), /not JSON/],
    [
      'another erpcert version',
      (dir: string) =>
        writeFileSync(
          join(dir, 'results.json'),
          JSON.stringify({ ...certifiableResults(), tool: { name: 'erpcert', version: '0.0.1' } }),
        ),
      /written by erpcert 0\.0\.1/,
    ],
    [
      'other specs',
      (dir: string) =>
        writeFileSync(
          join(dir, 'results.json'),
          JSON.stringify({ ...certifiableResults(), spec: { ...certifiableResults().spec, sha256: 'c'.repeat(64) } }),
        ),
      /certify with the specs of the run/,
    ],
    [
      'a results.json that breaks its schema',
      (dir: string) => writeFileSync(join(dir, 'results.json'), JSON.stringify({ ...certifiableResults(), totals: 3 })),
      /results\.schema\.json/,
    ],
  ])('refuses a folder with %s, writing no attestation', (_name, spoil, message) => {
    const dir = unsignedFolder(mkdtempSync(join(root, 'r-')));
    spoil(dir);
    expect(() => certifyFolder(dir, key)).toThrow(CertifyError);
    expect(() => certifyFolder(dir, key)).toThrow(message);
    expect(() => readFileSync(join(dir, 'attestation.intoto.jsonl'))).toThrow(/ENOENT/);
  });
});
