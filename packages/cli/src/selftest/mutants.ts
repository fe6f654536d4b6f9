/**
 * The deliberately broken targets of the self-test: each mutant breaks ONE documented behaviour of the
 * reference server and names the rule ids that break. `erpcert conform --only <those rules>` against the
 * mutant must FAIL exactly those rules (selftest.test.ts).
 */
import { escapeXml } from '@erpcert/contract';
import { causeMutants } from './mutants-causes.js';
import { portalMutants } from './mutants-portal.js';
import { portalWriteMutants } from './mutants-portal-writes.js';
import { refusalMutants } from './mutants-refusals.js';
import { readOnlyAcceptsWrite, restMutants } from './mutants-rest.js';
import { restEnvelopeMutants } from './mutants-rest-envelopes.js';
import { transportMutants } from './mutants-transport.js';
import type { Mutant, ProxyRequest } from './proxy.js';
import {
  editRecords,
  formOf,
  isJson,
  isPortal,
  portalAction,
  queryOf,
  restRegister,
  text,
  withForm,
  withQuery,
  withText,
} from './wire.js';

/** What some mutants need to know about the target behind the proxy. */
export interface MutantContext {
  readonly user: string;
  readonly password: string;
  /** A user code that may run reports (portal-action-api.md §4 operation rule 3). */
  readonly usercode: string;
  /** A user code without report access or the un-confirm permission. */
  readonly limitedUsercode: string;
}

