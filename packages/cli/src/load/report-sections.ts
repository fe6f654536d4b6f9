/**
 * The tables of a load report as rows of plain strings, shared by summary.md and report.html so that both say
 * the same thing.
 */

import type { LoadRunDocument, LoadScenarioEntry } from '@erpcert/runs';
import { formatBytes, formatChange, formatNumber } from '@erpcert/runs';

/** A table: header cells and rows of cells (plain text). */
export interface Table {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Columns holding numbers (right-aligned). */
  readonly numeric: readonly number[];
}

const ms = (n: number) => formatNumber(n);

/** The ratio column: `2.5x` or `-` without a documented figure. */
export function ratioText(e: LoadScenarioEntry): string {
  return e.comparison.ratio === null ? '-' : `${formatNumber(e.comparison.ratio)}x`;
}

/** Scenario, documented figure, measured figure, ratio, verdict. */
export function verdictTable(doc: LoadRunDocument): Table {
  return {
    head: ['Scenario', 'Documented (record-rest-api.md §8)', 'Measured', 'Ratio', 'Verdict', 'Why'],
    rows: doc.scenarios.map((e) => [
      e.scenario,
      e.comparison.documented,
      e.comparison.measured,
      ratioText(e),
      e.verdict,
      e.reason,
    ]),
    numeric: [3],
  };
}

/** What a report shows for p95 in a run of an erpcert that did not measure it (never 0). */
export const P95_NOT_RECORDED = 'not recorded';

/** Latency percentiles in milliseconds; p95 "not recorded" in a run of an older erpcert. */
export function latencyTable(doc: LoadRunDocument): Table {
  return {
    head: ['Scenario', 'Requests', 'p50 ms', 'p90 ms', 'p95 ms', 'p99 ms', 'max ms'],
    rows: doc.scenarios.map((e) => [
      e.scenario,
      formatNumber(e.requests),
      ms(e.latencyMs.p50),
      ms(e.latencyMs.p90),
      e.latencyMs.p95 === undefined ? P95_NOT_RECORDED : ms(e.latencyMs.p95),
      ms(e.latencyMs.p99),
      ms(e.latencyMs.max),
    ]),
    numeric: [1, 2, 3, 4, 5, 6],
  };
}

/** Errors, drops and checks. */
export function errorTable(doc: LoadRunDocument): Table {
  return {
    head: ['Scenario', 'Requests', 'Errors', 'Dropped', 'Checks passed', 'Checks failed'],
    rows: doc.scenarios.map((e) => [
      e.scenario,
      formatNumber(e.requests),
      formatNumber(e.errors),
      formatNumber(e.droppedIterations),
      e.checks ? formatNumber(e.checks.passes) : '-',
      e.checks ? formatNumber(e.checks.fails) : '-',
    ]),
    numeric: [1, 2, 3, 4, 5],
  };
}

/** Bytes per record, measured beside documented (information: our sizes differ from the real ERP's). */
export function bytesTable(doc: LoadRunDocument): Table {
  return {
    head: ['Scenario', 'Bytes per record', 'Documented bytes per record', 'What'],
    rows: doc.scenarios
      .filter((e) => e.bytesPerRecord !== undefined)
      .map((e) => [
        e.scenario,
        formatNumber(e.bytesPerRecord ?? 0),
        e.comparison.documentedBytesPerRecord === null ? '-' : formatNumber(e.comparison.documentedBytesPerRecord),
        e.read ? 'response bytes of the read / records read' : 'response bytes per created record (the POST answer)',
      ]),
    numeric: [1, 2],
  };
}

/** Every read at every batch size: request time (the verdict), wall time with pauses, size. */
export function readsTable(doc: LoadRunDocument): Table {
  const rows: string[][] = [];
  for (const e of doc.scenarios)
    for (const r of e.reads ?? (e.read ? [e.read] : []))
      rows.push([
        e.scenario,
        formatNumber(r.batch),
        formatNumber(r.records),
        formatNumber(r.seconds),
        r.pacedSeconds === undefined ? '-' : formatNumber(r.pacedSeconds),
        formatBytes(r.bytes),
      ]);
  return {
    head: ['Scenario', 'Batch', 'Records', 'Request time s', 'Wall time s (with pauses)', 'Bytes'],
    rows,
    numeric: [1, 2, 3, 4],
  };
}

