import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunEvent, RunEvents, type TestEvent } from './events.js';
import { runSuite } from './run-suite.js';
import { NOT_EXERCISED, type Profile } from './verdict.js';

// A stand-in target: `/api/1/BOOM` answers an HTML 500 page, every other REST list an empty JSON envelope.
let server: Server;
const env = { ERPCERT_TARGET: 'http://127.0.0.1:9', ERPCERT_RUN_TAG: 'ECTEST1' };
beforeAll(async () => {
  server = createServer((req, res) => {
    const register = /^\/api\/1\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? 'X';
    if (register === 'BOOM') {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body><h1>Internal Server Error</h1></body></html>');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ data: { '@register': register, '@sequence': '7', '@systemversion': '1', [register]: [] } }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  env.ERPCERT_TARGET = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

async function run(
  files: string[],
  options: { profile?: Profile; selected?: string[]; signal?: AbortSignal; shard?: string } = {},
) {
  const events = new RunEvents();
  const seen: RunEvent[] = [];
  events.on((e) => {
    seen.push(e);
  });
  const result = await runSuite({
    env: { ...env, ERPCERT_PROFILE: options.profile ?? 'full' },
    profile: options.profile ?? 'full',
    events,
    include: files.map((f) => `src/runner/fixtures/${f}.prop.ts`),
    selected: options.selected,
    signal: options.signal,
    shard: options.shard,
  });
  const tests = seen.filter((e): e is TestEvent => e.type === 'test');
  const verdictOf = (rule: string) => tests.flatMap((t) => t.verdicts).find((v) => v.rule === rule)?.verdict;
  return { result, seen, tests, verdictOf };
}

// each case runs vitest on fixture files: give it time on a shared two-core machine
describe('runSuite on the fixtures', { timeout: 90_000 }, () => {
  it('maps every outcome to verdicts and emits start, tests, file ends and end in order', async () => {
    const { result, seen, tests, verdictOf } = await run(['passing', 'failing', 'skipping', 'unspecified', 'advisory']);
    expect(result.reason).toBe('failed');
    expect(result.errors).toEqual([]);
    expect(seen[0]).toMatchObject({
      type: 'run-start',
      files: [
        'src/runner/fixtures/advisory.prop.ts',
        'src/runner/fixtures/failing.prop.ts',
        'src/runner/fixtures/passing.prop.ts',
        'src/runner/fixtures/skipping.prop.ts',
        'src/runner/fixtures/unspecified.prop.ts',
      ],
    });
    expect(seen.at(-1)).toMatchObject({ type: 'run-end', reason: 'failed' });
    expect(seen.filter((e) => e.type === 'module-end')).toHaveLength(5);
    const want: [string, string | null | undefined][] = [
      ['REST.QUERY.SORT_ASCENDING', 'PASS'], // also proves the target env reached the worker
      ['REST.QUERY.LIMIT', 'PASS'],
      ['REST.QUERY.OFFSET', 'PASS'],
      ['REST.QUERY.FIELDS', 'SKIP'], // passed without an observation: not exercised
      ['REST.QUERY.FILTER_AND', 'FAIL'],
      ['REST.QUERY.RANGE_FROM_TO', 'ERROR'], // a failure that names no rule
      ['PORTAL.LOOKUP.CAP50', 'SKIP'],
      ['PORTAL.LOOKUP.TERMS_AND', 'SKIP'],
      ['REST.ERRORS.BODY_FORMAT_NOT_SHOWN', null],
      ['REST.ERRORS.STATUS_CODES_NOT_SHOWN', 'PASS'],
    ];
    expect(want.map(([rule]) => [rule, verdictOf(rule)])).toEqual(want);
    const failed = tests.find((t) => t.rules.includes('REST.QUERY.FILTER_AND'))!;
    expect(failed.failure).toMatchObject({ seed: 424242, path: '3:1:0', shrinks: 2 });
    expect(failed.failure?.exchanges).toHaveLength(1);
    expect(failed.reason).toContain('were ORed');
    const noMeta = tests.find((t) => t.rules.includes('REST.QUERY.RANGE_FROM_TO'))!;
    expect(noMeta.reason).toBe('expected 3 records, got 2');
    expect(tests.find((t) => t.rules.includes('PORTAL.LOOKUP.CAP50'))?.reason).toBe('the target has no INVc records');
    const unobserved = tests.find((t) => t.rules.includes('REST.QUERY.FIELDS'))!;
    expect(unobserved.verdicts).toEqual([{ rule: 'REST.QUERY.FIELDS', verdict: 'SKIP', reason: NOT_EXERCISED }]);
  });

  it('blames only what was observed: FAIL, ERROR and SKIP "not exercised" through the harness', async () => {
    const { result, tests } = await run(['verdicts']);
    expect(result.reason).toBe('failed');
    const of = (part: string) => {
      const t = tests.find((x) => x.name.includes(part))!;
      return Object.fromEntries(t.verdicts.map((v) => [v.rule, v.verdict]));
    };
    // the failure names INVC_FIELDS: it FAILs, untagged; the tagged rules get nothing from it
    expect(of('naming a rule the test is not tagged with')).toEqual({
      'PORTAL.LOOKUP.INVC_FIELDS': 'FAIL',
      'PORTAL.LOOKUP.CAP50': null,
      'PORTAL.LOOKUP.TERMS_AND': null,
    });
    // a precondition: the shape rule FAILs once, the behaviour rules get ERROR
    expect(of('without the shape')).toEqual({
      'REST.ENVELOPE.RECORDS_ARRAY': 'FAIL',
      'REST.QUERY.LIMIT': 'ERROR',
      'REST.QUERY.OFFSET': 'ERROR',
    });
    // an HTML 500: the transport rule FAILs with the exchange, the cut-short rule gets ERROR
    const cut = tests.find((t) => t.name.includes('cut short'))!;
    expect(of('cut short')).toEqual({
      'REST.ENVELOPE.FAILURE_XML_OR_JSON': 'FAIL',
      'REST.QUERY.SORT_ASCENDING': 'ERROR',
    });
    expect(cut.failure?.kind).toBe('target-fault');
    expect(cut.faults).toHaveLength(1);
    expect(cut.faults[0]).toMatchObject({
      rule: 'REST.ENVELOPE.FAILURE_XML_OR_JSON',
      exchange: { response: { status: 500 } },
    });
    expect(cut.faults[0]!.detail).toContain('HTTP 500');
    // a test that tolerated the 500 passes its rule, and the transport rule still FAILs
    expect(of('tolerates an HTML 500')).toEqual({
      'REST.QUERY.LIST_RECORDS': 'PASS',
      'REST.ENVELOPE.JSON_PARSES': 'PASS', // the JSON answer it received parsed: observed, untagged
      'REST.ENVELOPE.FAILURE_XML_OR_JSON': 'FAIL',
    });
    // no check observed the rule: SKIP "not exercised"
    const unobserved = tests.find((t) => t.name.includes('without observing'))!;
    expect(unobserved.verdicts).toEqual([
      { rule: 'REST.QUERY.FIELDS', verdict: 'SKIP', reason: NOT_EXERCISED },
      { rule: 'REST.ENVELOPE.JSON_PARSES', verdict: 'PASS' },
    ]);
    // the received JSON answers count as observations of the transport rule
    expect(unobserved.observations['REST.ENVELOPE.JSON_PARSES']).toBe(1);
    expect(unobserved.observations['REST.QUERY.FIELDS']).toBeUndefined();
    // a TypeError of the suite names no rule: ERROR, never FAIL
    expect(of('a defect of the suite')).toEqual({ 'REST.QUERY.RANGE_FROM_TO': 'ERROR' });
    expect(tests.find((t) => t.name.includes('a defect of the suite'))?.reason).toContain('TypeError');
  });

  it('strict profile: an advisory and an unspecified failure are WARN', async () => {
    const { verdictOf } = await run(['unspecified', 'advisory'], { profile: 'strict' });
    expect(verdictOf('REST.ERRORS.BODY_FORMAT_NOT_SHOWN')).toBe('WARN');
    expect(verdictOf('REST.ERRORS.STATUS_CODES_NOT_SHOWN')).toBe('WARN');
  });

  it('--only runs the selected tests and reports the others as not selected', async () => {
    const { result, tests } = await run(['passing', 'failing'], {
      selected: ['REST.QUERY.LIMIT', 'REST.QUERY.FIELDS'],
    });
    expect(result.reason).toBe('passed');
    const ran = tests.filter((t) => t.selected).map((t) => t.rules);
    expect(ran).toEqual([['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'], ['REST.QUERY.FIELDS']]);
    const filtered = tests.filter((t) => !t.selected);
    expect(filtered.map((t) => t.rules).sort()).toEqual([
      ['REST.QUERY.FILTER_AND'],
      ['REST.QUERY.RANGE_FROM_TO'],
      ['REST.QUERY.SORT_ASCENDING'],
    ]);
    expect(filtered.every((t) => t.verdicts.length === 0 && t.state === 'skipped')).toBe(true);
  });

  it('--shard i/n runs a part of the files; the parts together run each file once', async () => {
    const files = ['passing', 'failing', 'skipping', 'advisory'];
    const parts = [await run(files, { shard: '1/2' }), await run(files, { shard: '2/2' })];
    const ran = parts.map((p) => p.seen.flatMap((e) => (e.type === 'module-end' ? [e.file] : [])).sort());
    // run-start announces the shard's files, not all of them
    for (const [i, p] of parts.entries()) expect(p.seen[0]).toMatchObject({ type: 'run-start', files: ran[i] });
    expect(ran[0]!.length).toBeGreaterThan(0);
    expect(ran[1]!.length).toBeGreaterThan(0);
    expect([...ran[0]!, ...ran[1]!].sort()).toEqual(files.map((f) => `src/runner/fixtures/${f}.prop.ts`).sort());
  });

  it('an aborted signal interrupts the run', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result, tests } = await run(['passing'], { signal: controller.signal });
    expect(result.reason).toBe('interrupted');
    expect(tests).toEqual([]);
  });

  it('no test files: a run without tests, not an error', async () => {
    const { result, tests } = await run(['does-not-exist']);
    expect(result).toEqual({ reason: 'passed', errors: [] });
    expect(tests).toEqual([]);
  });
});
