/**
 * Mutants of the record REST API (record-rest-api.md): the record shape, the envelope, the sequence feed,
 * writes, read-only registers and the company. Each breaks one documented behaviour and names its rules.
 */
import { escapeXml } from '@erpcert/contract';
import type { Mutant, ProxyRequest, ProxyResponse } from './proxy.js';
import { editRecords, isJson, isPortal, pathOf, queryOf, restRegister, text, withQuery, withText } from './wire.js';

/** `/api/<n>/<register>[/<key>]`: a REST request. */
const isRest = (req: ProxyRequest) => /^\/api\/\d+\//.test(pathOf(req));
const isGet = (req: ProxyRequest) => req.method === 'GET';
const isForm = (req: ProxyRequest) => /x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? ''));
const isJsonBody = (req: ProxyRequest) => /json/i.test(String(req.headers['content-type'] ?? ''));

/** Rewrites the parsed JSON body of a REST answer; other answers pass unchanged. */
function editJson(res: ProxyResponse, edit: (doc: { data?: Record<string, unknown> }) => boolean): ProxyResponse {
  if (!isJson(res)) return res;
  let doc: { data?: Record<string, unknown> };
  try {
    doc = JSON.parse(text(res));
  } catch {
    return res;
  }
  return edit(doc) ? withText(res, JSON.stringify(doc)) : res;
}

/** The record objects of a JSON envelope (`data.<register>`). */
function jsonRecords(doc: { data?: Record<string, unknown> }): Record<string, unknown>[] {
  const data = doc.data;
  if (!data || typeof data !== 'object') return [];
  const list = data[String(data['@register'] ?? '')];
  return Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
}

/** A body edit by regular expression; the same response when nothing matched. */
function replaced(res: ProxyResponse, edit: (body: string) => string): ProxyResponse {
  const body = text(res);
  const out = edit(body);
  return out === body ? res : withText(res, out);
}

/**
 * A read-only register that takes writes (record-rest-api.md §2 register table): the proxy answers a form
 * or JSON POST as created and from then on lists the record in reads whose filters it matches.
 */
export function readOnlyAcceptsWrite(
  register: string,
  rule: string,
  keyFields: readonly string[],
  id = `${register.toLowerCase()}-accepts-write`,
): Mutant {
  const stored: Record<string, string>[] = [];
  const url = (r: Record<string, string>) =>
    `/api/1/${register}/${keyFields.map((k) => encodeURIComponent(r[k] ?? '')).join('/')}`;
  const envelope = (records: Record<string, string>[]) =>
    JSON.stringify({
      data: {
        '@register': register,
        '@sequence': '1',
        '@systemversion': '1.0',
        [register]: records.map((r) => ({ '@register': register, '@sequence': '1', '@url': url(r), ...r, rows: [] })),
      },
    });
  const xmlRecord = (r: Record<string, string>) =>
    `<${register} register="${register}" sequence="1" url="${url(r)}">${Object.entries(r)
      .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
      .join('')}<rows/></${register}>`;
  return {
    id,
    description: `${register} (read-only) takes a POST: it answers created and lists the record afterwards`,
    breaks: [rule],
    request: (req) => {
      if (req.method !== 'POST' || restRegister(req) !== register) return req;
      const body = req.body.toString('utf8');
      let records: Record<string, string>[] = [];
      if (isJsonBody(req)) {
        try {
          const list = (JSON.parse(body) as { data?: Record<string, unknown> }).data?.[register];
          records = Array.isArray(list)
            ? list.map((r) => Object.fromEntries(Object.entries(r as object).map(([k, v]) => [k, String(v)])))
            : [];
        } catch {
          records = [];
        }
      } else {
        records = [
          Object.fromEntries(
            [...new URLSearchParams(body)]
              .filter(([k]) => k.startsWith('set_field.'))
              .map(([k, v]) => [k.slice(10), v]),
          ),
        ];
      }
      stored.push(...records);
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', sequence: '1' },
        body: Buffer.from(envelope(records)),
      };
    },
    response: (req, res) => {
      if (!isGet(req) || restRegister(req) !== register || stored.length === 0) return res;
      const filters = [...queryOf(req)].filter(([k]) => k.startsWith('filter.'));
      const match = stored.filter((r) => filters.length > 0 && filters.every(([k, v]) => r[k.slice(7)] === v));
      if (match.length === 0) return res;
      if (isJson(res)) return withText(res, envelope(match));
      const body = text(res);
      const open = /<data\b[^>]*?(\/?)>/.exec(body);
      if (!open) return res;
      const head = open[0].replace(/\/>$/, '>');
      const rest =
        open[1] === '/' ? `</data>${body.slice(open.index + open[0].length)}` : body.slice(open.index + open[0].length);
      return withText(res, `${body.slice(0, open.index)}${head}${match.map(xmlRecord).join('')}${rest}`);
    },
  };
}

