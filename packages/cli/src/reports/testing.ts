/**
 * Helpers of the reports' tests. Not used by the CLI itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { erpcertVersion } from '@erpcert/client';
import { getRule, matchRules } from '@erpcert/contract';
import type { ResultsDocument } from '@erpcert/runs';
import { XMLValidator } from 'fast-xml-parser';
import { ResultsCollector, type RunContext } from './collector.js';
import type { RunEvent, TestEvent } from './runner.js';

/** True when `xml` is a well-formed XML document, else the parser's complaint. */
export function xmlWellFormed(xml: string): true | string {
  const r = XMLValidator.validate(xml);
  return r === true ? true : `${r.err.code} line ${r.err.line}: ${r.err.msg}`;
}

/** Every file under `dir` whose text contains any of `needles`, with the needle found. */
export function filesContaining(dir: string, needles: readonly string[]): string[] {
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      hits.push(...filesContaining(path, needles));
      continue;
    }
    const text = readFileSync(path, 'utf8');
    for (const n of needles) if (n !== '' && text.includes(n)) hits.push(`${path} holds ${JSON.stringify(n)}`);
  }
  return hits;
}

/** A small, fixed results document built by the real collector from synthetic events (writers' tests). */
export function sampleResults(
  overrides: { events?: readonly RunEvent[]; scope?: string; only?: string | null; context?: Partial<RunContext> } = {},
): ResultsDocument {
  const scope = matchRules(overrides.scope ?? 'REST.QUERY.*,REST.ERRORS.*');
  const collector = new ResultsCollector(scope, getRule, { user: 'ci' });
  const events: readonly RunEvent[] = overrides.events ?? sampleEvents();
  for (const e of events) collector.listener(e);
  return collector.build({
    run: {
      startedAt: '2025-03-01T10:00:00.000Z',
      finishedAt: '2025-03-01T10:00:42.000Z',
      durationMs: 42_000,
      target: {
        url: 'https://erp.example.com',
        embedded: false,
        user: 'ci',
        compcode: 1,
        companyIn: 'query',
        portalPath: '/WebErpAPI.hal',
        portalcc: null,
        usercode: null,
      },
      profile: 'full',
      runs: null,
      seed: null,
      path: null,
      only: overrides.only ?? null,
      shard: null,
      pace: null,
      runTag: 'ECAB12',
      interrupted: false,
      command: 'erpcert conform --target https://erp.example.com --user ci',
    },
    spec: { versions: { rest: '1', portal: '1.0.1' }, sha256: 'a'.repeat(64), files: 3 },
    toolVersion: erpcertVersion(),
    cleanup: {
      ledgerEntries: 3,
      deleted: 1,
      alreadyGone: 0,
      residue: [
        {
          register: 'INVc',
          key: 'ECAB12I',
          company: 1,
          status: 'closed',
          reason: 'no documented delete; closed with Terminated=1',
        },
        {
          register: 'PDVc',
          key: 'ECAB12P',
          company: 1,
          status: 'left',
          reason: 'no documented delete for PDVc and no field that closes it',
        },
      ],
    },
    errors: [],
    ...overrides.context,
  });
}

/** A test event with defaults. */
export function testEvent(e: Partial<TestEvent> & Pick<TestEvent, 'rules' | 'state' | 'verdicts'>): TestEvent {
  return {
    type: 'test',
    file: 'properties/rest/query.prop.ts',
    name: `[${e.rules.join(', ')}] ${e.state}`,
    fullName: `rest query > [${e.rules.join(', ')}] ${e.state}`,
    selected: true,
    errors: [],
    observations: Object.fromEntries(e.verdicts.flatMap((v) => (v.verdict === 'PASS' ? [[v.rule, 1]] : []))),
    faults: [],
    durationMs: 12,
    ...e,
  };
}

/** The events of {@link sampleResults}: a PASS, a FAIL with a nasty payload, a SKIP, a WARN, an ERROR. */
export function sampleEvents(): RunEvent[] {
  return [
    { type: 'run-start', at: '2025-03-01T10:00:00.000Z', files: ['properties/rest/query.prop.ts'] },
    testEvent({
      rules: ['REST.QUERY.SORT_ASCENDING'],
      state: 'passed',
      verdicts: [{ rule: 'REST.QUERY.SORT_ASCENDING', verdict: 'PASS' }],
    }),
    testEvent({
      rules: ['REST.QUERY.FILTER_AND'],
      state: 'failed',
      verdicts: [{ rule: 'REST.QUERY.FILTER_AND', verdict: 'FAIL' }],
      reason: 'filters were ORed <b>&</b> "quoted" ]]> \u0001 ✓',
      errors: ['AssertionError: expected 1 to be 2'],
      failure: {
        message: 'filters were ORed <b>&</b> "quoted" ]]> \u0001 ✓',
        counterexample: '[{"CustCode":"C<1>","PayDeal":"30 | 60"}]',
        seed: -1_234_567,
        path: '3:1:0',
        shrinks: 4,
        exchanges: [
          {
            request: {
              method: 'GET',
              url: 'https://erp.example.com/api/1/IVVc?compcode=1&filter.CustCode=C%3C1%3E',
              headers: { authorization: 'Basic ***' },
            },
            response: {
              status: 200,
              headers: { 'content-type': 'text/xml' },
              body: '<data><IVVc><SerNr>7</SerNr></IVVc></data>',
            },
          },
        ],
      },
    }),
    testEvent({
      rules: ['REST.QUERY.LIMIT'],
      state: 'skipped',
      verdicts: [{ rule: 'REST.QUERY.LIMIT', verdict: 'SKIP' }],
      reason: 'the target has no IVVc records',
    }),
    testEvent({
      rules: ['REST.QUERY.RANGE_FROM_TO'],
      state: 'failed',
      verdicts: [{ rule: 'REST.QUERY.RANGE_FROM_TO', verdict: 'ERROR' }],
      reason: 'TransportError: list IVVc: transport timeout: no complete response within 30000 ms',
      errors: ['TransportError: list IVVc: transport timeout: no complete response within 30000 ms'],
      observations: { 'REST.QUERY.RANGE_FROM_TO': 2 },
      faults: [{ rule: null, detail: 'GET list IVVc: no answer (no complete response within 30000 ms)' }],
      failure: {
        message: 'TransportError: list IVVc: transport timeout: no complete response within 30000 ms',
        kind: 'target-fault',
        rules: [],
        exchanges: [
          {
            request: {
              method: 'GET',
              url: 'https://erp.example.com/api/1/IVVc?compcode=1&range=1:9&sort=SerNr',
              headers: { authorization: 'Basic ***' },
            },
            error: 'no complete response within 30000 ms',
          },
        ],
      },
    }),
    testEvent({
      rules: ['REST.ERRORS.STATUS_CODES_NOT_SHOWN'],
      state: 'passed',
      verdicts: [{ rule: 'REST.ERRORS.STATUS_CODES_NOT_SHOWN', verdict: 'WARN' }],
      reason: 'answers 200 with an error body',
    }),
    { type: 'module-end', file: 'properties/rest/query.prop.ts', errors: [] },
    { type: 'run-end', at: '2025-03-01T10:00:42.000Z', reason: 'failed', errors: [] },
  ];
}
