import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DocumentedFigure,
  generatorText,
  type LoadScenarioResult,
  type ReadFigure,
  scenarios,
} from '@erpcert/load-k6';
import { NO_LATENCY } from './latency-histogram.js';
import { connectionsFor, type RunMeasurement, runPlan, type ScenarioRequest } from './open-model.js';
import { DEFAULT_INFO_RATES, LoadConfigError, type LoadRunOptions, READ_BATCH } from './options.js';
import { saturate } from './saturation.js';
import {
  invoiceSequence,
  portalMixSequence,
  readSequence,
  syncSequence,
  TEN_FIELDS,
  transactionSequence,
} from './sequences.js';
import { prepareScenario, type ScenarioData } from './setup.js';
import { type TargetRequests, targetRequests } from './target.js';
import { judge, judgeSaturation } from './verdict.js';

/** A scenario of the catalogue, with its literal name. */
export type CatalogueScenario = (typeof scenarios)[number];

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A run tag for the records a load run creates: `erpcert-load-<8 hex>`. */
export function newLoadRunTag(): string {
  return `erpcert-load-${randomBytes(4).toString('hex')}`;
}

function positiveInteger(name: string, v: number | undefined): void {
  if (v !== undefined && !(Number.isInteger(v) && v >= 1))
    throw new LoadConfigError(`${name} must be a whole number of at least 1, got ${v}`);
}

/** Checks the options that do not need the target; throws LoadConfigError. */
export function checkOptions(o: LoadRunOptions): CatalogueScenario {
  const scenario = scenarios.find((s) => s.name === o.scenario);
  if (!scenario)
    throw new LoadConfigError(
      `unknown scenario ${JSON.stringify(o.scenario)}; scenarios: ${scenarios.map((s) => s.name).join(', ')}`,
    );
  positiveInteger('durationSeconds', o.durationSeconds);
  positiveInteger('rate', o.rate);
  positiveInteger('maxVUs', o.maxVUs);
  positiveInteger('records', o.records);
  positiveInteger('fullCheckEvery', o.fullCheckEvery);
  if (o.timeoutMs !== undefined && !(o.timeoutMs > 0)) throw new LoadConfigError('timeoutMs must be > 0');
  if (o.pauseMs !== undefined && !(o.pauseMs >= 0)) throw new LoadConfigError('pauseMs must be >= 0');
  for (const batch of o.batchSizes ?? [])
    if (!Number.isInteger(batch) || batch < READ_BATCH.min || batch > READ_BATCH.max)
      throw new LoadConfigError(
        `batch sizes must be ${READ_BATCH.min} to ${READ_BATCH.max} records per request (record-rest-api.md §4 rule 12), got ${batch}`,
      );
  const sat = o.saturation;
  if (sat) {
    positiveInteger('saturation.stageSeconds', sat.stageSeconds);
    positiveInteger('saturation.maxSteps', sat.maxSteps);
    if (!(sat.start >= 1) || !(sat.maxRate >= sat.start))
      throw new LoadConfigError('saturation needs start >= 1 and maxRate >= start');
  }
  return scenario;
}

/** The offered rate: the option, else the documented maximum, else the scenario's default. */
export function offeredRate(scenario: CatalogueScenario, o: LoadRunOptions): number {
  if (o.rate !== undefined) return o.rate;
  const documented = (scenario.documented as DocumentedFigure).ratePerSecond?.max;
  if (documented !== undefined) return documented;
  return DEFAULT_INFO_RATES[scenario.name as keyof typeof DEFAULT_INFO_RATES] ?? 2;
}

function sequenceFor(
  scenario: CatalogueScenario,
  t: TargetRequests,
  d: ScenarioData,
  tag: string,
  count: number,
  fullCheckEvery?: number,
): ScenarioRequest[] {
  switch (scenario.name) {
    case 'invoices':
      return invoiceSequence(t, d, tag, count, fullCheckEvery);
    case 'transactions':
      return transactionSequence(t, d, tag, count, fullCheckEvery);
    case 'sync':
      return syncSequence(t, d, tag, count);
    default:
      return portalMixSequence(t, d);
  }
}

/** Context of one run, shared by the three kinds of scenario. */
interface RunContext {
  readonly scenario: CatalogueScenario;
  readonly figure: DocumentedFigure;
  readonly o: LoadRunOptions;
  readonly t: TargetRequests;
  readonly data: ScenarioData;
  readonly timeoutSeconds: number;
  readonly maxConnections: number;
  readonly runTag: string;
  readonly signal?: AbortSignal;
  say(line: string): void;
}