/** The REST mutants. */
export function restMutants(): Mutant[] {
  let numbered = 0;
  return [
    {
      id: 'json-empty-null',
      description: 'empty JSON field values are sent as null instead of ""',
      breaks: ['REST.RECORD.EMPTY_STRING'],
      response: (req, res) =>
        isRest(req) && isGet(req)
          ? replaced(res, (b) => (isJson(res) ? b.replace(/("[A-Za-z][A-Za-z0-9_]*":)""/g, '$1null') : b))
          : res,
    },
    {
      id: 'record-sequence-missing',
      description: 'records carry no @sequence (JSON member, XML attribute)',
      breaks: ['REST.RECORD.META_FIELDS'],
      response: (req, res) => {
        if (!isRest(req) || !isGet(req)) return res;
        if (isJson(res))
          return editJson(res, (doc) => {
            const rs = jsonRecords(doc);
            for (const r of rs) delete r['@sequence'];
            return rs.length > 0;
          });
        // every element with a register attribute except <data> is a record
        return replaced(res, (b) => b.replace(/(<(?!data\b)[A-Za-z]\w*\s[^>]*?)\s+sequence="\d*"/g, '$1'));
      },
    },
    {
      id: 'rows-missing',
      description: 'full JSON reads leave out `rows` (records of registers with and without lines)',
      breaks: ['REST.RECORD.ROWS_ARRAY', 'REST.RECORD.ROWS_EMPTY_WITHOUT_LINES'],
      response: (req, res) =>
        isRest(req) && isGet(req) && !queryOf(req).has('fields')
          ? editJson(res, (doc) => {
              const rs = jsonRecords(doc).filter((r) => 'rows' in r);
              for (const r of rs) delete r.rows;
              return rs.length > 0;
            })
          : res,
    },
    {
      id: 'systemversion-missing',
      description: 'REST envelopes carry no @systemversion',
      breaks: ['REST.ENVELOPE.SYSTEMVERSION', 'REST.VERSION.SYSTEMVERSION'],
      // JSON by parse, delete, serialize (a regex cut left a dangling comma: invalid JSON, a transport FAIL)
      response: (req, res) => {
        if (!isRest(req)) return res;
        if (isJson(res))
          return editJson(res, (doc) => {
            const data = doc.data;
            if (!data || typeof data !== 'object' || !('@systemversion' in data)) return false;
            delete data['@systemversion'];
            return true;
          });
        return replaced(res, (b) => b.replace(/(<data\b[^>]*?)\s+systemversion="[^"]*"/, '$1'));
      },
    },
    {
      id: 'sequence-header-missing',
      description: 'REST answers carry no Sequence header',
      breaks: ['REST.SEQ.HEADER'],
      response: (req, res) => {
        if (isPortal(req) || res.headers.sequence === undefined) return res;
        const { sequence: _dropped, ...headers } = res.headers;
        return { ...res, headers };
      },
    },
    {
      id: 'updates-after-ignored',
      description: 'updates_after is ignored: the whole register comes back',
      breaks: ['REST.SEQ.UPDATES_AFTER', 'REST.SEQ.HEADER_FEEDS_UPDATES_AFTER'],
      request: (req) =>
        isGet(req) && restRegister(req) && queryOf(req).has('updates_after')
          ? withQuery(req, (q) => q.delete('updates_after'))
          : req,
    },
    {
      id: 'patch-changes-nothing',
      description: 'PATCH answers with the record as it was and changes nothing',
      breaks: ['REST.WRITE.UPDATE_PATCH'],
      // the sequence rightly stays: REST.SEQ.MONOTONIC must not FAIL beside (preconditions first)
      select: 'REST.WRITE.*,REST.SEQ.*',
      // the same URL read by GET: the reference server answers the record by key, unchanged. The request's
      // content-type goes (a header whose value is undefined made node refuse the request: a proxy 502)
      request: (req) => {
        if (req.method !== 'PATCH' || !isRest(req)) return req;
        const { 'content-type': _form, ...headers } = req.headers;
        return { ...req, method: 'GET', body: Buffer.alloc(0), headers };
      },
    },
    {
      id: 'json-post-drops-records',
      description: 'a JSON POST with several records creates only the first',
      breaks: ['REST.WRITE.JSON_MANY_RECORDS'],
      request: (req) => {
        if (req.method !== 'POST' || !restRegister(req) || !isJsonBody(req)) return req;
        let doc: { data?: Record<string, unknown> };
        try {
          doc = JSON.parse(req.body.toString('utf8'));
        } catch {
          return req;
        }
        const data = doc.data;
        if (!data) return req;
        let cut = false;
        for (const [k, v] of Object.entries(data))
          if (Array.isArray(v) && v.length > 1) {
            data[k] = v.slice(0, 1);
            cut = true;
          }
        return cut ? { ...req, body: Buffer.from(JSON.stringify(doc), 'utf8') } : req;
      },
    },
    {
      id: 'rest-stp-text-as-item',
      description: 'REST reads of invoices report text rows (stp 2) as item rows (stp 1)',
      breaks: ['REST.RECORD.ROW_TYPES'],
      // the portal's insertrow, read through this misreporting read, must get no verdict (preconditions first)
      select: 'REST.WRITE.*,PORTAL.ROWS.*',
      response: (req, res) => {
        if (!isGet(req) || restRegister(req) !== 'IVVc') return res;
        const body = text(res);
        const out = body.replace(/"stp":"2"/g, '"stp":"1"').replace(/<stp>2<\/stp>/g, '<stp>1</stp>');
        return out === body ? res : withText(res, out);
      },
    },
    {
      id: 'json-post-numbers-contacts',
      description: 'a JSON POST of a contact without Code gets a Code from the server (a required value it filled)',
      breaks: ['REST.WRITE.JSON_REQUIRED_VALUES'],
      request: (req) => {
        if (req.method !== 'POST' || restRegister(req) !== 'CUVc' || !isJsonBody(req)) return req;
        let doc: { data?: { CUVc?: Record<string, unknown>[] } };
        try {
          doc = JSON.parse(req.body.toString('utf8'));
        } catch {
          return req;
        }
        let filled = false;
        for (const [i, r] of (doc.data?.CUVc ?? []).entries())
          if (typeof r === 'object' && r !== null && (r.Code === undefined || r.Code === '')) {
            numbered += 1;
            r.Code = `AUTO${numbered}${i}`;
            filled = true;
          }
        return filled ? { ...req, body: Buffer.from(JSON.stringify(doc), 'utf8') } : req;
      },
    },
    {
      id: 'form-rows-reversed',
      description: 'a form POST stores set_row_field.<N> rows in reverse order',
      breaks: ['REST.WRITE.FORM_ROW_INDEX'],
      request: (req) => {
        if (req.method !== 'POST' || !restRegister(req) || !isForm(req)) return req;
        const form = new URLSearchParams(req.body.toString('utf8'));
        const rows = [...form.keys()].flatMap((k) => /^set_row_field\.(\d+)\./.exec(k)?.[1] ?? []).map(Number);
        if (rows.length === 0) return req;
        const last = Math.max(...rows);
        const out = new URLSearchParams();
        for (const [k, v] of form) {
          const m = /^set_row_field\.(\d+)\.(.*)$/.exec(k);
          out.append(m ? `set_row_field.${last - Number(m[1])}.${m[2]}` : k, v);
        }
        return { ...req, body: Buffer.from(out.toString(), 'utf8') };
      },
    },
    {
      id: 'range-open-exclusive',
      description: 'range=from: (open end) leaves out the records equal to from',
      breaks: ['REST.QUERY.RANGE_FROM_OPEN'],
      response: (req, res) => {
        const register = restRegister(req);
        const q = queryOf(req);
        const range = q.get('range');
        const sort = q.get('sort');
        if (!isGet(req) || !register || !range || !sort || !/^[^:]+:$/.test(range)) return res;
        const from = range.slice(0, -1);
        return editRecords(res, register, (rs) => rs.filter((r) => r.fields(sort) !== from));
      },
    },
    {
      id: 'batch-cut-short',
      description: 'a list read with limit 1,000 or more answers only the first half of its records',
      breaks: ['REST.LIMITS.BATCH_SIZE'],
      // §8 "Suggested batch size | 1,000 to 5,000 records per request" and §4 rule 12's pagination guidance
      // both promise such a read in full: a server that cuts it breaks both by definition
      alsoBreaks: ['REST.LIMITS.PAGINATION_GUIDANCE'],
      response: (req, res) => {
        const register = restRegister(req);
        if (!isGet(req) || !register || !(Number(queryOf(req).get('limit')) >= 1000)) return res;
        return editRecords(res, register, (rs) => (rs.length > 1 ? rs.slice(0, Math.ceil(rs.length / 2)) : rs));
      },
    },
    {
      id: 'filters-dropped-with-sort',
      description: 'filter.<Field> parameters are ignored when the read also carries sort',
      // each parameter works alone (filters without sort, sort without filters): only their combination breaks
      breaks: ['REST.QUERY.COMBINABLE'],
      request: (req) => {
        if (!isGet(req) || !restRegister(req)) return req;
        const q = queryOf(req);
        const filters = [...q.keys()].filter((k) => k.startsWith('filter.'));
        return filters.length === 0 || !q.has('sort')
          ? req
          : withQuery(req, (query) => {
              for (const f of filters) query.delete(f);
            });
      },
    },
    readOnlyAcceptsWrite('SerBalVc', 'REST.REGISTER.SERBALVC_READ_ONLY', ['SerialNr', 'Location']),
    readOnlyAcceptsWrite('ARPayVc', 'REST.REGISTER.ARPAYVC_READ_ONLY', ['SerNr']),
    {
      id: 'company-ignored',
      description: 'the company code is ignored: every request reads and writes company 1',
      breaks: ['REST.QUERY.COMPCODE', 'PORTAL.GLOBAL.COMPNO'],
      needs: ['other-compcode'],
      request: (req) => {
        const url = new URL(req.url, 'http://x');
        const path = url.pathname.replace(/^\/api\/\d+\//, '/api/1/');
        const other = ['compcode', 'compno'].filter((p) => url.searchParams.has(p) && url.searchParams.get(p) !== '1');
        if (path === url.pathname && other.length === 0) return req;
        // only the company parameters change: the rest of the query keeps its bytes
        let search = url.search;
        for (const p of other) search = search.replace(new RegExp(`([?&]${p}=)[^&]*`), '$11');
        return { ...req, url: `${path}${search}` };
      },
    },
  ];
}
