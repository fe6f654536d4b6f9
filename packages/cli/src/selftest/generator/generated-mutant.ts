/** What every generated mutant carries beyond a hand-written one (proxy.ts `Mutant`). */
import type { Mutant } from '../proxy.js';

/** The families of `erpcert self-test --family`: hand-written, and the three generated ones. */
export type MutantFamily = 'hand' | 'spec' | 'catalogue' | 'behaviour';

/** The mutation operators of the behaviour family (issue 28 "Behaviour mutants, generated from the operations"). */
export const BEHAVIOUR_OPERATORS = [
  'parameter-ignored',
  'decoy-used',
  'write-does-nothing',
  'write-spills',
  'accepted-refused',
  'feed-forgets',
  'transition-lost',
  'computed-kept',
] as const;
/** One operator of the behaviour family. */
export type BehaviourOperator = (typeof BEHAVIOUR_OPERATORS)[number];

/** A generated mutant: its family, the rule area it draws from, and why no test could see it, if none can. */
export interface GeneratedMutant extends Mutant {
  readonly family: Exclude<MutantFamily, 'hand'>;
  /** `<API>.<AREA>` of the rule it breaks (the sample draws from every area). */
  readonly area: string;
  /** The behaviour family's operator that made it. */
  readonly operator?: BehaviourOperator;
  /** A mutant that keeps state between requests makes a fresh copy of itself for every run. */
  readonly fresh?: () => GeneratedMutant;
  /** Set when its rule is one no black-box test can observe (`observable: false`): reported, never run. */
  readonly unobservable?: string;
}