/** The saturation steps of one scenario in the order they ran (summary.md shows this; report.html draws the chart). */
export function saturationTable(e: LoadScenarioEntry): Table {
  return {
    head: [
      'Offered /s',
      'Achieved /s',
      'p99 ms',
      'Errors',
      'Dropped',
      'Step',
      'Generator CPU',
      'Target CPU',
      'Machine CPU busy',
      'CPU-µs/op',
      'Generator signals',
    ],
    rows: (e.saturation ?? []).map((s) => [
      formatNumber(s.offered),
      formatNumber(s.achieved),
      ms(s.p99),
      formatNumber(s.errors),
      s.dropped === undefined ? '-' : formatNumber(s.dropped),
      s.phase ?? '-',
      s.generator ? `${formatNumber(s.generator.cpuCores)} of ${s.generator.workers}` : '-',
      s.generator?.targetCpuCores === undefined ? '-' : formatNumber(s.generator.targetCpuCores),
      s.generator?.machineBusyCores === undefined || s.generator.machineCores === undefined
        ? '-'
        : `${formatNumber(s.generator.machineBusyCores)} of ${s.generator.machineCores}`,
      s.generator?.cpuMicrosPerOp === undefined ? '-' : formatNumber(s.generator.cpuMicrosPerOp),
      s.generator ? generatorSignals(s.generator) : '-',
    ]),
    numeric: [0, 1, 2, 3, 4, 9],
  };
}

function generatorSignals(g: NonNullable<NonNullable<LoadScenarioEntry['saturation']>[number]['generator']>): string {
  const parts: string[] = [];
  if (g.eventLoopDelayMs !== undefined) parts.push(`event loop late ${formatNumber(g.eventLoopDelayMs)} ms`);
  if (g.insufficientVUs !== undefined) parts.push(`${formatNumber(g.insufficientVUs)} Insufficient VUs`);
  return parts.join(', ') || '-';
}

/** What the words of `limitedBy` mean, for the reader of a report. */
export const LIMITED_BY_MEANING = {
  target:
    'the target broke (errors, drops, p99 over the bound or achieved below offered) while the generator had room: the knee is the target’s on this setup (on a saturated machine, what it got of the machine)',
  generator:
    'the load generator was the limit (its CPU near one core per worker, the machine saturated with half or more of its busy CPU the generator’s or the generator using more CPU than the target, a late event loop, or k6 short of VUs while the target’s latency stayed flat): the knee is the tool’s, not the target’s',
  'step-limit':
    'no step broke up to the highest step run (--max-rate or the step count): the target’s knee lies higher',
} as const;

/** `limited by generator: <evidence>. What to do: <advice>` */
export function limitText(v: NonNullable<LoadScenarioEntry['saturationVerdict']>): string {
  return `limited by ${v.limitedBy}: ${v.evidence}${v.advice ? `. What to do: ${v.advice}` : ''}`;
}

/** The baseline changes. */
export function baselineTable(doc: LoadRunDocument): Table {
  return {
    head: ['Scenario', 'Figure', 'Baseline', 'Now', 'Change', ''],
    rows: (doc.baseline?.changes ?? []).map((c) => [
      c.scenario,
      c.figure,
      formatNumber(c.before),
      formatNumber(c.after),
      formatChange(c.change),
      c.direction,
    ]),
    numeric: [2, 3, 4],
  };
}

/** The notes every report carries: how to read the ratio, the pause, the sizes. */
export function notes(doc: LoadRunDocument): string[] {
  const s = doc.run.settings;
  return [
    'Ratio: achieved rate / documented minimum for the rate scenarios; documented seconds / measured seconds for the reads. Above 1 is better than documented.',
    `Reads: the measured read time is the sum of the request times; the docs ask for pauses of about one second between batch requests (record-rest-api.md §4 rule 12), so the wall time with the pauses is shown beside it (this run: ${s.pauseMs} ms between page starts, batches of ${s.batchSizes.join(' and ')}).`,
    'Sizes are information, not a verdict: the reference server carries only the documented fields, so its records are smaller than the real ERP’s.',
    'Rate scenarios run an open model: operations arrive at the offered rate whether or not earlier ones finished; one that cannot start in time is dropped, and only operations whose every response check passed count as achieved (a fast error is not throughput).',
  ];
}