async function readScenario(c: RunContext): Promise<LoadScenarioResult> {
  const records = c.o.records ?? c.figure.read?.records ?? 10_000;
  const pauseMs = c.o.pauseMs ?? 1000;
  const fields = c.scenario.name === 'read-fields' ? TEN_FIELDS : undefined;
  const reads: ReadFigure[] = [];
  const measured: RunMeasurement[] = [];
  for (const batch of c.o.batchSizes ?? READ_BATCH.defaults) {
    if (c.signal?.aborted) break;
    const pages = Math.ceil(records / batch);
    c.say(`${c.scenario.name}: ${records} records in ${pages} pages of ${batch}, ${pauseMs} ms between pages`);
    const m = await runPlan({
      origin: c.t.origin,
      ...(c.o.connectAddress !== undefined ? { connectAddress: c.o.connectAddress } : {}),
      sequence: readSequence(c.t, records, batch, fields),
      amount: pages,
      connections: 1,
      // the documented pause of about one second (§4 rule 12): page starts at most once per pause
      ...(pauseMs > 0 ? { connectionRate: Math.max(1, Math.round(1000 / pauseMs)) } : {}),
      timeoutSeconds: c.timeoutSeconds,
      ...(c.signal ? { signal: c.signal } : {}),
    });
    measured.push(m);
    reads.push({
      records: Math.min(records, m.succeeded * batch),
      seconds: round(m.responseMsTotal / 1000),
      bytes: m.bytes,
      batch,
      pacedSeconds: m.wallSeconds,
    });
  }
  const worst =
    reads.find((r) => r.records < records) ??
    reads.reduce((a, b) => (b.seconds > a.seconds ? b : a), reads[0] ?? { records: 0, seconds: 0, bytes: 0, batch: 0 });
  const errors = measured.reduce((n, m) => n + m.errors, 0);
  const verdict = judge(c.figure, {
    operations: measured.reduce((n, m) => n + m.offered, 0),
    errors,
    droppedIterations: 0,
    reads: reads.map((r) => ({ records: r.records, seconds: r.seconds, batch: r.batch })),
    expectedRecords: records,
    failures: measured.flatMap((m) => m.failures),
    stopped: measured.some((m) => m.stopped),
  });
  const mb = (bytes: number) => `${round(bytes / 1_000_000, 2)} MB`;
  const detail = reads
    .map((r) => `batches of ${r.batch}: ${r.seconds} s request time, ${r.pacedSeconds} s wall, ${mb(r.bytes)}`)
    .join('; ');
  const pacing =
    pauseMs > 0
      ? `${pauseMs} ms between page starts`
      : 'pages sent back to back (pause 0): with the documented ~1 s pause the wall time adds about 1 s per page';
  const sizeNote = c.figure.read ? `; documented about ${mb(c.figure.read.bytes)} (size is information)` : '';
  const main = measured[reads.indexOf(worst)] ?? measured[0];
  return {
    scenario: c.scenario.name,
    engine: 'autocannon',
    read: worst,
    reads,
    ...(worst.records > 0 ? { bytesPerRecord: round(worst.bytes / worst.records, 1) } : {}),
    latencyMs: main && main.responses > 0 ? main.latencyMs : NO_LATENCY,
    requests: measured.reduce((n, m) => n + m.sent, 0),
    errors,
    droppedIterations: 0,
    durationSeconds: round(measured.reduce((n, m) => n + m.wallSeconds, 0)),
    verdict: verdict.verdict,
    reason: `${verdict.reason}; ${detail}; ${pacing}${sizeNote}`,
  };
}

async function rateScenario(c: RunContext): Promise<LoadScenarioResult> {
  const rate = offeredRate(c.scenario, c.o);
  const seconds = c.o.durationSeconds ?? 10;
  const count = rate * seconds;
  c.say(`${c.scenario.name}: ${count} operations offered at ${rate}/s for ${seconds} s (open model)`);
  const m = await runPlan({
    origin: c.t.origin,
    ...(c.o.connectAddress !== undefined ? { connectAddress: c.o.connectAddress } : {}),
    sequence: sequenceFor(c.scenario, c.t, c.data, c.runTag, count, c.o.fullCheckEvery),
    rate,
    seconds,
    connections: connectionsFor(rate, c.maxConnections),
    timeoutSeconds: c.timeoutSeconds,
    ...(c.signal ? { signal: c.signal } : {}),
  });
  const achievedRate = round(m.succeeded / seconds);
  const verdict = judge(c.figure, {
    offered: rate,
    achievedRate,
    operations: m.offered,
    errors: m.errors,
    droppedIterations: m.dropped,
    failures: m.failures,
    stopped: m.stopped,
  });
  // bytes per created record: the POST answer of one invoice or journal entry
  const created = c.scenario.name === 'invoices' || c.scenario.name === 'transactions';
  return {
    scenario: c.scenario.name,
    engine: 'autocannon',
    offeredRate: rate,
    achievedRate,
    ...(created && m.responses > 0 ? { bytesPerRecord: round(m.bytes / m.responses, 1) } : {}),
    latencyMs: m.responses > 0 ? m.latencyMs : NO_LATENCY,
    requests: m.sent,
    errors: m.errors,
    droppedIterations: m.dropped,
    durationSeconds: m.wallSeconds,
    checks: m.checks,
    verdict: verdict.verdict,
    reason: verdict.reason,
  };
}

