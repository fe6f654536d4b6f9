/** Small request and response rewriting helpers of the self-test's mutants. */
import { unescapeXml } from '@erpcert/contract';
import type { ProxyRequest, ProxyResponse } from './proxy.js';

/** The request's path without the query. */
export function pathOf(req: ProxyRequest): string {
  return new URL(req.url, 'http://x').pathname;
}

/** The request's query parameters. */
export function queryOf(req: ProxyRequest): URLSearchParams {
  return new URL(req.url, 'http://x').searchParams;
}

/** The request with its query changed by `edit`. */
export function withQuery(req: ProxyRequest, edit: (q: URLSearchParams) => void): ProxyRequest {
  const url = new URL(req.url, 'http://x');
  edit(url.searchParams);
  return { ...req, url: `${url.pathname}${url.search}` };
}

/** `/api/<n>/<register>` with no key: a REST list or create (record-rest-api.md §4). */
export function restRegister(req: ProxyRequest): string | undefined {
  const m = /^\/api\/\d+\/([^/]+)\/?$/.exec(pathOf(req));
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/** A portal request (any `.hal` path, portal-action-api.md §1). */
export function isPortal(req: ProxyRequest): boolean {
  return pathOf(req).endsWith('.hal');
}

/** The portal action of a request; `list` for a list query (no action, portal-action-api.md §1). */
export function portalAction(req: ProxyRequest): string | undefined {
  if (!isPortal(req)) return undefined;
  const q = queryOf(req);
  const action = q.get('action');
  if (action === null) return q.has('register') ? 'list' : undefined;
  return action === 'action' ? (q.get('register') ?? undefined) : action;
}

export const text = (res: ProxyResponse): string => res.body.toString('utf8');
export const withText = (res: ProxyResponse, body: string): ProxyResponse => ({
  ...res,
  body: Buffer.from(body, 'utf8'),
});
export const isJson = (res: ProxyResponse): boolean => /json/i.test(String(res.headers['content-type'] ?? ''));

/** A request body parsed as a form. */
export function formOf(req: ProxyRequest): URLSearchParams {
  return new URLSearchParams(req.body.toString('utf8'));
}

/** The request with its form body changed by `edit`. */
export function withForm(req: ProxyRequest, edit: (f: URLSearchParams) => void): ProxyRequest {
  const form = formOf(req);
  edit(form);
  return { ...req, body: Buffer.from(form.toString(), 'utf8') };
}

/** One record element of a REST XML envelope: `<REG ...>...</REG>` directly under `<data>`. */
function xmlRecords(body: string, register: string): { start: number; end: number; xml: string }[] {
  const out: { start: number; end: number; xml: string }[] = [];
  const open = new RegExp(`<${register}(?=[\\s>/])`, 'g');
  const close = `</${register}>`;
  for (let m = open.exec(body); m; m = open.exec(body)) {
    const selfClose = body.indexOf('/>', m.index);
    const gt = body.indexOf('>', m.index);
    const end = selfClose === gt - 1 ? gt + 1 : body.indexOf(close, m.index) + close.length;
    if (end < m.index) break;
    out.push({ start: m.index, end, xml: body.slice(m.index, end) });
    open.lastIndex = end;
  }
  return out;
}

/** The text of a field element of one XML record (`<Field>text</Field>`), or '' when empty or absent. */
export function xmlField(recordXml: string, field: string): string {
  const m = new RegExp(`<${field}>([^<]*)</${field}>`).exec(recordXml);
  return m ? unescapeXml(m[1]!) : '';
}

/** A record as the mutants see it: its field values (header fields only) and a way to keep it in the body. */
export interface WireRecord {
  readonly fields: (name: string) => string;
}

/**
 * Rewrites the list of records of a REST envelope (JSON `data.<REG>`, XML record elements) with `edit`,
 * which may drop, reorder or duplicate records. Bodies that are not envelopes pass unchanged.
 */
export function editRecords(
  res: ProxyResponse,
  register: string,
  edit: <T extends WireRecord>(records: T[]) => T[],
): ProxyResponse {
  const body = text(res);
  if (isJson(res)) {
    let doc: { data?: Record<string, unknown> };
    try {
      doc = JSON.parse(body);
    } catch {
      return res;
    }
    const list = doc.data?.[register];
    if (!Array.isArray(list)) return res;
    const wrapped = list.map((r: Record<string, unknown>) => ({ r, fields: (n: string) => String(r[n] ?? '') }));
    doc.data![register] = edit(wrapped).map((w) => w.r);
    return withText(res, JSON.stringify(doc));
  }
  const found = xmlRecords(body, register);
  if (found.length === 0) return res;
  const wrapped = found.map((f) => ({ xml: f.xml, fields: (n: string) => xmlField(f.xml, n) }));
  const kept = edit(wrapped)
    .map((w) => w.xml)
    .join('');
  return withText(res, body.slice(0, found[0]!.start) + kept + body.slice(found.at(-1)!.end));
}
