/**
 * The gate profile's budget of property runs (`--profile gate`, issue 19): every rule the full profile judges,
 * observed at least once, with the fewest requests. A property keeps its full list of runs (examples first),
 * but a run is only spent while it can still add an observation: no run once every rule the test names has been
 * observed; no further example once {@link GATE_EXAMPLE_PATIENCE} examples in a row observed no rule that was
 * not observed before, and no further generated run once {@link GATE_PATIENCE} generated runs in a row did not.
 * A skipped run sends nothing and passes. After a failure nothing is skipped, so shrinking works as in full.
 */

/** Generated runs in a row that observed nothing new before the gate stops a property. @defaultValue 2 */
export const GATE_PATIENCE = 2;
/**
 * Examples in a row that observed nothing new before the gate stops a property's examples. Larger than
 * {@link GATE_PATIENCE}: the examples name cases whose rules random picks could miss, and several of them can
 * share a rule before the next one observes another. @defaultValue 6
 */
export const GATE_EXAMPLE_PATIENCE = 6;

/** Counts the rules observed so far against the test's rules and decides whether the next run is spent. */
export class GateBudget {
  readonly #rules: readonly string[];
  readonly #observations: Readonly<Record<string, number>>;
  readonly #patience: number;
  #seen = 0;
  #stale = 0;
  #failed = false;

  /**
   * @param rules the rules the test names
   * @param observations the test's observation counts (meta `observations`), updated as checks run
   */
  readonly #examples: number;
  readonly #examplePatience: number;
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
    { patience = GATE_PATIENCE, examplePatience = GATE_EXAMPLE_PATIENCE } = {},
  ) {
    this.#rules = rules;
    this.#observations = observations;
    this.#examples = examples;
    this.#patience = patience;
    this.#examplePatience = examplePatience;
  }

  #observed(): number {
    return Object.values(this.#observations).filter((n) => n > 0).length;
  }

  /** True when the next run should be spent; call once per run, in order. */
  wanted(): boolean {
    const example = this.#runs < this.#examples;
    if (this.#runs === this.#examples) this.#stale = 0; // the generated runs start with their own patience
    this.#runs++;
    if (this.#failed) return true;
    if (this.#rules.every((r) => (this.#observations[r] ?? 0) > 0)) return false;
    return this.#stale < (example ? this.#examplePatience : this.#patience);
  }

  /** Records a run that was spent: whether it observed a rule not observed before, or failed. */
  ran(failed = false): void {
    if (failed) this.#failed = true;
    const observed = this.#observed();
    if (observed > this.#seen) {
      this.#seen = observed;
      this.#stale = 0;
    } else this.#stale++;
  }
}