async function saturationScenario(c: RunContext): Promise<LoadScenarioResult> {
  const sat = c.o.saturation!;
  c.say(
    `${c.scenario.name}: saturation from ${sat.start}/s, doubling up to ${sat.maxRate}/s, then bisection; ${sat.stageSeconds} s per step`,
  );
  const curve = await saturate({
    origin: c.t.origin,
    ...(c.o.connectAddress !== undefined ? { connectAddress: c.o.connectAddress } : {}),
    sequence: (n, step) => sequenceFor(c.scenario, c.t, c.data, `${c.runTag}-s${step}`, n, c.o.fullCheckEvery),
    options: sat,
    maxConnections: c.maxConnections,
    timeoutSeconds: c.timeoutSeconds,
    ...(c.signal ? { signal: c.signal } : {}),
    ...(c.o.targetCpuMicros ? { targetCpuMicros: c.o.targetCpuMicros } : {}),
    onStep: (s) =>
      c.say(
        `${c.scenario.name}: ${s.offered}/s -> ${s.achieved}/s, p99 ${s.p99} ms, ${s.errors} errors, ${s.dropped} dropped${s.generator ? `; ${generatorText(s.generator)}` : ''}`,
      ),
  });
  const verdict = judgeSaturation(c.figure, curve);
  return {
    scenario: c.scenario.name,
    engine: 'autocannon',
    offeredRate: curve.steps.reduce((max, s) => Math.max(max, s.offered), sat.start),
    achievedRate: curve.best,
    latencyMs: curve.latencyMs,
    requests: curve.requests,
    errors: curve.errors,
    droppedIterations: curve.dropped,
    durationSeconds: curve.seconds,
    verdict: verdict.verdict,
    reason: verdict.reason,
    saturation: curve.steps,
    saturationLimit: curve.limit,
  };
}

/**
 * Runs one scenario of the catalogue on autocannon against `o.target` and judges it against the documented
 * figure; with `saturation`, runs the stepped variant instead. Bounded: a rate run lasts `durationSeconds` plus
 * at most one request timeout, a read at most one timeout per page, and `hardTimeoutMs` stops anything.
 * Throws LoadConfigError for bad options and LoadTargetError when the setup requests fail (unreachable target,
 * refused credentials, missing data); a slow or failing target during the load is a `fail` verdict with the
 * reason.
 */
export async function runAutocannonScenario(o: LoadRunOptions): Promise<LoadScenarioResult> {
  const scenario = checkOptions(o);
  const t = targetRequests(o);
  const hard = new AbortController();
  const bound = o.hardTimeoutMs ?? hardTimeoutMs(o);
  const timer = setTimeout(() => hard.abort(), bound);
  const onAbort = () => hard.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) hard.abort();
  try {
    const data = await prepareScenario(scenario.name, t);
    const c: RunContext = {
      scenario,
      figure: scenario.documented,
      o,
      t,
      data,
      timeoutSeconds: (o.timeoutMs ?? 10_000) / 1000,
      maxConnections: o.maxVUs ?? 64,
      runTag: o.runId ?? newLoadRunTag(),
      signal: hard.signal,
      say: (line) => o.onOutput?.(`${line}\n`),
    };
    const result = c.figure.read
      ? await readScenario(c)
      : o.saturation && c.figure.ratePerSecond
        ? await saturationScenario(c)
        : await rateScenario(c);
    if (o.outDir !== undefined) {
      mkdirSync(o.outDir, { recursive: true });
      writeFileSync(join(o.outDir, `${scenario.name}.autocannon.json`), `${JSON.stringify({ result }, null, 2)}\n`);
    }
    return result;
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}

/** The default hard bound of a run: what the scenario needs at worst, plus 60 s. */
export function hardTimeoutMs(o: LoadRunOptions): number {
  const timeout = o.timeoutMs ?? 10_000;
  const sat = o.saturation;
  const records = o.records ?? 10_000;
  const pages = (o.batchSizes ?? READ_BATCH.defaults).reduce((n, b) => n + Math.ceil(records / b), 0);
  const work = o.scenario.startsWith('read')
    ? pages * (timeout + (o.pauseMs ?? 1000))
    : sat
      ? (sat.maxSteps ?? 20) * (sat.stageSeconds * 1000 + timeout + 2000)
      : (o.durationSeconds ?? 10) * 1000 + timeout;
  return work + 60_000;
}
