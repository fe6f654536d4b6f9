import type { RuleStanding } from '@erpcert/contract';
import type { SerializedError } from 'vitest';
import type { Reporter, TestCase, TestModule, TestRunEndReason, TestSpecification, Vitest } from 'vitest/node';
import type {
  ConformanceMeta,
  FailureDetail,
  FailureKind,
  RecordedExchange,
  TargetFault,
  ThrottleCounts,
} from '../harness/meta.js';
import type { RunEvents } from './events.js';
import { rulesInName } from './rule-tags.js';
import { type Profile, verdictsOf } from './verdict.js';

/** What the reporter needs to turn vitest outcomes into verdicts. */
export interface ConformanceReporterOptions {
  readonly events: RunEvents;
  readonly profile: Profile;
  /** The `--only` selection (upper-case rule ids); undefined selects every test. */
  readonly selected?: ReadonlySet<string> | undefined;
  /** A rule's standing from specs/rules.yaml; undefined for an id the catalogue does not know. */
  readonly standingOf: (rule: string) => RuleStanding | undefined;
  /** Suite root, for file names relative to it. */
  readonly root: string;
}

/** Terminal colour codes (vitest and its transformers colour their messages); reports hold plain text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what is removed
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** One line of text for an error vitest reports: `Name: message`, colour codes removed. */
export function errorText(e: SerializedError | { message?: string; name?: string } | unknown): string {
  let text: string;
  if (e && typeof e === 'object') {
    const { name, message } = e as { name?: unknown; message?: unknown };
    text = typeof message === 'string' ? message : JSON.stringify(e);
    if (typeof name === 'string' && name !== 'Error' && name !== '') text = `${name}: ${text}`;
  } else text = String(e);
  return text.replace(ANSI, '');
}

/** `task.meta.erpcert` read defensively: a malformed record is treated as absent, never as a crash of the run. */
function readMeta(raw: unknown): ConformanceMeta | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const m = raw as Partial<ConformanceMeta>;
  const rules = Array.isArray(m.rules) ? m.rules.filter((r): r is string => typeof r === 'string') : [];
  const failure = readFailure(m.failure);
  const observations = readObservations(m.observations);
  const decisive = readObservations(m.decisive);
  const undecided = readReasons(m.undecided);
  const unconfirmed = readReasons(m.unconfirmed);
  const faults = Array.isArray(m.faults) ? m.faults.flatMap((f) => readFault(f) ?? []) : [];
  return {
    rules,
    ...(typeof m.skipReason === 'string' ? { skipReason: m.skipReason } : {}),
    ...(typeof m.advisory === 'string' ? { advisory: m.advisory } : {}),
    ...(failure ? { failure } : {}),
    ...(observations ? { observations } : {}),
    ...(decisive ? { decisive } : {}),
    ...(undecided ? { undecided } : {}),
    ...(unconfirmed ? { unconfirmed } : {}),
    ...(faults.length > 0 ? { faults } : {}),
    ...(readThrottling(m.throttling) ?? {}),
    ...(readIds(m.through) ? { through: readIds(m.through)! } : {}),
  };
}

/** A list of rule ids, upper-cased; undefined when absent, malformed or empty. */
function readIds(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const ids = raw.filter((r): r is string => typeof r === 'string').map((r) => r.toUpperCase());
  return ids.length > 0 ? ids : undefined;
}

/** `{ throttling }` when the record holds sane counts with something in them. */
function readThrottling(raw: unknown): { throttling: ThrottleCounts } | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
  const r = raw as Record<string, unknown>;
  const throttling = { retried: n(r.retried), waitedMs: n(r.waitedMs), gaveUp: n(r.gaveUp) };
  return throttling.retried + throttling.gaveUp > 0 ? { throttling } : undefined;
}

function readObservations(raw: unknown): Record<string, number> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: Record<string, number> = {};
  for (const [rule, n] of Object.entries(raw))
    if (typeof n === 'number' && Number.isFinite(n) && n > 0) out[rule.toUpperCase()] = Math.floor(n);
  return out;
}

/** A record of rule id to reason (`undecided`, `unconfirmed`), upper-cased ids; undefined when empty or malformed. */
function readReasons(raw: unknown): Record<string, string> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: Record<string, string> = {};
  for (const [rule, why] of Object.entries(raw)) if (typeof why === 'string') out[rule.toUpperCase()] = why;
  return Object.keys(out).length > 0 ? out : undefined;
}

function readFault(raw: unknown): TargetFault | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const f = raw as Partial<TargetFault>;
  if (typeof f.detail !== 'string' || (f.rule !== null && typeof f.rule !== 'string')) return undefined;
  return {
    rule: f.rule,
    detail: f.detail,
    ...(f.exchange && typeof f.exchange === 'object' ? { exchange: f.exchange as RecordedExchange } : {}),
  };
}

