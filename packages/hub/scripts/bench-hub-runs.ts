/**
 * The runs the hub bench seeds (bench-hub.ts): conformance run folders over the real rule catalogue (417 rules),
 * shaped as `erpcert conform` writes them (results.json, junit.xml, summary.md, report.html, and a HAR of each
 * failure's exchanges as evidence), with a few FAILs that move between builds, and load run folders with every
 * scenario of the load catalogue. Deterministic: the same target and build give the same folder.
 */
import { createHash } from 'node:crypto';
import { docAnchor, loadRules, type Rule } from '@erpcert/contract';
import { type LoadRunDocument, type ResultsDocument, scenarioEntry } from '@erpcert/runs';

export type BenchVerdict = 'PASS' | 'FAIL' | 'SKIP' | 'NONE';

/** A number in [0, 1) from its parts, the same every time. */
export function unit(...parts: readonly (string | number)[]): number {
  return createHash('sha256').update(parts.join('\0')).digest().readUInt32BE(0) / 2 ** 32;
}

/** The rule catalogue the runs are made of. */
export function benchRules(): readonly Rule[] {
  return loadRules();
}

/**
 * A run's verdicts: unspecified and unobservable rules NONE, about 4% SKIP (the target lacks the data, the same
 * rules every build of a target), about 0.8% FAIL for ten builds at a time (so a FAIL appears, stays, and is
 * fixed), and one flapping rule per target that FAILs in about a third of the builds.
 */
export function benchVerdicts(rules: readonly Rule[], target: number, build: number): Map<string, BenchVerdict> {
  const flapping = rules[Math.floor(unit('flap', target) * rules.length)]?.id;
  const out = new Map<string, BenchVerdict>();
  for (const r of rules) {
    let v: BenchVerdict = 'PASS';
    if (r.standing === 'unspecified' || !r.observable) v = 'NONE';
    else if (unit('skip', target, r.id) < 0.04) v = 'SKIP';
    else if (unit('fail', target, r.id, Math.floor(build / 10)) < 0.008) v = 'FAIL';
    else if (r.id === flapping && unit('flap', target, build) < 0.33) v = 'FAIL';
    out.set(r.id, v);
  }
  return out;
}

export interface BenchRunSpec {
  readonly target: number;
  readonly build: number;
  readonly startedAt: string;
  readonly version?: string;
}

export function benchTargetUrl(target: number): string {
  return `https://erp-${String(target).padStart(2, '0')}.bench.example:8443`;
}

const filler = (seed: string, length: number) => {
  let s = '';
  for (let i = 0; s.length < length; i++) s += createHash('sha256').update(`${seed}:${i}`).digest('hex');
  return s.slice(0, length);
};

