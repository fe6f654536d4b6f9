/**
 * A lookup with a decoy `search` parameter beside `id` (portal-action-api.md §4 operation rule 1: "pastespecial uses
 * id for the search text, not a search parameter") combines two probes in one request: the search of `id`, and
 * whether `search` is left alone. Issue 28: a check that combines probes separates them on a failure before it
 * blames. The lookup is asked again without the decoy: when the two answers differ, the decoy was used and the
 * difference is PORTAL.LOOKUP.ID_IS_SEARCH's, whatever else the answer with the decoy got wrong; when they agree, the
 * decoy changed nothing and a failure of the answer stays with the rule that judged it.
 */
import type { PortalLookup } from '@erpcert/client';
import { observe, type RuleContext, show, violated } from '../../src/harness/index.js';
import { attempt, type LookupRegister, textOf } from '../../src/harness/portal.js';

/** The decoy: a word no record's searched field starts with, so that a server searching it finds nothing. */
export const DECOY = 'zq9x';

/** The lookup of `id`, with the decoy `search` parameter or without. */
export function lookup(ctx: RuleContext, register: LookupRegister, id: string, decoy: boolean) {
  const params = { register, id, ...(decoy ? { search: DECOY } : {}) };
  return attempt(ctx.client.portal.pastespecial(params as Parameters<typeof ctx.client.portal.pastespecial>[0]));
}

/** The Codes of an answer, sorted; records of this run left out (other tests make and delete them meanwhile). */
function codes(result: PortalLookup, runTag: string): string[] {
  return result.records
    .map((r) => textOf(r, 'Code'))
    .filter((c) => !c.startsWith(runTag))
    .sort();
}

/**
 * How the answer with the decoy differs from the answer without it (asked now), or undefined when they agree (or the
 * lookup without the decoy is refused: that is the register's rule, judged elsewhere). A difference is asked twice
 * more, each way, and counts only when both ways answer the same again: data that moved meanwhile is no difference.
 */
export async function decoyDifference(
  ctx: RuleContext,
  register: LookupRegister,
  id: string,
  withDecoy: PortalLookup,
): Promise<{ detail: string; plain: PortalLookup } | undefined> {
  const tag = ctx.target.runTag;
  const plain = await lookup(ctx, register, id, false);
  if (!plain.ok) return undefined;
  const a = codes(withDecoy, tag).join(',');
  const b = codes(plain.value, tag).join(',');
  if (a === b) return undefined;
  const [decoyAgain, plainAgain] = [await lookup(ctx, register, id, true), await lookup(ctx, register, id, false)];
  if (!decoyAgain.ok || !plainAgain.ok) return undefined;
  if (codes(decoyAgain.value, tag).join(',') !== a || codes(plainAgain.value, tag).join(',') !== b) return undefined;
  return {
    plain: plain.value,
    detail: `lookup ${register} id=${show(id)} with search=${DECOY} beside it answered ${show(a || '(nothing)', 160)}; without search it answers ${show(b || '(nothing)', 160)}: the search parameter is used`,
  };
}

/**
 * Judges ID_IS_SEARCH on a lookup sent with the decoy: FAILs it when the answer without the decoy differs, and
 * observes it when they agree on an answer that holds records (a server that searched the decoy would have found
 * none, so the observation could have failed).
 */
export async function judgeDecoy(
  ctx: RuleContext,
  register: LookupRegister,
  id: string,
  withDecoy: PortalLookup,
): Promise<void> {
  const difference = await decoyDifference(ctx, register, id, withDecoy);
  if (difference !== undefined) violated('PORTAL.LOOKUP.ID_IS_SEARCH', difference.detail);
  if (withDecoy.records.length > 0) observe('PORTAL.LOOKUP.ID_IS_SEARCH', 1, { decisive: true });
}

/**
 * Whether the lookup of `id` searched `id` at all (§4 operation rule 1: "pastespecial uses id for the search text"):
 * asked when its answer holds a record that matches no term of `id`, before that record is blamed on the matching
 * (PREFIX_CASE_INSENSITIVE, TERMS_AND). The lookup is asked with the decoy word as its id, which no record's searched
 * field starts with: a server that searches `id` answers otherwise (with nothing, or a substring search's few); one
 * that never reads `id` answers the same records again. Returns the evidence when it did, asked twice so that data
 * that moved meanwhile is no evidence; undefined when the id was searched (or the second lookup was refused).
 */
export async function idUnused(
  ctx: RuleContext,
  register: LookupRegister,
  id: string,
  result: PortalLookup,
): Promise<string | undefined> {
  const tag = ctx.target.runTag;
  const a = codes(result, tag).join(',');
  if (a === '' || id.trim().toLowerCase() === DECOY) return undefined;
  for (let i = 0; i < 2; i++) {
    const other = await lookup(ctx, register, DECOY, false);
    if (!other.ok || codes(other.value, tag).join(',') !== a) return undefined;
  }
  return `lookup ${register} id=${show(id)} answered ${show(a, 160)}, records that no term of the id starts; with id=${DECOY}, which no record starts, it answers the same records: the id is not the search text`;
}

/** FAILs ID_IS_SEARCH when the answer holds a record matching no term of `id` and the id was not searched. */
export async function judgeIdUsed(
  ctx: RuleContext,
  register: LookupRegister,
  id: string,
  result: PortalLookup,
  matchesNoTerm: boolean,
): Promise<void> {
  if (!matchesNoTerm) return;
  const detail = await idUnused(ctx, register, id, result);
  if (detail !== undefined) violated('PORTAL.LOOKUP.ID_IS_SEARCH', detail);
}

/**
 * A lookup of several terms refused, asked apart before the register is blamed (§4 operation rule 1: "Terms
 * separated by spaces are ANDed"): the first term alone served for the same register shows the register served
 * and the terms refused, a FAIL of PORTAL.LOOKUP.TERMS_AND. Anything else stays with the rule that judges it.
 */
export async function judgeTermsRefusal(
  ctx: RuleContext,
  register: LookupRegister,
  id: string,
  refused: boolean,
  decoy: boolean,
): Promise<void> {
  const terms = id.split(/\s+/).filter((t) => t !== '');
  if (!refused || terms.length < 2) return;
  // the same request but for the terms (the decoy too, when it was sent)
  const one = await lookup(ctx, register, terms[0]!, decoy);
  if (one.ok)
    violated(
      'PORTAL.LOOKUP.TERMS_AND',
      `lookup ${register} id=${show(id)} (${terms.length} terms) was refused, while id=${show(terms[0])} alone was served`,
    );
}
