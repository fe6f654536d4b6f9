/**
 * Mutants of the behaviours issue 18 brought under test (portal-action-api.md §4 signing, activities, registerapi,
 * sendemail; §7 "Record is locked"; §2 field triggers; §4 rule 2, each searched field of each lookup): each takes
 * one documented behaviour, or one member of a list, away.
 */
import { unescapeXml } from '@erpcert/contract';
import { emptySuccess, refusal } from './mutants-portal.js';
import type { Mutant, ProxyRequest, ProxyResponse } from './proxy.js';
import { portalAction, queryOf, text, withText } from './wire.js';

/**
 * A JSON object where the docs give the XML operation result `<data><res errstr/></data>` (§2 "Result element
 * shapes"). (An XML `<data>` without `<res>` is blamed by path on PORTAL.DISPATCH.OPERATION_RESULT, the owner of
 * the operation result's parts, before the operation's own check sees it.)
 */
function notAResult(): ProxyResponse {
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: Buffer.from('{"done":true}', 'utf8'),
  };
}

/** A sub-action whose every call is refused. */
function refusedAction(action: string, rule: string): Mutant {
  return {
    id: `${action}-refused`,
    description: `${action} is refused (the server lacks it)`,
    breaks: [rule],
    request: (req) => (portalAction(req) === action ? refusal(`${action} is not available`) : req),
  };
}

/** A sub-action that answers a success and does nothing. */
function doesNothing(action: string, rule: string, what: string): Mutant {
  return {
    id: `${action}-does-nothing`,
    description: `${action} answers errstr="" but ${what}`,
    breaks: [rule],
    request: (req) => (portalAction(req) === action ? emptySuccess() : req),
  };
}

type Json = Record<string, unknown>;
type TriggerRecord = Json & { rows?: Json[] };