const FAILURE_KINDS: readonly FailureKind[] = ['violation', 'precondition', 'target-fault', 'defect'];

function readFailure(raw: unknown): FailureDetail | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const f = raw as Partial<FailureDetail>;
  if (typeof f.message !== 'string') return undefined;
  return {
    message: f.message,
    ...(typeof f.counterexample === 'string' ? { counterexample: f.counterexample } : {}),
    ...(typeof f.seed === 'number' ? { seed: f.seed } : {}),
    ...(typeof f.path === 'string' ? { path: f.path } : {}),
    ...(typeof f.shrinks === 'number' ? { shrinks: f.shrinks } : {}),
    exchanges: Array.isArray(f.exchanges) ? f.exchanges : [],
    ...(FAILURE_KINDS.includes(f.kind as FailureKind) ? { kind: f.kind } : {}),
    ...(Array.isArray(f.rules) ? { rules: f.rules.filter((r): r is string => typeof r === 'string') } : {}),
    ...(readIds(f.through) ? { through: readIds(f.through)! } : {}),
  };
}

/**
 * The vitest reporter of `erpcert conform`: turns every finished test into a {@link TestEvent} with one
 * verdict per rule (verdict.ts), and the start and end of files and of the run into events on `events`.
 */
export class ConformanceReporter implements Reporter {
  readonly #o: ConformanceReporterOptions;
  #vitest: Vitest | undefined;

  constructor(options: ConformanceReporterOptions) {
    this.#o = options;
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  #relative(moduleId: string): string {
    const root = this.#o.root.replaceAll('\\', '/').replace(/\/$/, '');
    const id = moduleId.replaceAll('\\', '/');
    return id.startsWith(`${root}/`) ? id.slice(root.length + 1) : id;
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    let specs = [...specifications];
    const config = this.#vitest?.config;
    // vitest shards later, in its pool; the files of this run are the shard's, by vitest's own sequencer
    if (config?.shard) specs = await new config.sequence.sequencer(this.#vitest!).shard(specs);
    const files = [...new Set(specs.map((s) => this.#relative(s.moduleId)))].sort();
    await this.#o.events.emit({ type: 'run-start', at: new Date().toISOString(), files });
  }

  async onTestCaseResult(testCase: TestCase): Promise<void> {
    const result = testCase.result();
    if (result.state === 'pending') return;
    // read without the meta.ts augmentation of TaskMeta, which tsc applies only in some file orders
    const meta = readMeta((testCase.meta() as { erpcert?: unknown }).erpcert);
    const fromName = rulesInName(testCase.name);
    const rules = [...new Set([...(meta?.rules ?? []).map((r) => r.toUpperCase()), ...fromName])];
    const selected = this.#o.selected;
    const isSelected = selected === undefined || rules.some((r) => selected.has(r));
    // A filtered-out test without any rule id (neither in its name nor, since it never ran, in meta) says nothing.
    if (!isSelected && rules.length === 0) return;
    const errors = result.state === 'failed' ? result.errors.map(errorText) : [];
    const note = result.state === 'skipped' ? result.note : undefined;
    const judged = isSelected
      ? verdictsOf(rules, { state: result.state, meta, note, errors }, this.#o.standingOf, this.#o.profile)
      : undefined;
    const duration = testCase.diagnostic()?.duration;
    await this.#o.events.emit({
      type: 'test',
      file: this.#relative(testCase.module.moduleId),
      name: testCase.name,
      fullName: testCase.fullName,
      rules,
      selected: isSelected,
      state: result.state,
      verdicts: judged?.verdicts ?? [],
      ...(judged?.reason !== undefined ? { reason: judged.reason } : {}),
      ...(isSelected && result.state === 'failed' && meta?.failure ? { failure: meta.failure } : {}),
      observations: isSelected ? (meta?.observations ?? {}) : {},
      decisive: isSelected ? (meta?.decisive ?? meta?.observations ?? {}) : {},
      faults: isSelected ? (meta?.faults ?? []) : [],
      ...(meta?.throttling ? { throttling: meta.throttling } : {}),
      ...(isSelected && meta?.through ? { through: meta.through } : {}),
      errors,
      ...(duration !== undefined ? { durationMs: Math.round(duration) } : {}),
    });
  }

  async onTestModuleEnd(testModule: TestModule): Promise<void> {
    await this.#o.events.emit({
      type: 'module-end',
      file: this.#relative(testModule.moduleId),
      errors: testModule.errors().map(errorText),
    });
  }

  async onTestRunEnd(
    _modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): Promise<void> {
    await this.#o.events.emit({
      type: 'run-end',
      at: new Date().toISOString(),
      reason,
      errors: unhandledErrors.map(errorText),
    });
  }
}