const isGet = (req: ProxyRequest) => req.method === 'GET';
const header = (req: ProxyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

/** Drops a query parameter from REST list reads that carry it. */
function dropListParam(name: string, register = true): Mutant['request'] {
  return (req) =>
    isGet(req) && (!register || restRegister(req)) && queryOf(req).has(name)
      ? withQuery(req, (q) => q.delete(name))
      : req;
}

/** Carries the offset and limit that the sort-descending mutant took off a request to its response hook. */
const PAGING_HEADER = 'x-erpcert-selftest-paging';

/**
 * The offset and limit of a REST list read when both are absent or plain (one occurrence each, digits only);
 * undefined when the read has neither, or a value the server must refuse itself.
 */
function pagingOf(req: ProxyRequest): { offset: number; limit?: number } | undefined {
  const q = queryOf(req);
  const offsets = q.getAll('offset');
  const limits = q.getAll('limit');
  if (offsets.length + limits.length === 0 || offsets.length > 1 || limits.length > 1) return undefined;
  if (![...offsets, ...limits].every((v) => /^\d{1,9}$/.test(v))) return undefined;
  return {
    offset: offsets.length > 0 ? Number(offsets[0]) : 0,
    ...(limits.length > 0 ? { limit: Number(limits[0]) } : {}),
  };
}

/** Adds `delta` to every number >= `min` of an id part (deleterow rows, insertrow afterRow). */
function shiftIdParts(req: ProxyRequest, action: string, part: 1, delta: number, min = 0): ProxyRequest {
  if (portalAction(req) !== action) return req;
  const id = queryOf(req).get('id');
  if (id === null) return req;
  const parts = id.split(':');
  if (parts.length < 2) return req;
  parts[part] = parts[part]!.split(',')
    .map((n) => (/^\d+$/.test(n) && Number(n) >= min ? String(Number(n) + delta) : n))
    .join(',');
  return withQuery(req, (q) => q.set('id', parts.join(':')));
}

/** The mutants, given what they need to know about the target. */
export function mutants(ctx: MutantContext): Mutant[] {
  let frozenSequence: string | undefined;
  return [
    {
      id: 'lookup-returns-51',
      description: 'pastespecial answers 51 results when 50 or more match',
      breaks: ['PORTAL.LOOKUP.CAP50'],
      response: (req, res) => {
        if (portalAction(req) !== 'pastespecial') return res;
        const register = queryOf(req).get('register') ?? '';
        let added = false;
        const out = editRecords(res, register, (rs) => {
          if (rs.length < 50) return rs;
          added = true;
          return [...rs, rs.at(-1)!];
        });
        return added ? out : res;
      },
    },
    {
      id: 'perpage-ignored',
      description: 'list queries ignore perpage and answer pages of the server default size',
      breaks: ['PORTAL.LIST.PERPAGE_1_100'],
      // PORTAL.LIMITS.PAGE_SIZE: "A list-query page holds at most 100 records, and no more than perpage": a page
      // of the default size (20 in the reference server) asked with a smaller perpage holds more than perpage
      alsoBreaks: ['PORTAL.LIMITS.PAGE_SIZE'],
      request: (req) =>
        portalAction(req) === 'list' && queryOf(req).has('perpage') ? withQuery(req, (q) => q.delete('perpage')) : req,
    },
    {
      id: 'page-zero-accepted',
      description: 'a list query with page 0 (or below) is answered silently as page 1',
      breaks: ['PORTAL.LIST.PAGE_MIN_1'],
      request: (req) => {
        const page = queryOf(req).get('page');
        return portalAction(req) === 'list' && page !== null && /^-?\d+$/.test(page) && Number(page) < 1
          ? withQuery(req, (q) => q.set('page', '1'))
          : req;
      },
    },
    {
      id: 'sort-descending',
      description: 'sort=<field> orders descending (offset and limit page the descending order)',
      breaks: ['REST.QUERY.SORT_ASCENDING'],
      // A server that sorts descending pages its own (descending) order: offset and limit come off the request
      // here and are applied to the reversed whole result, so that pages stay consistent with the unpaged
      // read. Reversing each page instead would also break paging (pages out of the unpaged order).
      request: (req) => {
        const paging = isGet(req) && restRegister(req) && queryOf(req).has('sort') ? pagingOf(req) : undefined;
        if (!paging) return req;
        const stripped = withQuery(req, (q) => {
          q.delete('offset');
          q.delete('limit');
        });
        return { ...stripped, headers: { ...req.headers, [PAGING_HEADER]: `${paging.offset}:${paging.limit ?? ''}` } };
      },
      response: (req, res) => {
        const register = restRegister(req);
        if (!isGet(req) || !register || !queryOf(req).has('sort') || res.status !== 200) return res;
        const [offset, limit] = String(req.headers[PAGING_HEADER] ?? '0:').split(':');
        const from = Number(offset);
        const to = limit === '' || limit === undefined ? undefined : from + Number(limit);
        return editRecords(res, register, (rs) => [...rs].reverse().slice(from, to));
      },
    },
    {
      id: 'range-exclusive',
      description: 'range=from:to leaves out the records equal to from or to',
      breaks: ['REST.QUERY.RANGE_FROM_TO'],
      response: (req, res) => {
        const register = restRegister(req);
        const q = queryOf(req);
        const range = q.get('range');
        const sort = q.get('sort');
        if (!isGet(req) || !register || !range || !sort || !/^[^:]*:[^:]+$/.test(range)) return res;
        const [from, to] = range.split(':') as [string, string];
        return editRecords(res, register, (rs) => rs.filter((r) => r.fields(sort) !== from && r.fields(sort) !== to));
      },
    },
    {
      id: 'filters-or',
      description: 'of several filter.<Field> parameters only the first applies (filters not ANDed)',
      breaks: ['REST.QUERY.FILTER_AND'],
      request: (req) => {
        if (!isGet(req) || !restRegister(req)) return req;
        const filters = [...queryOf(req).keys()].filter((k) => k.startsWith('filter.'));
        return filters.length < 2
          ? req
          : withQuery(req, (q) => {
              for (const f of filters.slice(1)) q.delete(f);
            });
      },
    },
    {
      id: 'fields-ignored',
      description: 'fields=A,B is ignored: every field comes back',
      breaks: ['REST.QUERY.FIELDS'],
      request: dropListParam('fields'),
    },
    {
      id: 'limit-ignored',
      description: 'limit=N is ignored',
      breaks: ['REST.QUERY.LIMIT'],
      // "offset 0, 5, 10 with limit 5 give successive pages" (§4): without limit the page at offset 0 is the
      // whole result and the next overlaps it, so paging breaks by definition. Not COMBINABLE: limit is
      // broken alone as much as in a combination, and that check judges only the combination.
      alsoBreaks: ['REST.QUERY.OFFSET_LIMIT_PAGING'],
      request: dropListParam('limit'),
    },
    {
      id: 'offset-ignored',
      description: 'offset=N is ignored',
      breaks: ['REST.QUERY.OFFSET'],
      // "offset 0, 5, 10 with limit 5 give successive pages" (§4): without offset every page is the first, so
      // paging breaks by definition. Not COMBINABLE (see limit-ignored).
      alsoBreaks: ['REST.QUERY.OFFSET_LIMIT_PAGING'],
      request: dropListParam('offset'),
    },
    {
      id: 'rownumber-1-based',
      description: '@rownumber counts from 1',
      breaks: ['REST.RECORD.ROWNUMBER'],
      response: (req, res) => {
        if (isPortal(req)) return res;
        const body = text(res);
        const out = body
          .replace(/"@rownumber":"(\d+)"/g, (_m, n: string) => `"@rownumber":"${Number(n) + 1}"`)
          .replace(/<row rownumber="(\d+)"/g, (_m, n: string) => `<row rownumber="${Number(n) + 1}"`);
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'json-numbers',
      description: 'JSON field values that look like numbers are sent as numbers',
      breaks: ['REST.RECORD.STRING_VALUES'],
      response: (req, res) => {
        if (isPortal(req) || !isJson(res)) return res;
        const body = text(res);
        const out = body.replace(/("[A-Za-z][A-Za-z0-9_]*":)"(-?\d+(?:\.\d+)?)"/g, '$1$2');
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'url-key-not-encoded',
      description: 'the key in @url is not URL-encoded',
      breaks: ['REST.RECORD.URL_FORMAT'],
      response: (req, res) => {
        if (isPortal(req)) return res;
        const body = text(res);
        const decode = (u: string) =>
          u.replace(/%[0-9A-Fa-f]{2}/g, (h) => String.fromCharCode(Number.parseInt(h.slice(1), 16)));
        const out = body
          .replace(/"@url":"([^"]*)"/g, (_m, u: string) => `"@url":"${decode(u).replace(/["\\]/g, '\\$&')}"`)
          .replace(/ url="([^"]*)"/g, (_m, u: string) => ` url="${escapeXml(decode(u))}"`);
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'sequence-frozen',
      description: 'the current sequence number never moves: writes do not raise it',
      breaks: ['REST.SEQ.MONOTONIC'],
      response: (req, res) => {
        if (isPortal(req)) return res;
        const seq = res.headers.sequence;
        if (typeof seq !== 'string') return res;
        frozenSequence ??= seq;
        const body = text(res)
          .replace(/("data":\{[^{]*?"@sequence":")\d+"/, `$1${frozenSequence}"`)
          .replace(/(<data\b[^>]*\bsequence=")\d+"/, `$1${frozenSequence}"`);
        return { ...withText(res, body), headers: { ...res.headers, sequence: frozenSequence } };
      },
    },
    {
      id: 'sequence-header-disagrees',
      description: 'the Sequence header is one above the envelope @sequence',
      breaks: ['REST.SEQ.HEADER'],
      response: (req, res) => {
        const seq = res.headers.sequence;
        return isPortal(req) || typeof seq !== 'string' || !/^\d+$/.test(seq)
          ? res
          : { ...res, headers: { ...res.headers, sequence: String(Number(seq) + 1) } };
      },
    },
    {
      id: 'deletes-after-empty',
      description: 'deletes_after never reports a deletion (always 204, empty)',
      breaks: ['REST.SEQ.DELETES_AFTER'],
      request: (req) =>
        isGet(req) && restRegister(req) && queryOf(req).has('deletes_after')
          ? { status: 204, headers: {}, body: Buffer.alloc(0) }
          : req,
    },
    {
      id: 'deleterow-0-based',
      description: 'deleterow reads the row numbers as 0-based',
      breaks: ['PORTAL.ROWS.DELETEROW_ROWS_1_BASED'],
      request: (req) => shiftIdParts(req, 'deleterow', 1, 1),
    },
    {
      id: 'insertrow-one-row-early',
      description: 'insertrow with afterRow k >= 1 puts the new row after row k-1',
      breaks: ['PORTAL.ROWS.INSERTROW_POSITION'],
      // afterRow 0 (at the beginning) is left alone: that is PORTAL.ROWS.INSERTROW_AT_BEGINNING, another rule
      request: (req) => shiftIdParts(req, 'insertrow', 1, -1, 1),
    },
    {
      id: 'approvalstatus-6',
      description: 'checkapprovalstatus answers approvalstatus 6',
      breaks: ['PORTAL.APPROVAL.STATUS_CODES'],
      response: (req, res) => {
        if (portalAction(req) !== 'checkapprovalstatus') return res;
        const body = text(res);
        const out = body.replace(/<approvalstatus>\d+<\/approvalstatus>/g, '<approvalstatus>6</approvalstatus>');
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'attachment-date-dmy',
      description: 'getattachlist dates are DD.MM.YYYY',
      breaks: ['PORTAL.ATTACH.LIST_SHAPE'],
      response: (req, res) => {
        if (portalAction(req) !== 'getattachlist') return res;
        const body = text(res);
        const out = body.replace(/ date="(\d{4})-(\d{2})-(\d{2})"/g, ' date="$3.$2.$1"');
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'report-without-usercode',
      description: 'action=report runs without usercode (as the configured user)',
      breaks: ['PORTAL.REPORT.USERCODE_REQUIRED'],
      request: (req) =>
        portalAction(req) === 'report' && !queryOf(req).get('usercode')
          ? withQuery(req, (q) => q.set('usercode', ctx.usercode))
          : req,
    },
    {
      id: 'no-credentials-accepted',
      description: 'a request without credentials is served as the configured user',
      breaks: ['REST.AUTH.BASIC', 'PORTAL.AUTH.REQUIRED_ON_EACH'],
      request: (req) =>
        header(req, 'authorization') === undefined && !/HSESSION=/.test(header(req, 'cookie') ?? '')
          ? {
              ...req,
              headers: {
                ...req.headers,
                authorization: `Basic ${Buffer.from(`${ctx.user}:${ctx.password}`).toString('base64')}`,
              },
            }
          : req,
    },
    {
      id: 'hsession-ignored',
      description: 'a request with only the HSESSION cookie is refused',
      breaks: ['REST.AUTH.HSESSION_ACCEPTED', 'PORTAL.AUTH.HSESSION_ONLY'],
      // deactivate, whose session cookie never authenticates, must not FAIL beside (preconditions first)
      select: 'REST.AUTH.*,PORTAL.AUTH.*,PORTAL.LOGIN.*',
      request: (req) =>
        header(req, 'authorization') === undefined && /HSESSION=/.test(header(req, 'cookie') ?? '')
          ? {
              status: 401,
              headers: { 'www-authenticate': 'Basic realm="erp"', 'content-type': 'text/plain' },
              body: Buffer.from('unauthorized'),
            }
          : req,
    },
    readOnlyAcceptsWrite(
      'ItemStatusVc',
      'REST.REGISTER.ITEMSTATUSVC_READ_ONLY',
      ['Code', 'Location'],
      'read-only-accepts-write',
    ),
    ...restMutants(),
    ...restEnvelopeMutants(),
    ...portalMutants(ctx),
    ...portalWriteMutants(),
    ...transportMutants(),
    ...causeMutants(),
    ...refusalMutants(),
    {
      id: 'okflag-ignored',
      description: 'a POST with set_field.OKFlag=1 creates a draft',
      breaks: ['REST.STATE.OKFLAG_CONFIRM_ON_POST'],
      request: (req) =>
        req.method === 'POST' && restRegister(req) && formOf(req).get('set_field.OKFlag') === '1'
          ? withForm(req, (f) => f.delete('set_field.OKFlag'))
          : req,
    },
  ];
}
