/**
 * Activities a portal write of the suite made (portal-action-api.md §4 "Link to source record", "Create signing
 * activity"): the answers of those sub-actions are not shown (operation rule 11), so the new activity is found
 * by the answer's `newdata` when the target names one there (as a conversion result does, §2), else by the
 * ActVc list query (§4 "List query", `<data count>`): what the first page holds now and did not before.
 */
import type { RawResponse } from '@erpcert/client';
import { ledgerCreated } from './data.js';
import { attempt, xmlTop } from './portal-outcome.js';
import type { RuleContext } from './rule-test.js';

/** The ActVc list as the suite sees it before a write: the count and the ids on the first page. */
export interface ActivitySnapshot {
  readonly count: number | undefined;
  readonly ids: ReadonlySet<string>;
}

/** The newest ActVc records (first page, SerNr descending where the target sorts so) and the stated count. */
export async function activitySnapshot(ctx: RuleContext): Promise<ActivitySnapshot> {
  const o = await attempt(
    ctx.client.portal.list('ActVc', {
      page: 1,
      perpage: 100,
      sortkey: 'SerNr',
      order: 'descending',
      usercode: null,
    } as never),
  );
  if (!o.ok) return { count: undefined, ids: new Set() };
  const ids = o.value.records.map((r) => (typeof r.SerNr === 'string' ? r.SerNr : '')).filter((id) => id !== '');
  return { count: o.value.count, ids: new Set(ids) };
}

/** An attribute of the answer's `<res>` (e.g. `newdata`), or '' when it has none. */
export function resAttribute(raw: RawResponse, name: string): string {
  const data = xmlTop(raw)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return '';
  const res = (data as Record<string, unknown>).res;
  const el = Array.isArray(res) ? res[0] : res;
  if (!el || typeof el !== 'object') return '';
  const v = (el as Record<string, unknown>)[`@${name}`];
  return typeof v === 'string' ? v : '';
}

/** What a write that should have made one activity came to. */
export interface NewActivity {
  /** The activity's SerNr, when the answer or the list shows which it is; put into the ledger. */
  readonly id: string | undefined;
  /** True when the target shows a new activity at all: an id, or a higher count than before. */
  readonly created: boolean;
}

/**
 * The activity a write made: the `newdata` of its answer when the ActVc list holds that id, else the one id
 * the list's first page gained since `before`. A found id goes into the ledger at once; `created` is also
 * true when only the list's count grew (the target made one the suite cannot name). A `newdata` the list
 * neither holds nor counts is no evidence of an activity.
 */
export async function newActivity(ctx: RuleContext, before: ActivitySnapshot, raw: RawResponse): Promise<NewActivity> {
  const after = await activitySnapshot(ctx);
  const named = resAttribute(raw, 'newdata');
  const gained = [...after.ids].filter((id) => !before.ids.has(id));
  const grew = before.count !== undefined && after.count !== undefined && after.count > before.count;
  let id: string | undefined;
  // a named id counts where the list shows it, or shows one more activity than before
  if (named !== '' && (after.ids.has(named) || grew)) id = named;
  else if (gained.length === 1) id = gained[0];
  if (id !== undefined) ledgerCreated(ctx, 'ActVc', id);
  return { id, created: id !== undefined || gained.length > 0 || grew };
}
