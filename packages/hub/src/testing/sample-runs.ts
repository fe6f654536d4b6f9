/**
 * Hand-written run folders for the hub's tests: a conformance run (results.json shaped as `erpcert conform`
 * writes it, with the verdicts a test asks for, a FAIL carrying its evidence) and a load run.
 */
import { createHash } from 'node:crypto';
import { type LoadRunDocument, type ResultsDocument, scenarioEntry } from '@erpcert/runs';

export interface SampleConformance {
  readonly url?: string;
  readonly embedded?: boolean;
  /** Rule id -> verdict; the area is the id without its last part. */
  readonly verdicts?: Readonly<Record<string, 'PASS' | 'FAIL' | 'ERROR' | 'SKIP' | 'NONE'>>;
  readonly startedAt?: string;
  /** Makes the run distinct (its run tag is derived from it). */
  readonly runTag?: string;
  readonly version?: string;
  readonly profile?: 'full' | 'gate' | 'readonly' | 'strict';
  readonly seed?: number | null;
}

const DEFAULT_VERDICTS = {
  'REST.VERSION.PATH': 'PASS',
  'REST.VERSION.SYSTEMVERSION': 'FAIL',
  'PORTAL.LOOKUP.CAP50': 'SKIP',
} as const;

export const SAMPLE_SPEC_SHA256 = '597bd31c25a49fcfc29833dc465bf2b6962a0e78cdbc0a88cf160d2f2be074bc';

export function sampleConformance(o: SampleConformance = {}): ResultsDocument {
  const verdicts: Readonly<Record<string, string>> = o.verdicts ?? DEFAULT_VERDICTS;
  const ids = Object.keys(verdicts).sort();
  const areaOf = (id: string) => id.split('.').slice(0, -1).join('.');
  const count = (list: readonly string[], v: string) => list.filter((id) => verdicts[id] === v).length;
  const counts = (list: readonly string[]) => ({
    rules: list.length,
    PASS: count(list, 'PASS'),
    FAIL: count(list, 'FAIL'),
    ERROR: count(list, 'ERROR'),
    WARN: 0,
    SKIP: count(list, 'SKIP'),
    KNOWN: 0,
    NONE: count(list, 'NONE'),
  });
  const failing = ids.filter((id) => verdicts[id] === 'FAIL' || verdicts[id] === 'ERROR');
  const testOf = (id: string) => `properties/sample.prop.ts > sample > [${id}] holds`;
  const url = o.url ?? 'http://127.0.0.1:40123';
  const failed = failing.length > 0;
  return {
    schemaVersion: 3,
    kind: 'erpcert-conformance',
    tool: { name: 'erpcert', version: o.version ?? '0.1.0' },
    run: {
      startedAt: o.startedAt ?? '2026-11-27T10:00:00.000Z',
      finishedAt: o.startedAt ?? '2026-11-27T10:00:08.000Z',
      durationMs: 8000,
      target: {
        url,
        embedded: o.embedded ?? true,
        user: 'erpcert',
        compcode: 1,
        companyIn: 'query',
        portalPath: '/WebErpAPI.hal',
        portalcc: null,
        usercode: 'ADMIN',
      },
      profile: o.profile ?? 'full',
      runs: null,
      seed: o.seed ?? 1234,
      path: null,
      only: null,
      shard: null,
      pace: null,
      runTag: `EC${createHash('sha256')
        .update(o.runTag ?? 'sample')
        .digest('hex')
        .slice(0, 4)
        .toUpperCase()}`,
      interrupted: false,
      command: 'erpcert conform',
      outcome: failed ? 'fail' : 'pass',
      exitCode: failed ? 1 : 0,
    },
    spec: { versions: { rest: '1', portal: '1.0.1' }, sha256: SAMPLE_SPEC_SHA256, files: 32 },
    totals: counts(ids),
    areas: [...new Set(ids.map(areaOf))].sort().map((area) => ({
      area,
      ...counts(ids.filter((id) => areaOf(id) === area)),
    })),
    rules: ids.map((id) => ({
      id,
      area: areaOf(id),
      title: `the rule ${id}`,
      doc: 'record-rest-api.md',
      section: '9. Versioning',
      docAnchor: 'record-rest-api.md#9-versioning',
      kind: 'shape',
      standing: 'documented',
      observable: true,
      inferredFrom: null,
      verdict: verdicts[id] ?? 'NONE',
      observations: verdicts[id] === 'NONE' || verdicts[id] === 'SKIP' ? 0 : 3,
      decisiveObservations: verdicts[id] === 'NONE' || verdicts[id] === 'SKIP' ? 0 : 3,
      tested: true,
      reason: verdicts[id] === 'SKIP' ? 'the target lacks the data' : null,
      tests: [testOf(id)],
      failures: failing.includes(id) ? [failing.indexOf(id)] : [],
      known: null,
    })),
    tests: ids.map((id) => ({
      id: testOf(id),
      file: 'properties/sample.prop.ts',
      name: `[${id}] holds`,
      rules: [id],
      state: failing.includes(id) ? 'failed' : verdicts[id] === 'SKIP' ? 'skipped' : 'passed',
      verdicts: { [id]: verdicts[id] ?? 'NONE' },
      reason: null,
      observations: { [id]: 3 },
      decisiveObservations: { [id]: 3 },
      durationMs: 12,
    })),
    failures: failing.map((id) => ({
      test: testOf(id),
      verdict: verdicts[id] === 'ERROR' ? 'ERROR' : 'FAIL',
      rules: [id],
      known: false,
      message: `${id} broken: the envelope has no @systemversion`,
      counterexample: '[{"register":"CUVc"}]',
      seed: 1234,
      path: '0:1',
      shrinks: 2,
      errors: [],
      exchanges: [
        {
          request: { method: 'GET', url: `${url}/api/1/CUVc`, headers: { authorization: '***' } },
          response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":{}}' },
          durationMs: 4,
        },
      ],
      curl: `curl -u erpcert:*** '${url}/api/1/CUVc'`,
      replay: `erpcert conform --only '${id}' --seed 1234 --path 0:1`,
    })),
    coverage: {
      documented: { withTests: ids, withoutTests: [] },
      inferred: { withTests: [], withoutTests: [] },
      unspecified: { total: 0, withTests: 0 },
      notObservable: [],
    },
    cleanup: { ledgerEntries: 0, deleted: 0, alreadyGone: 0, residue: [] },
    knownDeviations: null,
    problems: [],
  } as ResultsDocument;
}

