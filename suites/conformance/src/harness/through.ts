/**
 * Causes before symptoms (issue 28): which documented behaviours a test's data passed through, read off the
 * requests it sent. A rows-bearing form POST or PATCH passes its rows through `set_row_field.<N>`
 * (REST.WRITE.FORM_ROW_INDEX), a `filter.<Field>` read finds its records through REST.QUERY.FILTER_EXACT, a POST
 * with `set_field.OKFlag=1` makes a confirmed record through REST.STATE.OKFLAG_CONFIRM_ON_POST, an `unokrecord`
 * makes a draft through PORTAL.UNOK.TO_DRAFT, a `windowactions` with `rowindex` 0 or more is a row field's trigger
 * through PORTAL.TRIGGER.ROWINDEX, a list read with `sort` and `range` selects on the sort field through
 * REST.QUERY.SORT_ASCENDING (record-rest-api.md §4: "sort: field to sort by ... Required when `range` is used").
 *
 * The recorder (recorder.ts) keeps these per test and per property run; a failure carries those of its failing
 * run (meta.ts `FailureDetail.through`). The report makes a FAIL of rule R a follower of rule C (`causedBy`) only
 * when R relies on C (`reliesOn:` in specs/rules.yaml), C FAILed in the same run, and the failing run's requests
 * passed through C: the link is evidence of this failure, not only of the catalogue.
 */
import { decryptTriggerText, type Exchange } from '@erpcert/client';
import type { PASSABLE_BEHAVIOURS } from '@erpcert/contract';

/** The behaviours a request can pass data through, each with how it is recognised. */
export const THROUGH_BEHAVIOURS = {
  /** A REST form POST or PATCH that sends `set_row_field.<N>.<Field>`: its rows are placed by N. */
  formRows: 'REST.WRITE.FORM_ROW_INDEX',
  /** A REST form POST with `set_field.OKFlag=1`: the record is made confirmed. */
  confirmOnPost: 'REST.STATE.OKFLAG_CONFIRM_ON_POST',
  /** A REST list read with `filter.<Field>`: the records it finds are those the filter matches. */
  filter: 'REST.QUERY.FILTER_EXACT',
  /** A portal `unokrecord` the target accepted: the record is a draft from then on. */
  unok: 'PORTAL.UNOK.TO_DRAFT',
  /** A `windowactions` whose body carries `rowindex` 0 or more: the trigger is of the row it names. */
  rowTrigger: 'PORTAL.TRIGGER.ROWINDEX',
  /** A REST list read with `sort` and `range`: the range selects on the sort field ("range requires sort", §4). */
  sortedRange: 'REST.QUERY.SORT_ASCENDING',
} as const satisfies Record<string, (typeof PASSABLE_BEHAVIOURS)[number]>;

const REST_PATH = /\/api\/\d+\/[^/?]+(?:\/[^?]*)?(?:\?|$)/;

function formBody(e: Pick<Exchange, 'request'>): URLSearchParams | undefined {
  const body = e.request.body;
  if (!body || body.encoding === 'base64') return undefined;
  const type = e.request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  return /x-www-form-urlencoded/i.test(type) ? new URLSearchParams(body.text) : undefined;
}

function portalSubAction(url: URL): string | undefined {
  if (!url.pathname.endsWith('.hal')) return undefined;
  const action = url.searchParams.get('action');
  return action === 'action' ? (url.searchParams.get('register') ?? undefined) : (action ?? undefined);
}

/** The `rowindex` of a windowactions body (plain JSON, or the encrypted form); undefined when it carries none. */
function triggerRowIndex(e: Pick<Exchange, 'request'>, url: URL): number | undefined {
  const body = e.request.body;
  if (!body || body.encoding === 'base64') return undefined;
  try {
    const text = url.searchParams.get('encrypted') === 'true' ? decryptTriggerText(body.text) : body.text;
    const rowindex = (JSON.parse(text) as { rowindex?: unknown } | null)?.rowindex;
    const n = typeof rowindex === 'string' && rowindex.trim() !== '' ? Number(rowindex) : rowindex;
    return typeof n === 'number' && Number.isInteger(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The behaviours (rule ids of {@link THROUGH_BEHAVIOURS}) one exchange passed data through. */
export function behavioursOf(e: Pick<Exchange, 'request' | 'response'>): string[] {
  let url: URL;
  try {
    url = new URL(e.request.url, 'http://target.invalid');
  } catch {
    return [];
  }
  const out: string[] = [];
  const method = e.request.method.toUpperCase();
  if (REST_PATH.test(url.pathname + url.search)) {
    if (method === 'GET' && [...url.searchParams.keys()].some((k) => k.startsWith('filter.')))
      out.push(THROUGH_BEHAVIOURS.filter);
    if (method === 'GET' && url.searchParams.has('sort') && url.searchParams.has('range'))
      out.push(THROUGH_BEHAVIOURS.sortedRange);
    if (method === 'POST' || method === 'PATCH') {
      const form = formBody(e);
      if (form && [...form.keys()].some((k) => k.startsWith('set_row_field.'))) out.push(THROUGH_BEHAVIOURS.formRows);
      if (method === 'POST' && form?.get('set_field.OKFlag') === '1') out.push(THROUGH_BEHAVIOURS.confirmOnPost);
    }
  } else if (portalSubAction(url) === 'unokrecord' && e.response !== undefined && e.response.status < 300) {
    out.push(THROUGH_BEHAVIOURS.unok);
  } else if (portalSubAction(url) === 'windowactions' && (triggerRowIndex(e, url) ?? -1) >= 0) {
    out.push(THROUGH_BEHAVIOURS.rowTrigger);
  }
  return out;
}