/** The plain JSON body of a field trigger (encrypted ones are left alone), or undefined. */
function triggerRequest(req: ProxyRequest): Json | undefined {
  if (portalAction(req) !== 'windowactions' || queryOf(req).get('encrypted') === 'true') return undefined;
  try {
    const v: unknown = JSON.parse(req.body.toString('utf8'));
    return typeof v === 'object' && v !== null ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A field-trigger mutant: for a trigger of `vcname`/`fieldname`, `edit` rewrites the answer's record (given
 * the request), the rest of the answer as it was.
 */
function triggerEdit(
  id: string,
  description: string,
  rule: string,
  vcname: string,
  fieldname: string,
  edit: (record: TriggerRecord, request: Json) => void,
): Mutant {
  return {
    id,
    description,
    breaks: [rule],
    response: (req, res) => {
      const request = triggerRequest(req);
      if (request?.vcname !== vcname || request.fieldname !== fieldname) return res;
      try {
        const body = JSON.parse(text(res)) as { record?: TriggerRecord };
        if (!body.record) return res;
        edit(body.record, request);
        return withText(res, JSON.stringify(body));
      } catch {
        return res;
      }
    },
  };
}

/** A case-insensitive prefix of a word of the value (portal-action-api.md §4 rule 1). */
function startsWord(value: string, term: string): boolean {
  const v = value.toLowerCase();
  const t = term.toLowerCase();
  for (let i = v.indexOf(t); i >= 0; i = v.indexOf(t, i + 1))
    if (i === 0 || !/[\p{L}\p{N}]/u.test(v[i - 1]!)) return true;
  return false;
}

/**
 * A lookup that does not search one of its documented fields (§4 rule 2): of the results, those that no term
 * finds in the `kept` fields (the searched fields but the ignored one) are dropped.
 */
function lookupIgnores(register: string, ignored: string, kept: readonly string[], rule: string): Mutant {
  return {
    id: `lookup-${register.toLowerCase()}-ignores-${ignored.toLowerCase()}`,
    description: `pastespecial ${register} does not search ${ignored}`,
    breaks: [rule],
    response: (req, res) => {
      if (portalAction(req) !== 'pastespecial' || queryOf(req).get('register') !== register) return res;
      const terms = (queryOf(req).get('id') ?? '').split(/\s+/).filter((t) => t !== '');
      if (terms.length === 0) return res;
      const body = text(res);
      const out = body.replace(new RegExp(`<${register}>([\\s\\S]*?)</${register}>`, 'g'), (whole, inner: string) => {
        const values = kept.map((f) => unescapeXml(new RegExp(`<${f}>([^<]*)</${f}>`).exec(inner)?.[1] ?? ''));
        return terms.every((t) => values.some((v) => startsWord(v, t))) ? whole : '';
      });
      return out === body ? res : withText(res, out);
    },
  };
}

/** The searched fields of the ARVc and APVc list searches (§4 rule 8), and the amount. */
const LIST_SEARCHED: Readonly<Record<'ARVc' | 'APVc', readonly string[]>> = {
  ARVc: ['InvoiceNr', 'CustCode', 'CustName', 'RefStr', 'OfficialSerNr', 'RVal'],
  APVc: ['SerNr', 'VECode', 'VEName', 'RefStr', 'InvoiceNr', 'RVal'],
};

/** A list search that does not search `ignored`: results holding the text only there are dropped. */
function listSearchIgnores(register: 'ARVc' | 'APVc', ignored: string, rule: string): Mutant {
  const kept = LIST_SEARCHED[register].filter((f) => f !== ignored);
  return {
    id: `list-search-${register.toLowerCase()}-ignores-${ignored.toLowerCase()}`,
    description: `the ${register} list search does not search ${ignored}`,
    breaks: [rule],
    response: (req, res) => {
      const q = queryOf(req);
      if (portalAction(req) !== 'list' || q.get('register') !== register) return res;
      const needle = (q.get('search') ?? '').toLowerCase();
      if (needle === '') return res;
      const body = text(res);
      let dropped = 0;
      let out = body.replace(new RegExp(`<${register}>([\\s\\S]*?)</${register}>`, 'g'), (whole, inner: string) => {
        const found = kept.some((f) =>
          unescapeXml(new RegExp(`<${f}>([^<]*)</${f}>`).exec(inner)?.[1] ?? '')
            .toLowerCase()
            .includes(needle),
        );
        if (!found) dropped++;
        return found ? whole : '';
      });
      // the total of such a server counts only what it found
      if (dropped > 0)
        out = out.replace(/ total="(\d+)"/, (_m, n: string) => ` total="${Math.max(0, Number(n) - dropped)}"`);
      return out === body ? res : withText(res, out);
    },
  };
}

/** The mutants of the portal writes. */
export function portalWriteMutants(): Mutant[] {
  return [
    lookupIgnores('CUVc', 'RegNr1', ['Code', 'Name'], 'PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS'),
    lookupIgnores('VEVc', 'RegNr1', ['Code', 'Name'], 'PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS'),
    lookupIgnores('AllCUVc', 'RegNr1', ['Code', 'Name'], 'PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS'),
    lookupIgnores('CUVc', 'Name', ['Code', 'RegNr1'], 'PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS'),
    lookupIgnores('INVc', 'Name', ['Code'], 'PORTAL.LOOKUP.SEARCH_FIELDS_INVC'),
    lookupIgnores('UserVc', 'Name', ['Code'], 'PORTAL.LOOKUP.SEARCH_FIELDS_USERVC'),
    listSearchIgnores('ARVc', 'RefStr', 'PORTAL.LIST.SEARCH_ARVC'),
    listSearchIgnores('ARVc', 'OfficialSerNr', 'PORTAL.LIST.SEARCH_ARVC'),
    listSearchIgnores('ARVc', 'CustName', 'PORTAL.LIST.SEARCH_ARVC'),
    listSearchIgnores('APVc', 'VEName', 'PORTAL.LIST.SEARCH_APVC'),
    listSearchIgnores('APVc', 'InvoiceNr', 'PORTAL.LIST.SEARCH_APVC'),
    doesNothing('linktosourcerecord', 'PORTAL.ACTIVITY.LINKTOSOURCERECORD', 'creates no activity'),
    refusedAction('addcomment', 'PORTAL.ACTIVITY.ADDCOMMENT'),
    refusedAction('settaskdescription', 'PORTAL.ACTIVITY.SETTASKDESCRIPTION'),
    refusedAction('registerapi', 'PORTAL.EVENTS.REGISTERAPI'),
    {
      id: 'registerapi-not-a-result',
      description: 'registerapi answers a JSON object, not the XML operation result',
      breaks: ['PORTAL.EVENTS.REGISTERAPI_REQUEST'],
      request: (req) => (portalAction(req) === 'registerapi' ? notAResult() : req),
    },
    {
      id: 'createsigningactivity-refuses-orvc',
      description: 'createsigningactivity refuses sales orders (ORVc), one of its documented registers',
      breaks: ['PORTAL.SIGN.REGISTERS'],
      request: (req) =>
        portalAction(req) === 'createsigningactivity' && queryOf(req).get('regname') === 'ORVc'
          ? refusal('ORVc cannot be signed')
          : req,
    },
    {
      ...refusedAction('createsigningactivity', 'PORTAL.SIGN.REGISTERS'),
      // a refusal is an operation result (§2 "Operation result": `<res errstr="<text>"/>`, "Empty errstr means
      // success"), so "answers an operation result" (CREATESIGNINGACTIVITY) holds; refused for every register,
      // the registers the docs list are not served: "createsigningactivity | ORVc, IVVc, EPOrderDocVc, ..." (§2
      // "Registers per operation"), as copyrecord-refused and posttext-refused
    },
    refusedAction('createsigningsess', 'PORTAL.SIGN.CREATESIGNINGSESS'),
    refusedAction('cancelsigning', 'PORTAL.SIGN.CANCELSIGNING'),
    doesNothing('startsigning', 'PORTAL.SIGN.STARTSIGNING', 'names no URL of the signing interface'),
    {
      id: 'signactivity-not-a-result',
      description: 'signactivity answers a JSON object, not the XML operation result',
      breaks: ['PORTAL.SIGN.SIGNACTIVITY'],
      request: (req) => (portalAction(req) === 'signactivity' ? notAResult() : req),
    },
    {
      id: 'sendemail-refuses-qtvc',
      description: 'sendemail refuses quotations (QTVc), one of its documented registers',
      breaks: ['PORTAL.EMAIL.REGISTERS'],
      request: (req) =>
        portalAction(req) === 'sendemail' && queryOf(req).get('regname') === 'QTVc'
          ? refusal('QTVc cannot be e-mailed')
          : req,
    },
    {
      id: 'locked-other-text',
      description: 'delete of a locked record answers another text than "Record is locked"',
      breaks: ['PORTAL.ERRORS.RECORD_LOCKED'],
      response: (req, res) => {
        if (portalAction(req) !== 'delete') return res;
        const body = text(res);
        const out = body.replace('errstr="Record is locked"', 'errstr="The record is in use by another user"');
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'aef-shipped-custcode-editable',
      description: 'activeeditfields of an order with shipments answers an empty exceptionHeaderList',
      breaks: ['PORTAL.AEF.ORVC_WITH_SHIPMENTS'],
      response: (req, res) => {
        if (portalAction(req) !== 'activeeditfields') return res;
        const body = text(res);
        const out = body.replace('"exceptionHeaderList":"CustCode"', '"exceptionHeaderList":""');
        return out === body ? res : withText(res, out);
      },
    },
    triggerEdit(
      'trigger-machinename-no-drawer',
      'IVVc MachineName leaves DrawerCode empty',
      'PORTAL.TRIGGER.IVVC_MACHINENAME_DRAWER',
      'IVVc',
      'MachineName',
      (record) => {
        record.DrawerCode = '';
      },
    ),
    triggerEdit(
      'trigger-quant-surcharge',
      'ORVc row Quant above 10 raises Price by 10 % (a surcharge, not a discount)',
      'PORTAL.TRIGGER.ORVC_QUANT_DISCOUNT',
      'ORVc',
      'Quant',
      (record, request) => {
        const row = record.rows?.[Number(request.rowindex ?? -1)];
        const price = Number(row?.Price);
        if (row && Number(request.value) > 10 && Number.isFinite(price)) row.Price = (price * 1.1).toFixed(2);
      },
    ),
    triggerEdit(
      'trigger-recepy-loads-nothing',
      'ORVc row Recepy adds no rows of the recipe',
      'PORTAL.TRIGGER.ORVC_RECEPY',
      'ORVc',
      'Recepy',
      (record, request) => {
        const sent = ((request.values as Json | undefined)?.rows as unknown[] | undefined)?.length ?? 0;
        if (record.rows) record.rows = record.rows.slice(0, sent);
      },
    ),
    triggerEdit(
      'trigger-textcode-loads-nothing',
      'ActVc row TextCode loads no text: the row keeps only its TextCode',
      'PORTAL.TRIGGER.ACTVC_TEXTCODE',
      'ActVc',
      'TextCode',
      (record, request) => {
        const row = record.rows?.[Number(request.rowindex ?? -1)];
        if (row) for (const k of Object.keys(row)) if (k !== 'TextCode' && typeof row[k] === 'string') row[k] = '';
      },
    ),
  ];
}
