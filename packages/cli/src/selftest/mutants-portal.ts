/**
 * Mutants of the portal action API (portal-action-api.md): lookups per register, list order, dates and
 * search, permission checks, operations that do nothing, result shapes. Each names the rules it breaks.
 */
import type { MutantContext } from './mutants.js';
import type { Mutant, ProxyRequest, ProxyResponse } from './proxy.js';
import { editRecords, portalAction, queryOf, text, withQuery, withText } from './wire.js';

/** A portal answer `<res errstr="...">`: the documented failure form (§7 "Errors"). */
export function refusal(why: string): ProxyResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<data><res errstr="${why}"/></data>`, 'utf8'),
  };
}

/** A portal success answer `<res errstr=""/>` (an operation result, §2), sent without doing anything. */
export function emptySuccess(): ProxyResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/xml; charset=utf-8' },
    body: Buffer.from('<?xml version="1.0" encoding="UTF-8"?>\n<data><res errstr=""/></data>', 'utf8'),
  };
}

const replaced = (res: ProxyResponse, edit: (body: string) => string): ProxyResponse => {
  const body = text(res);
  const out = edit(body);
  return out === body ? res : withText(res, out);
};

/** The conversion sub-actions (§4 "Conversions"). */
const CONVERSIONS = ['createsalesorderfromquotation', 'createslinvoicefromorder', 'createslinvoicefromquotation'];

/** A read-only sub-action the server lacks: every call is refused. */
function refused(action: string, rule: string): Mutant {
  return {
    id: `${action}-refused`,
    description: `${action} is refused (the server lacks it)`,
    breaks: [rule],
    request: (req) => (portalAction(req) === action ? refusal(`${action} is not available`) : req),
  };
}

/** The portal mutants. */
export function portalMutants(ctx: MutantContext): Mutant[] {
  const vevcAsked = new Set<string>();
  const isLookup = (req: ProxyRequest, register: string) =>
    portalAction(req) === 'pastespecial' && queryOf(req).get('register') === register;
  return [
    {
      id: 'lookup-invc-without-uprice1',
      description: 'INVc lookup results lack UPrice1',
      breaks: ['PORTAL.LOOKUP.INVC_FIELDS'],
      response: (req, res) =>
        isLookup(req, 'INVc') ? replaced(res, (b) => b.replace(/<UPrice1>[^<]*<\/UPrice1>/g, '')) : res,
    },
    {
      id: 'lookup-vevc-all-contacts',
      description: 'a VEVc lookup searches all contacts, customers included',
      breaks: ['PORTAL.LOOKUP.VEVC_VENDORS_ONLY'],
      request: (req) => {
        if (!isLookup(req, 'VEVc')) return req;
        // AllCUVc, spelt as the docs spell it (§1 pastespecial registers): an unknown register would be refused
        const out = withQuery(req, (q) => q.set('register', 'AllCUVc'));
        vevcAsked.add(out.url);
        return out;
      },
      response: (req, res) =>
        vevcAsked.has(req.url)
          ? replaced(res, (b) =>
              b.replace(/<(\/?)(?:AllCUVc|CUVc)>/g, '<$1VEVc>').replace(/<(\/?)(?:AllCUVc|CUVc)\b/g, '<$1VEVc'),
            )
          : res,
    },
    {
      id: 'lookup-first-term-only',
      description: 'pastespecial with several search terms matches on the first term only',
      breaks: ['PORTAL.LOOKUP.TERMS_AND'],
      request: (req) => {
        if (portalAction(req) !== 'pastespecial') return req;
        const id = queryOf(req).get('id') ?? '';
        const terms = id.trim().split(/\s+/);
        return terms.length < 2 ? req : withQuery(req, (q) => q.set('id', terms[0]!));
      },
    },
    {
      id: 'lookup-case-sensitive',
      description: 'pastespecial matches letter case exactly: results whose text differs in case are dropped',
      breaks: ['PORTAL.LOOKUP.PREFIX_CASE_INSENSITIVE'],
      response: (req, res) => {
        if (portalAction(req) !== 'pastespecial') return res;
        const terms = (queryOf(req).get('id') ?? '').trim().split(/\s+/).filter(Boolean);
        const register = queryOf(req).get('register') ?? '';
        if (terms.length === 0 || terms.every((t) => t.toLowerCase() === t.toUpperCase())) return res;
        const values = (xml: string) => [...xml.matchAll(/>([^<]+)</g)].map((m) => m[1]!);
        let dropped = false;
        const out = editRecords(res, register, (rs) =>
          rs.filter((r) => {
            const xml = (r as unknown as { xml?: string }).xml ?? '';
            const keep = terms.every((t) => values(xml).some((v) => v.split(/\s+/).some((w) => w.startsWith(t))));
            if (!keep) dropped = true;
            return keep;
          }),
        );
        return dropped ? out : res;
      },
    },
    {
      id: 'list-order-ignored',
      description: 'list queries ignore order=descending',
      breaks: ['PORTAL.LIST.ORDER'],
      request: (req) =>
        portalAction(req) === 'list' && queryOf(req).get('order') === 'descending'
          ? withQuery(req, (q) => q.set('order', 'ascending'))
          : req,
    },
    {
      id: 'list-dates-refused',
      description: 'list queries with sd/ed are refused',
      breaks: ['PORTAL.LIST.SD_ED_DATES'],
      request: (req) =>
        portalAction(req) === 'list' && (queryOf(req).has('sd') || queryOf(req).has('ed'))
          ? refusal('sd/ed are not supported')
          : req,
    },
    {
      id: 'list-search-ignored',
      description: 'ARVc/APVc list search is ignored: every open item comes back',
      breaks: ['PORTAL.LIST.SEARCH_ARVC', 'PORTAL.LIST.SEARCH_APVC'],
      request: (req) =>
        portalAction(req) === 'list' && queryOf(req).has('search') ? withQuery(req, (q) => q.delete('search')) : req,
    },
    {
      id: 'list-search-finds-nothing',
      description: "ARVc/APVc list search matches nothing: a search for an open item's own number returns no record",
      breaks: ['PORTAL.LIST.SEARCH_ARVC', 'PORTAL.LIST.SEARCH_APVC'],
      request: (req) =>
        portalAction(req) === 'list' && queryOf(req).has('search')
          ? withQuery(req, (q) => q.set('search', `${q.get('search')}-ERPCERT-NO-MATCH`))
          : req,
    },
    {
      id: 'delete-does-nothing',
      description: 'action=delete answers success and deletes nothing',
      breaks: ['PORTAL.DELETE.RECORD_GONE'],
      // nothing was deleted, so the sequence rightly stays: REST.SEQ.MONOTONIC must not FAIL beside
      select: 'PORTAL.DELETE.*,REST.SEQ.*',
      request: (req) => (portalAction(req) === 'delete' ? emptySuccess() : req),
    },
    {
      id: 'posttext-refused',
      description: 'posttext is refused: the text is never stored',
      breaks: ['PORTAL.TEXT.REGISTERS'],
      request: (req) => (portalAction(req) === 'posttext' ? refusal('posttext is not available') : req),
    },
    {
      id: 'deactivate-refused',
      description: 'deactivate is refused: the session is never ended',
      breaks: ['PORTAL.LOGIN.DEACTIVATE'],
      request: (req) => (portalAction(req) === 'deactivate' ? refusal('deactivate is not available') : req),
    },
    {
      id: 'login-attributes-missing',
      description: 'the login result lacks dateformat and dec_separator',
      breaks: ['PORTAL.LOGIN.RESULT_SHAPE'],
      response: (req, res) =>
        portalAction(req) === 'login'
          ? replaced(res, (b) => b.replace(/ dateformat="[^"]*"/, '').replace(/ dec_separator="[^"]*"/, ''))
          : res,
    },
    {
      id: 'unok-without-permission',
      description: 'unokrecord un-confirms for a usercode without the un-confirm permission',
      breaks: ['PORTAL.UNOK.PERMISSION'],
      request: (req) =>
        portalAction(req) === 'unokrecord' && queryOf(req).get('usercode') === ctx.limitedUsercode
          ? withQuery(req, (q) => q.set('usercode', ctx.usercode))
          : req,
    },
    {
      id: 'report-access-ignored',
      description: 'action=report runs for a usercode whose access group has no report access',
      breaks: ['PORTAL.REPORT.ACCESS_GROUP'],
      request: (req) =>
        portalAction(req) === 'report' && queryOf(req).get('usercode') === ctx.limitedUsercode
          ? withQuery(req, (q) => q.set('usercode', ctx.usercode))
          : req,
    },
    {
      id: 'report-filters-without-fields',
      description: 'getreportfilters lists report windows without their fields',
      breaks: ['PORTAL.REPORT.GETREPORTFILTERS'],
      response: (req, res) => {
        if (portalAction(req) !== 'getreportfilters') return res;
        try {
          const doc = JSON.parse(text(res)) as { reports?: Record<string, unknown>[] };
          if (!Array.isArray(doc.reports) || doc.reports.length === 0) return res;
          for (const r of doc.reports) delete r.fields;
          return withText(res, JSON.stringify(doc));
        } catch {
          return res;
        }
      },
    },
    {
      id: 'approval-shape',
      description: 'checkapprovalstatus answers without cancancel and message',
      breaks: ['PORTAL.APPROVAL.STATUS_SHAPE'],
      response: (req, res) =>
        portalAction(req) === 'checkapprovalstatus'
          ? replaced(res, (b) =>
              b.replace(/<cancancel>[^<]*<\/cancancel>/g, '').replace(/<message>[^<]*<\/message>/g, ''),
            )
          : res,
    },
    {
      id: 'attachment-delete-does-nothing',
      description: 'deleteattachment answers success and deletes nothing',
      breaks: ['PORTAL.ATTACH.UNLISTED_AFTER_DELETE'],
      request: (req) => (portalAction(req) === 'deleteattachment' ? emptySuccess() : req),
    },
    {
      id: 'document-not-pdf',
      description: 'document answers a base64 file that is not a PDF',
      breaks: ['PORTAL.DOCUMENT.FILE_SHAPE'],
      response: (req, res) =>
        portalAction(req) === 'document'
          ? replaced(res, (b) =>
              b.replace(
                /<base64>[^<]*<\/base64>/,
                `<base64>${Buffer.from('plain text, no PDF').toString('base64')}</base64>`,
              ),
            )
          : res,
    },
    {
      id: 'sendemail-without-address',
      description: 'sendemail answers success for a customer without an e-mail address',
      breaks: ['PORTAL.EMAIL.PRECONDITIONS'],
      request: (req) => (portalAction(req) === 'sendemail' ? emptySuccess() : req),
    },
    {
      id: 'aef-without-rules',
      description: 'activeeditfields of CUVc answers without rules',
      breaks: ['PORTAL.AEF.RULES_PRESENT_CUVC'],
      response: (req, res) => {
        if (portalAction(req) !== 'activeeditfields') return res;
        try {
          const doc = JSON.parse(text(res)) as Record<string, unknown>;
          if (!('rules' in doc)) return res;
          delete doc.rules;
          return withText(res, JSON.stringify(doc));
        } catch {
          return res;
        }
      },
    },
    {
      id: 'hasusernewapi-yes',
      description: 'hasusernewapi answers hasapi="yes" instead of 0 or 1',
      breaks: ['PORTAL.UTIL.HASUSERNEWAPI_SHAPE'],
      response: (req, res) =>
        portalAction(req) === 'hasusernewapi'
          ? replaced(res, (b) => b.replace(/ hasapi="[01]"/, ' hasapi="yes"'))
          : res,
    },
    {
      id: 'copy-does-nothing',
      description: 'copyrecord of an IVVc answers success and copies nothing',
      breaks: ['PORTAL.COPY.NEW_SERNR'],
      // only IVVc copies (§4): other registers keep their refusal, PORTAL.COPY.IVVC_ONLY's business
      request: (req) =>
        portalAction(req) === 'copyrecord' && queryOf(req).get('regname') === 'IVVc' ? emptySuccess() : req,
    },
    {
      id: 'convert-newdata-names-no-record',
      description: 'conversions answer a well-formed newdata that names no record (the new SerNr with a 9 appended)',
      breaks: ['PORTAL.CONVERT.NEWDATA_EXISTS'],
      // newdata is "the new invoice SerNr" (portal-action-api.md §4 "Invoice from order"); the shape holds (a
      // non-empty SerNr), so only NEWDATA_EXISTS breaks. An empty newdata breaks the shape instead
      // (RESULT_SHAPE: the generated spec:portal-conversion-result:data/res/@newdata:empty)
      response: (req, res) =>
        CONVERSIONS.includes(portalAction(req) ?? '')
          ? replaced(res, (b) => b.replace(/ newdata="([^"]+)"/, ' newdata="$19"'))
          : res,
    },
    {
      id: 'login-without-version',
      description: 'the login result does not report apiversion and version',
      breaks: ['PORTAL.VERSION.LOGIN_REPORTS'],
      response: (req, res) =>
        portalAction(req) === 'login'
          ? replaced(res, (b) =>
              b.replace(/ apiversion="[^"]*"/, ' apiversion=""').replace(/ version="[^"]*"/, ' version=""'),
            )
          : res,
    },
    {
      id: 'trigger-encrypted-refused',
      description: 'field triggers with encrypted=true are refused',
      breaks: ['PORTAL.TRIGGER.ENCRYPTED'],
      request: (req) =>
        portalAction(req) === 'windowactions' && queryOf(req).get('encrypted') === 'true'
          ? refusal('encrypted=true is not supported')
          : req,
    },
    {
      id: 'trigger-type-codes-refused',
      description:
        'field triggers that carry rowfields (FieldName:TypeCode pairs) answer success false; plain ones are taken',
      breaks: ['PORTAL.TRIGGER.TYPE_CODES'],
      // headerfields and rowfields with the type codes 1, 2, 5, 12, 15 (portal-action-api.md §2 "Field-trigger
      // request body"): the same trigger without them is taken, so only the type codes are refused
      // (PORTAL.TRIGGER.ROWFIELDS, which states that rowfields is taken, breaks with it)
      alsoBreaks: ['PORTAL.TRIGGER.ROWFIELDS', 'PORTAL.TRIGGER.HEADERFIELDS'],
      request: (req) => {
        if (portalAction(req) !== 'windowactions' || queryOf(req).get('encrypted') === 'true') return req;
        const body = req.body.toString('utf8');
        if (!/"rowfields"\s*:/.test(body)) return req;
        return {
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: Buffer.from(
            JSON.stringify({ success: false, res: false, messages: [{ description: 'rowfields are not supported' }] }),
            'utf8',
          ),
        };
      },
    },
    refused('getportalusers', 'PORTAL.USERS.GETPORTALUSERS'),
    refused('getemployeeinfo', 'PORTAL.EMPLOYEE.GETEMPLOYEEINFO'),
    refused('getcomments', 'PORTAL.ACTIVITY.GETCOMMENTS'),
    refused('getrecordlinks', 'PORTAL.UTIL.GETRECORDLINKS'),
    {
      id: 'document-orvc-refused',
      description: 'action=document refuses sales orders (ORVc), one of the documented document registers',
      breaks: ['PORTAL.DOCUMENT.REGISTERS'],
      request: (req) =>
        portalAction(req) === 'document' && queryOf(req).get('register') === 'ORVc'
          ? refusal('ORVc cannot be printed')
          : req,
    },
  ];
}
