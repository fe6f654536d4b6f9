/**
 * The conform profiles a self-test can run (`erpcert self-test --profile`): the full profile, and the gate
 * profile (issue 19), whose detection is compared with the full one's.
 */

/** Profiles of `erpcert self-test --profile`, the default first. */
export const SELFTEST_PROFILES = ['full', 'gate'] as const;

/** A profile a self-test runs conform with. @defaultValue 'full' */
export type SelfTestProfile = (typeof SELFTEST_PROFILES)[number];

/** True when `p` is a self-test profile. */
export function isSelfTestProfile(p: string): p is SelfTestProfile {
  return (SELFTEST_PROFILES as readonly string[]).includes(p);
}