/** results.json of one conformance run. */
export function benchConformance(rules: readonly Rule[], o: BenchRunSpec): ResultsDocument {
  const verdicts = benchVerdicts(rules, o.target, o.build);
  const url = benchTargetUrl(o.target);
  const ids = rules.map((r) => r.id);
  const count = (list: readonly string[], v: string) => list.filter((id) => verdicts.get(id) === v).length;
  const counts = (list: readonly string[]) => ({
    rules: list.length,
    PASS: count(list, 'PASS'),
    FAIL: count(list, 'FAIL'),
    ERROR: 0,
    WARN: 0,
    SKIP: count(list, 'SKIP'),
    KNOWN: 0,
    NONE: count(list, 'NONE'),
  });
  const failing = ids.filter((id) => verdicts.get(id) === 'FAIL');
  const testOf = (id: string) => `properties/${id.split('.')[1]?.toLowerCase()}.prop.ts > ${id} > holds`;
  const observations = (id: string) => (['NONE', 'SKIP'].includes(verdicts.get(id) ?? 'NONE') ? 0 : 3);
  const areas = [...new Set(rules.map((r) => r.area))];
  const started = new Date(o.startedAt);
  const finished = new Date(started.getTime() + 11_000).toISOString();
  const failed = failing.length > 0;
  const tag = `EC${createHash('sha256').update(`${o.target}:${o.build}`).digest('hex').slice(0, 4).toUpperCase()}`;
  return {
    schemaVersion: 3,
    kind: 'erpcert-conformance',
    tool: { name: 'erpcert', version: o.version ?? '0.1.0' },
    run: {
      startedAt: o.startedAt,
      finishedAt: finished,
      durationMs: 11_000,
      target: {
        url,
        embedded: false,
        user: 'erpcert',
        compcode: 1,
        companyIn: 'query',
        portalPath: '/WebErpAPI.hal',
        portalcc: null,
        usercode: 'ADMIN',
      },
      profile: 'full',
      runs: null,
      seed: 1000 + o.build,
      path: null,
      only: null,
      shard: null,
      pace: null,
      runTag: tag,
      interrupted: false,
      command: 'erpcert conform',
      outcome: failed ? 'fail' : 'pass',
      exitCode: failed ? 1 : 0,
    },
    spec: {
      versions: { rest: '1', portal: '1.0.1' },
      sha256: '597bd31c25a49fcfc29833dc465bf2b6962a0e78cdbc0a88cf160d2f2be074bc',
      files: 32,
    },
    totals: counts(ids),
    areas: areas.map((area) => ({ area, ...counts(rules.filter((r) => r.area === area).map((r) => r.id)) })),
    rules: rules.map((r) => ({
      id: r.id,
      area: r.area,
      title: r.title,
      doc: r.doc,
      section: r.section,
      docAnchor: docAnchor(r),
      kind: r.kind,
      standing: r.standing,
      observable: r.observable,
      inferredFrom: r.inferredFrom ?? null,
      verdict: verdicts.get(r.id) ?? 'NONE',
      observations: observations(r.id),
      decisiveObservations: observations(r.id),
      tested: verdicts.get(r.id) !== 'NONE',
      reason: verdicts.get(r.id) === 'SKIP' ? 'the target holds no record this rule needs' : null,
      tests: [testOf(r.id)],
      failures: failing.includes(r.id) ? [failing.indexOf(r.id)] : [],
      known: null,
    })),
    tests: ids.map((id) => ({
      id: testOf(id),
      file: `properties/${id.split('.')[1]?.toLowerCase()}.prop.ts`,
      name: `${id} > holds`,
      rules: [id],
      state: verdicts.get(id) === 'FAIL' ? 'failed' : verdicts.get(id) === 'SKIP' ? 'skipped' : 'passed',
      verdicts: { [id]: verdicts.get(id) ?? 'NONE' },
      reason: null,
      observations: observations(id) > 0 ? { [id]: observations(id) } : {},
      decisiveObservations: observations(id) > 0 ? { [id]: observations(id) } : {},
      durationMs: 5 + Math.floor(unit('ms', o.target, o.build, id) * 200),
    })),
    failures: failing.map((id) => ({
      test: testOf(id),
      verdict: 'FAIL',
      rules: [id],
      known: false,
      message: `${id}: the answer broke the rule (build ${o.build})`,
      counterexample: `[{"register":"CUVc","code":"${tag}-${o.build}"}]`,
      seed: 1000 + o.build,
      path: '0:1',
      shrinks: 4,
      errors: [],
      exchanges: [0, 1, 2].map((n) => ({
        request: { method: 'GET', url: `${url}/api/1/CUVc/${tag}-${n}`, headers: { authorization: '***' } },
        response: {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: { CUVc: [{ Code: `${tag}-${n}`, Name: filler(`${id}:${n}`, 1500) }] } }),
        },
        durationMs: 4 + n,
      })),
      curl: `curl -u erpcert:*** '${url}/api/1/CUVc/${tag}-0'`,
      replay: `erpcert conform --only '${id}' --seed ${1000 + o.build} --path 0:1`,
    })),
    coverage: {
      documented: { withTests: ids.filter((id) => verdicts.get(id) !== 'NONE'), withoutTests: [] },
      inferred: { withTests: [], withoutTests: [] },
      unspecified: { total: count(ids, 'NONE'), withTests: 0 },
      notObservable: [],
    },
    cleanup: { ledgerEntries: 12, deleted: 12, alreadyGone: 0, residue: [] },
    knownDeviations: null,
    problems: [],
  } as unknown as ResultsDocument;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The folder of a conformance run: results.json, junit.xml, summary.md, report.html, a HAR per failure. */
