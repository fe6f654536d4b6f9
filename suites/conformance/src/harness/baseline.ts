/**
 * Unfiltered reads of small registers, the ground truth the query properties compare with
 * (query-model.ts). Other tests write to the same target at the same time, so a mismatch is reported only
 * when a fresh unfiltered read shows the register did not change in between ({@link judgeStable}).
 */
import { getRegister } from '@erpcert/contract';
import { assertJsonStrings } from './assert/json-strings.js';
import { probe, readAll } from './data.js';
import { type Decisiveness, observe } from './observations.js';
import type { AnyRecord } from './records.js';
import type { RuleContext } from './rule-test.js';
import { violated } from './violation.js';

/** A register the query properties can model: its records and the header fields they carry. */
export interface RegisterData {
  readonly register: string;
  readonly records: readonly AnyRecord[];
  /** Main header fields (record-rest-api.md §2) that at least one record carries. */
  readonly fields: readonly string[];
}

/** Registers at most this big are read whole. @defaultValue 500 */
export const MAX_BASELINE_RECORDS = 500;

function fieldsOf(register: string, records: readonly AnyRecord[]): string[] {
  const main = getRegister(register)?.fields ?? [];
  return main.filter((f) => records.some((r) => r[f] !== undefined));
}

/** Cached unfiltered and sorted reads, per register, for one test file. */
export class Baselines {
  readonly #all = new Map<string, AnyRecord[]>();
  /** The current sequence (`data@sequence`, else the Sequence header) each cached unfiltered read answered with. */
  readonly #sequence = new Map<string, string | undefined>();
  readonly #sorted = new Map<string, AnyRecord[]>();
  readonly max: number;

  constructor(max = MAX_BASELINE_RECORDS) {
    this.max = max;
  }

  async #read(ctx: RuleContext, register: string): Promise<AnyRecord[] | undefined> {
    // first gauge the size with a bounded read, then read without any parameter (the unpaged read)
    if ((await readAll(ctx, register, this.max)) === undefined) return undefined;
    const p = await probe(ctx, register);
    if (!p.ok) return undefined;
    assertJsonStrings(register, p.envelope);
    this.#sequence.set(register, p.envelope.sequence ?? p.envelope.sequenceHeader);
    return p.records;
  }

  /** Every record of the register (unfiltered, unpaged), or undefined when it is too big or refused. */
  async all(ctx: RuleContext, register: string): Promise<AnyRecord[] | undefined> {
    const hit = this.#all.get(register);
    if (hit) return hit;
    const records = await this.#read(ctx, register);
    if (records) this.#all.set(register, records);
    return records;
  }

  /** Every record as `sort=<field>` (and nothing else) returns them. */
  async sorted(ctx: RuleContext, register: string, field: string): Promise<AnyRecord[]> {
    const key = `${register}\u0000${field}`;
    const hit = this.#sorted.get(key);
    if (hit) return hit;
    const p = await probe(ctx, register, { sort: field });
    if (!p.ok) return violated('REST.QUERY.SORT_ASCENDING', `sort=${field} on ${register} was refused: ${p.why}`);
    assertJsonStrings(register, p.envelope);
    this.#sorted.set(key, p.records);
    return p.records;
  }

  /**
   * Reads the register again; true when it changed since the cached read (the sorted reads are dropped). The
   * records alone can look unchanged after another test created a record and deleted it again in between (the
   * record a feed read saw is gone); the current sequence has moved then (every write moves it, §4 rule 6), so
   * a moved sequence counts as a change too.
   */
  async refresh(ctx: RuleContext, register: string): Promise<boolean> {
    const before = this.#all.get(register);
    const sequenceBefore = this.#sequence.get(register);
    this.#all.delete(register);
    this.#sequence.delete(register);
    for (const k of [...this.#sorted.keys()]) if (k.startsWith(`${register}\u0000`)) this.#sorted.delete(k);
    const after = await this.all(ctx, register);
    const sequenceAfter = this.#sequence.get(register);
    const moved = sequenceBefore !== undefined && sequenceAfter !== undefined && sequenceBefore !== sequenceAfter;
    return moved || JSON.stringify(before) !== JSON.stringify(after);
  }

  /**
   * The first `count` registers of `candidates` that hold at least `min` records and at most
   * {@link Baselines.max}, with their records and fields.
   */
  async discover(ctx: RuleContext, candidates: readonly string[], count: number, min = 2): Promise<RegisterData[]> {
    const out: RegisterData[] = [];
    for (const register of candidates) {
      if (out.length >= count) break;
      const records = await this.all(ctx, register);
      if (!records || records.length < min) continue;
      const fields = fieldsOf(register, records);
      if (fields.length > 0) out.push({ register, records, fields });
    }
    return out;
  }
}

/**
 * Runs `attempt` (which returns the difference from the model, undefined when the answer agrees with it, or
 * null when there was nothing to judge) and reports a difference as a violation of `rule` only when the
 * register was stable: after a mismatch the baseline is read again, and when it changed the attempt is
 * repeated with the fresh data (at most `tries` times). An agreement counts one observation of `rule`,
 * decisive as `how` says after the attempt (observations.ts; the query rules must say, query-decisive.ts).
 * Returns false when the register never held still or nothing was judged.
 */
export async function judgeStable(
  ctx: RuleContext,
  baselines: Baselines,
  register: string,
  rule: string,
  attempt: () => Promise<string | undefined | null>,
  tries = 3,
  how?: () => Decisiveness | undefined,
): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    const problem = await attempt();
    if (problem === null) return false;
    if (problem === undefined) {
      observe(rule, 1, how?.());
      return true;
    }
    if (!(await baselines.refresh(ctx, register))) violated(rule, problem);
  }
  return false;
}
