/**
 * Causes before symptoms (issue 28, DESIGN.md "Verdicts and exit codes"): a FAIL whose data passed through a
 * behaviour that itself FAILed in the run follows from that behaviour's rule, so that one bug reads as one bug.
 *
 * A FAIL of rule R in a test follows from rule C when all three hold:
 * - R relies on C in the catalogue (`reliesOn:` in specs/rules.yaml: R's checks pass their data through C);
 * - the failing run's requests passed through C (the harness records it: `failure.through`, through.ts);
 * - C FAILed in the same run (and is not R).
 * R is a follower (`causedBy`) when every one of its FAILs follows from some rule; one FAIL of R that follows
 * from nothing makes R a cause in its own right. The verdict stays FAIL and the exit code is unchanged.
 */
import type { Rule } from '@erpcert/contract';
import type { TestEvent } from './runner.js';

/** The causes of each FAILed rule that follows from others, sorted; rules that are causes themselves are absent. */
export type Followers = ReadonlyMap<string, readonly string[]>;

/** The rules among `failed` that the FAIL of `rule` in test `t` follows from (empty: it follows from none). */
export function causesIn(
  t: Pick<TestEvent, 'failure'>,
  rule: string,
  failed: ReadonlySet<string>,
  lookup: (id: string) => Pick<Rule, 'reliesOn'> | undefined,
): string[] {
  const through = new Set(t.failure?.through ?? []);
  // a FAIL that is not this test's own violation (a transport rule's fault) passed through nothing
  if (!(t.failure?.rules ?? []).includes(rule)) return [];
  return (lookup(rule)?.reliesOn ?? []).filter((c) => c !== rule && failed.has(c) && through.has(c)).sort();
}

/**
 * The followers of a run: each rule that FAILed only where it followed from another FAILed rule, with those
 * rules. `failedIn` gives the tests in which a rule FAILed.
 */
export function followersOf(
  failed: ReadonlySet<string>,
  failedIn: (rule: string) => readonly Pick<TestEvent, 'failure'>[],
  lookup: (id: string) => Pick<Rule, 'reliesOn'> | undefined,
): Followers {
  const out = new Map<string, readonly string[]>();
  for (const rule of failed) {
    const tests = failedIn(rule);
    if (tests.length === 0) continue;
    const per = tests.map((t) => causesIn(t, rule, failed, lookup));
    if (per.some((c) => c.length === 0)) continue;
    out.set(rule, [...new Set(per.flat())].sort());
  }
  return out;
}

/**
 * The root causes of a follower: its causes, each replaced by its own roots when it follows from others in
 * turn (reliesOn has no cycles, so the walk ends). A rule that is no follower is its own root.
 */
export function rootCauses(rule: string, causedBy: (id: string) => readonly string[] | null | undefined): string[] {
  const seen = new Set<string>();
  const roots = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const causes = causedBy(id);
    if (!causes || causes.length === 0) roots.add(id);
    else for (const c of causes) walk(c);
  };
  walk(rule);
  return [...roots].sort();
}

/** "FAIL 5 (1 cause, 4 following)": the FAIL count with causes and followers apart (just the count when none follow). */
export function failCountText(fail: number, following: number | undefined): string {
  if (!following) return String(fail);
  const causes = fail - following;
  return `${fail} (${causes} cause${causes === 1 ? '' : 's'}, ${following} following)`;
}

/** One cause and the FAILs that follow from it (directly or through other followers). */
export interface CauseGroup {
  readonly cause: string;
  readonly followers: readonly string[];
}

/**
 * The FAILed rules grouped under their root causes, in the order of `rules`: each cause that has followers with
 * them (a follower of two causes is listed under both). Causes without followers are left out.
 */
export function causeGroups(
  rules: readonly { readonly id: string; readonly verdict: string; readonly causedBy?: readonly string[] | null }[],
): CauseGroup[] {
  const causedBy = new Map(rules.map((r) => [r.id, r.verdict === 'FAIL' ? (r.causedBy ?? null) : null]));
  const groups = new Map<string, string[]>();
  for (const r of rules) {
    if (!causedBy.get(r.id)?.length) continue;
    for (const root of rootCauses(r.id, (id) => causedBy.get(id))) {
      if (!groups.has(root)) groups.set(root, []);
      groups.get(root)!.push(r.id);
    }
  }
  const order = rules.map((r) => r.id);
  return [...groups]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([cause, followers]) => ({ cause, followers }));
}

/** The lines under the terminal table and in the text reports: each cause with what follows from it. */
export function causeLines(groups: readonly CauseGroup[]): string[] {
  if (groups.length === 0) return [];
  return [
    'FAILs that follow from another FAIL (their data passed through its broken behaviour; fix the cause first):',
    ...groups.flatMap((g) => [`  ${g.cause}`, ...g.followers.map((f) => `    <- ${f}`)]),
  ];
}

/**
 * The failures in reading order: each entry that follows from nothing, then right after it the entries that
 * follow from one of its rules; followers whose causes have no entry of their own come last.
 */
export function causeOrder<
  F extends { readonly rules: readonly string[]; readonly causedBy?: readonly string[] | null },
>(failures: readonly F[], rootsOf: (rule: string) => readonly string[]): F[] {
  const out: F[] = [];
  const placed = new Set<F>();
  const isFollower = (f: F) => (f.causedBy?.length ?? 0) > 0;
  for (const f of failures) {
    if (isFollower(f)) continue;
    out.push(f);
    placed.add(f);
    for (const g of failures) {
      if (placed.has(g) || !isFollower(g)) continue;
      const roots = new Set([...(g.causedBy ?? []), ...(g.causedBy ?? []).flatMap(rootsOf)]);
      if (f.rules.some((r) => roots.has(r))) {
        out.push(g);
        placed.add(g);
      }
    }
  }
  return [...out, ...failures.filter((f) => !placed.has(f))];
}
