/**
 * The gate profile's budget of property runs (`--profile gate`, issue 19): every rule the full profile judges,
 * observed decisively at least once, with the fewest requests. The counts it is given are the test's decisive
 * observations (meta `decisive`, issue 28): a run that only observed a rule where a right and a wrong server answer
 * alike (a `maxsize` no column exceeds) adds nothing, so the gate keeps spending runs until the data reaches the
 * case that tells them apart, or its patience ends. A property keeps its full list of runs (examples first),
 * but a run is only spent while it can still add an observation: no run once every rule the test names has been
 * observed; no further example once {@link GATE_EXAMPLE_PATIENCE} examples in a row observed no rule that was
 * not observed before, and no further generated run once {@link GATE_PATIENCE} generated runs in a row did not
 * ({@link GATE_PATIENCE_AFTER_EXAMPLES} for a property with examples: none).
 * A skipped run sends nothing and passes. After a failure nothing is skipped, so shrinking works as in full.
 *
 * Members: an example that names a member (one searched field, one served register, one code of a listing rule:
 * {@link exampleMember}) observes a (rule, member) pair that no earlier run of the test observed while its
 * member is new, so it is always spent, even once every rule is observed: a mutant that breaks one member is
 * caught by that member's example only. Examples of a member already spent follow the patience.
 */

/** Generated runs in a row that observed nothing new before the gate stops a property. @defaultValue 1 */
export const GATE_PATIENCE = 1;
/**
 * Examples in a row that observed nothing new before the gate stops a property's examples. Larger than
 * {@link GATE_PATIENCE}: the examples name cases whose rules random picks could miss, and several of them can
 * share a rule before the next one observes another. @defaultValue 6
 */
export const GATE_EXAMPLE_PATIENCE = 6;
/**
 * Generated runs in a row that observed nothing new before the gate stops a property that has examples: none
 * is spent. Its examples name every case a full run must observe (a register, a trigger field, a member); a
 * rule they leave unobserved is one the target shows no data for, which random picks seldom change, and the
 * bench showed no rule judged by the generated runs alone (issue 19). @defaultValue 0
 */
export const GATE_PATIENCE_AFTER_EXAMPLES = 0;

/**
 * The member an example names, or undefined: an argument's `member` or `field` (after its `register`, when it
 * has one: one searched field of a register), else an argument's `register`, else the first argument when it is
 * a string (a register or a case, as in `examples: [['IVVc'], ['ORVc']]`) or a list of strings (a register and
 * its field, `[['ORVc', 'OrderType'], 'X1']`). Two examples with the same member observe the same member.
 */
export function exampleMember(values: readonly unknown[]): string | undefined {
  const fields = (v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  for (const v of values) {
    const o = fields(v);
    const name = typeof o?.member === 'string' ? o.member : typeof o?.field === 'string' ? o.field : undefined;
    if (name !== undefined) return typeof o?.register === 'string' ? `${o.register}.${name}` : name;
  }
  for (const v of values) {
    const o = fields(v);
    if (typeof o?.register === 'string') return o.register;
  }
  const first = values[0];
  if (typeof first === 'string') return first;
  if (Array.isArray(first) && first.length > 0 && first.every((x) => typeof x === 'string')) return first.join('.');
  return undefined;
}

/** Counts the rules observed so far against the test's rules and decides whether the next run is spent. */
export class GateBudget {
  readonly #rules: readonly string[];
  readonly #observations: Readonly<Record<string, number>>;
  readonly #patience: number;
  #seen = 0;
  #stale = 0;
  #failed = false;
  /** Members whose example was spent. */
  readonly #members = new Set<string>();
  /** The run being spent is an example of a new member: it observes something new whatever rules it adds. */
  #newMember = false;

  readonly #examples: number;
  readonly #examplePatience: number;
  readonly #patienceAfterExamples: number;
  #runs = 0;

  /**
   * @param rules the rules the test names
   * @param observations the test's observation counts (meta `observations`), updated as checks run
   * @param examples how many of the first runs are the property's examples
   */
  constructor(
    rules: readonly string[],
    observations: Readonly<Record<string, number>>,
    examples = 0,
    {
      patience = GATE_PATIENCE,
      examplePatience = GATE_EXAMPLE_PATIENCE,
      patienceAfterExamples = GATE_PATIENCE_AFTER_EXAMPLES,
    } = {},
  ) {
    this.#patienceAfterExamples = patienceAfterExamples;
    this.#rules = rules;
    this.#observations = observations;
    this.#examples = examples;
    this.#patience = patience;
    this.#examplePatience = examplePatience;
  }

  #observed(): number {
    return Object.values(this.#observations).filter((n) => n > 0).length;
  }

  /**
   * True when the next run should be spent; call once per run, in order.
   * @param member the member the run names (an example's {@link exampleMember}); ignored for generated runs
   */
  wanted(member?: string): boolean {
    const example = this.#runs < this.#examples;
    if (this.#runs === this.#examples) this.#stale = 0; // the generated runs start with their own patience
    this.#runs++;
    this.#newMember = false;
    if (this.#failed) return true;
    if (example && member !== undefined && !this.#members.has(member)) {
      this.#members.add(member);
      this.#newMember = true;
      return true;
    }
    if (this.#rules.every((r) => (this.#observations[r] ?? 0) > 0)) return false;
    if (example) return this.#stale < this.#examplePatience;
    // the examples name every case a full run must observe: what they left unobserved, random picks add rarely
    return this.#stale < (this.#examples > 0 ? this.#patienceAfterExamples : this.#patience);
  }

  /** Records a run that was spent: whether it observed a rule not observed before, or failed. */
  ran(failed = false): void {
    if (failed) this.#failed = true;
    const observed = this.#observed();
    if (observed > this.#seen || this.#newMember) {
      this.#seen = observed;
      this.#stale = 0;
    } else this.#stale++;
  }
}
