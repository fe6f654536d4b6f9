import { requireUser } from '../access.js';
import type { PortalContext } from '../handler.js';
import { PortalError } from '../handler.js';
import { fold } from '../portal-tables.js';

/** Page size limits (portal-action-api.md §4 rule 8, §8 "Page size: 1 to 100 per page"). */
export const PERPAGE_MAX = 100;
/** Page size when `perpage` is absent (not shown in the docs; README "List queries"). */
export const PERPAGE_DEFAULT = 20;

/** The checked parameters of a list query (§4 "List query": page, perpage, search, sortkey, order, sd, ed, usercode, bfilter). */
export interface ListRequest {
  readonly page: number;
  readonly perpage: number;
  /** Search terms, folded to lower case; every one must match (README "List queries"). */
  readonly terms: readonly string[];
  readonly sortkey: string | undefined;
  readonly descending: boolean;
  readonly sd: string | undefined;
  readonly ed: string | undefined;
  /** The acting user, checked to exist. */
  readonly usercode: string | undefined;
  readonly bfilter: string | undefined;
}

/**
 * Checks the list parameters (§4 rule 8): page an integer >= 1, perpage an integer 1 to 100, order
 * ascending or descending, sd and ed dates YYYY-MM-DD (sd not after ed), sortkey one of the list's fields,
 * usercode a user of the company. Anything else answers an errstr naming the parameter.
 */
export function parseListRequest(ctx: PortalContext, register: string, fields: readonly string[]): ListRequest {
  const p = ctx.params;
  const page = p.int('page', { min: 1, max: 999_999_999, dflt: 1 });
  const perpage = p.int('perpage', { min: 1, max: PERPAGE_MAX, dflt: PERPAGE_DEFAULT });
  const order = p.oneOf('order', ['ascending', 'descending'] as const, 'ascending');
  const sd = p.date('sd');
  const ed = p.date('ed');
  if (sd !== undefined && ed !== undefined && sd > ed)
    throw new PortalError(`parameter "sd" (${sd}) is after parameter "ed" (${ed})`);
  const sortkey = p.get('sortkey') || undefined;
  if (sortkey !== undefined && !fields.includes(sortkey))
    throw new PortalError(
      `parameter "sortkey" must be a field of the ${register} list: ${fields.join(', ')}; got "${sortkey}"`,
    );
  const usercode = p.get('usercode') ? requireUser(ctx).Code : undefined;
  const terms = fold(p.get('search') ?? '')
    .split(/\s+/)
    .filter(Boolean);
  return {
    page,
    perpage,
    terms,
    sortkey,
    descending: order === 'descending',
    sd,
    ed,
    usercode,
    bfilter: p.get('bfilter') || undefined,
  };
}

/** `count`, `page`, `perpage` and `totalpages` of a paged list (§2 "Paged list"). */
export function pageAttrs(
  count: number,
  req: ListRequest,
): { count: number; page: number; perpage: number; totalpages: number } {
  return { count, page: req.page, perpage: req.perpage, totalpages: Math.ceil(count / req.perpage) };
}
