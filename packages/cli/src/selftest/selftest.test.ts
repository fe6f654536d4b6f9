/**
 * The suite's detection power (issue 5 "The suite is tested too"): each mutant of mutants.ts breaks one
 * documented behaviour behind a proxy in front of the reference server; `erpcert conform --only <its rules>`
 * must FAIL exactly the rules it names. A baseline run of the same rules through an unchanged proxy must FAIL
 * nothing first. The rate goes to reports/selftest/<timestamp>/detection.json and one line of output.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type RunningServer, startServer } from '@erpcert/refserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conform, runConform } from '../commands/conform.js';
import { parseArgs } from '../options.js';
import type { ResultsDocument } from '../reports/results.js';
import {
  type DetectionReport,
  detectionLine,
  detectionReport,
  judge,
  type MutantOutcome,
  selectionOf,
  writeDetection,
} from './detection.js';
import { type MutantContext, mutants } from './mutants.js';
import { type Mutant, startProxy } from './proxy.js';

/** The reference server's default login and demo user codes (packages/refserver/README.md "Demo users"). */
const ctx: MutantContext = { user: 'erpcert', password: 'erpcert', usercode: 'ADMIN' };
const all = mutants(ctx);
/** A fixed seed: the same generated inputs on every run, so that detection does not depend on luck. */
const SEED = 20250301;

let server: RunningServer;
const work = mkdtempSync(join(tmpdir(), 'erpcert-selftest-'));
const started = new Date();
const outcomes: MutantOutcome[] = [];
let baseline: DetectionReport['baseline'] | undefined;
let tested = new Set<string>();

const quiet = () =>
  new Writable({
    write(_c, _e, done) {
      done();
    },
  });

/** `erpcert conform --target <proxy> --only <select>` in-process; the results document. */
async function conformThrough(mutant: Mutant | undefined, select: string, name: string) {
  const proxy = await startProxy(server.url, mutant);
  const out = join(work, name);
  try {
    const args = ['--target', proxy.url, '--user', ctx.user, '--password', ctx.password, '--compcode', '1'];
    args.push('--usercode', ctx.usercode, '--unok-usercode', 'ACC', '--limited-usercode', 'JD');
    args.push('--only', select, '--seed', String(SEED), '--out', out);
    const { values } = parseArgs('conform', conform.flags, args, {}, work);
    const code = await runConform(values, { out: quiet(), err: quiet(), env: {}, cwd: work }, { signals: false });
    const doc = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as ResultsDocument;
    return { code, doc, hits: { ...proxy.hits } };
  } finally {
    await proxy.close();
  }
}

beforeAll(async () => {
  server = await startServer({ port: 0, seed: 100, log: () => {} });
  const union = [...new Set(all.flatMap((m) => selectionOf(m).split(',')))].join(',');
  const base = await conformThrough(undefined, union, 'baseline');
  tested = new Set(base.doc.rules.filter((r) => r.tested).map((r) => r.id));
  baseline = {
    select: union,
    failed: base.doc.rules.filter((r) => r.verdict === 'FAIL').map((r) => r.id),
    exitCode: base.code,
  };
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (baseline) {
    const report = detectionReport(started, baseline, outcomes);
    const file = writeDetection(report);
    console.log(`${detectionLine(report)}\n  written to ${file}`);
  }
  rmSync(work, { recursive: true, force: true });
});

describe('detection power: every mutant is caught by the rules it breaks', () => {
  it('the baseline (the same rules, nothing broken) has no FAIL', () => {
    expect(baseline?.failed).toEqual([]);
    expect(baseline?.exitCode).toBe(0);
  });

  it('there are at least 15 mutants', () => {
    expect(all.length).toBeGreaterThanOrEqual(15);
  });

  const cases: [string, Mutant][] = all.map((m) => [m.id, m]);
  it.for(cases)('%s', { timeout: 300_000 }, async ([, m], test) => {
    const uncovered = m.breaks.filter((r) => !tested.has(r));
    const t0 = Date.now();
    if (uncovered.length > 0) {
      outcomes.push({
        id: m.id,
        description: m.description,
        breaks: m.breaks,
        select: selectionOf(m),
        status: 'uncovered',
        failed: [],
        exitCode: null,
        proxyHits: null,
        durationMs: 0,
        problems: [`no test of the suite names ${uncovered.join(', ')}`],
      });
      // counted as not detected in detection.json; skipped here until a property covers the rule
      test.skip(`no property of the suite covers ${uncovered.join(', ')} yet`);
      return;
    }
    const run = await conformThrough(m, selectionOf(m), m.id);
    const failed = run.doc.rules.filter((r) => r.verdict === 'FAIL').map((r) => r.id);
    const outcome: MutantOutcome = {
      id: m.id,
      description: m.description,
      breaks: m.breaks,
      select: selectionOf(m),
      status: judge(m, run.doc),
      failed,
      exitCode: run.code,
      proxyHits: run.hits,
      durationMs: Date.now() - t0,
      problems: run.doc.problems,
    };
    outcomes.push(outcome);
    expect(run.hits.requests + run.hits.responses, 'the suite never reached the broken behaviour').toBeGreaterThan(0);
    expect(run.code).toBe(1);
    expect(failed).toEqual(
      [...m.breaks].sort(
        (a, b) => run.doc.rules.findIndex((r) => r.id === a) - run.doc.rules.findIndex((r) => r.id === b),
      ),
    );
  });
});
