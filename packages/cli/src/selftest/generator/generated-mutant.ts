/** What every generated mutant carries beyond a hand-written one (proxy.ts `Mutant`). */
import type { Mutant } from '../proxy.js';

/** The families of `erpcert self-test --family`: hand-written, and the two generated ones. */
export type MutantFamily = 'hand' | 'spec' | 'catalogue';

/** A generated mutant: its family, the rule area it draws from, and why no test could see it, if none can. */
export interface GeneratedMutant extends Mutant {
  readonly family: Exclude<MutantFamily, 'hand'>;
  /** `<API>.<AREA>` of the rule it breaks (the sample draws from every area). */
  readonly area: string;
  /** Set when its rule is one no black-box test can observe (`observable: false`): reported, never run. */
  readonly unobservable?: string;
}