const latency = (p50: number, p90: number, p95: number, p99: number, max: number) => ({ p50, p90, p95, p99, max });

export interface SampleLoad {
  readonly url?: string;
  readonly startedAt?: string;
  /** Achieved rate of the transactions scenario. */
  readonly rate?: number;
  /** p95 of the transactions scenario (ms, default 14); null for a run of an erpcert that did not measure p95. */
  readonly p95?: number | null;
}

export function sampleLoad(o: SampleLoad = {}): LoadRunDocument {
  const rate = o.rate ?? 10;
  const p95 = o.p95 === undefined ? 14 : o.p95;
  const doc: LoadRunDocument = {
    schema: 'erpcert-load-results/1',
    tool: { name: 'erpcert', version: '0.1.0' },
    run: {
      startedAt: o.startedAt ?? '2026-11-27T11:00:00.000Z',
      finishedAt: o.startedAt ?? '2026-11-27T11:01:00.000Z',
      durationSeconds: 60,
      engine: 'autocannon',
      engineNote: 'k6 is not built, so the Node-only autocannon engine runs',
      target: {
        url: o.url ?? 'http://127.0.0.1:40123',
        embedded: true,
        seedSize: 10_000,
        user: 'erpcert',
        compcode: 1,
        companyIn: 'query',
        portalPath: '/WebErpAPI.hal',
      },
      settings: {
        scenarios: ['transactions'],
        durationSeconds: 10,
        rate: null,
        pauseMs: 1000,
        batchSizes: [1000],
        timeoutMs: 10_000,
        saturation: { stages: 4, stageSeconds: 2, maxRate: null },
      },
      command: 'erpcert load --scenario transactions',
      outcome: 'pass',
      exitCode: 0,
      interrupted: false,
    },
    scenarios: [
      scenarioEntry(
        {
          scenario: 'transactions',
          engine: 'autocannon',
          offeredRate: rate,
          achievedRate: rate,
          latencyMs: latency(6, 11, p95 ?? 0, 19, 25),
          requests: 100,
          errors: 0,
          droppedIterations: 0,
          durationSeconds: 10,
          verdict: 'pass',
          reason: `achieved ${rate}/s`,
        },
        {
          scenario: 'transactions',
          engine: 'autocannon',
          latencyMs: latency(8, 20, 450, 900, 950),
          requests: 1400,
          errors: 0,
          droppedIterations: 0,
          durationSeconds: 8,
          verdict: 'pass',
          reason: 'the target saturates at 229/s',
          saturation: [
            { offered: 10, achieved: 10, p99: 9, errors: 0, dropped: 0 },
            { offered: 230, achieved: 229, p99: 140, errors: 0, dropped: 0 },
            { offered: 340, achieved: 300, p99: 900, errors: 3, dropped: 0 },
          ],
          saturationLimit: { limitedBy: 'target', evidence: 'the 340/s step broke' },
        },
      ),
    ],
    baseline: null,
    problems: [],
  };
  if (p95 === null) for (const s of doc.scenarios) delete (s.latencyMs as { p95?: number }).p95;
  return doc;
}

/** The files of a conformance run folder holding `doc`. */
export function conformanceFolderFiles(doc: ResultsDocument): Map<string, Buffer> {
  return new Map([
    ['results.json', Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)],
    ['junit.xml', Buffer.from('<?xml version="1.0"?><testsuites/>\n')],
    ['summary.md', Buffer.from(`# erpcert conformance\n\n${doc.run.target.url}\n`)],
    ['report.html', Buffer.from('<!doctype html><title>erpcert</title>\n')],
  ]);
}

export function loadFolderFiles(doc: LoadRunDocument): Map<string, Buffer> {
  return new Map([
    ['results.json', Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)],
    ['summary.md', Buffer.from('# erpcert load\n')],
  ]);
}