export function conformanceFolder(doc: ResultsDocument): Map<string, Buffer> {
  const rows = doc.rules.map((r) => `<tr><td>${esc(r.id)}</td><td>${r.verdict}</td><td>${esc(r.title)}</td></tr>`);
  const cases = doc.tests.map(
    (t) =>
      `<testcase name="${esc(t.name)}" classname="${esc(t.file)}" time="${(t.durationMs ?? 0) / 1000}">` +
      `${t.state === 'failed' ? '<failure message="rule broken"/>' : t.state === 'skipped' ? '<skipped/>' : ''}</testcase>`,
  );
  const files = new Map<string, Buffer>([
    ['results.json', Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)],
    [
      'junit.xml',
      Buffer.from(`<?xml version="1.0"?><testsuites><testsuite>${cases.join('\n')}</testsuite></testsuites>\n`),
    ],
    ['summary.md', Buffer.from(`# erpcert conformance\n\n${doc.run.target.url}: ${doc.totals.FAIL} FAIL\n`)],
    ['report.html', Buffer.from(`<!doctype html><title>erpcert</title><table>${rows.join('\n')}</table>\n`)],
  ]);
  doc.failures.forEach((f, i) => {
    const entries = f.exchanges.map((x) => ({ request: x.request, response: x.response, time: x.durationMs }));
    files.set(`evidence/failure-${i + 1}.har`, Buffer.from(JSON.stringify({ log: { version: '1.2', entries } })));
  });
  return files;
}

const SCENARIOS = ['invoices', 'transactions', 'read-raw', 'read-fields', 'sync', 'portal-mix'] as const;

/** results.json of one load run: every scenario, figures drifting with the build, a knee and its limiter. */
export function benchLoad(o: BenchRunSpec): LoadRunDocument {
  const url = benchTargetUrl(o.target);
  const started = new Date(o.startedAt);
  const lat = (p50: number) => ({ p50, p90: p50 * 2, p95: p50 * 3, p99: p50 * 5, max: p50 * 8 });
  return {
    schema: 'erpcert-load-results/1',
    tool: { name: 'erpcert', version: o.version ?? '0.1.0' },
    run: {
      startedAt: o.startedAt,
      finishedAt: new Date(started.getTime() + 360_000).toISOString(),
      durationSeconds: 360,
      engine: 'autocannon',
      engineNote: 'k6 is not built, so the Node-only autocannon engine runs',
      target: {
        url,
        embedded: false,
        seedSize: 10_000,
        user: 'erpcert',
        compcode: 1,
        companyIn: 'query',
        portalPath: '/WebErpAPI.hal',
      },
      settings: {
        scenarios: [...SCENARIOS],
        durationSeconds: 30,
        rate: null,
        pauseMs: 1000,
        batchSizes: [1000],
        timeoutMs: 10_000,
        saturation: { stages: 4, stageSeconds: 5, maxRate: null },
      },
      command: 'erpcert load',
      outcome: 'pass',
      exitCode: 0,
      interrupted: false,
    },
    scenarios: SCENARIOS.map((scenario) => {
      const rate = Math.round(100 + 80 * unit('rate', o.target, o.build, scenario));
      const p50 = Math.round(5 + 20 * unit('p50', o.target, o.build, scenario));
      return scenarioEntry(
        {
          scenario,
          engine: 'autocannon',
          offeredRate: rate,
          achievedRate: rate,
          latencyMs: lat(p50),
          requests: rate * 30,
          errors: 0,
          droppedIterations: 0,
          durationSeconds: 30,
          verdict: 'pass',
          reason: `achieved ${rate}/s`,
        },
        {
          scenario,
          engine: 'autocannon',
          latencyMs: lat(p50 * 3),
          requests: rate * 20,
          errors: 0,
          droppedIterations: 0,
          durationSeconds: 20,
          verdict: 'pass',
          reason: `the target saturates at ${rate * 2}/s`,
          saturation: [
            { offered: rate, achieved: rate, p99: p50 * 5, errors: 0, dropped: 0 },
            { offered: rate * 2, achieved: rate * 2, p99: p50 * 9, errors: 0, dropped: 0 },
            { offered: rate * 3, achieved: Math.round(rate * 2.2), p99: p50 * 40, errors: 3, dropped: 0 },
          ],
          saturationLimit: { limitedBy: 'target', evidence: `the ${rate * 3}/s step broke` },
        },
      );
    }),
    baseline: null,
    problems: [],
  } as LoadRunDocument;
}

export function loadFolder(doc: LoadRunDocument): Map<string, Buffer> {
  return new Map([
    ['results.json', Buffer.from(`${JSON.stringify(doc, null, 2)}\n`)],
    ['summary.md', Buffer.from(`# erpcert load\n\n${doc.run.target.url}\n`)],
  ]);
}
