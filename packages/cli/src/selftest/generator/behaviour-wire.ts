/**
 * What the behaviour mutants need to know of a request (which operation of which API on which register), and the
 * few things they send upstream themselves: a REST read of a register's keys (the neighbour of a record), a PATCH
 * that undoes a transition, the documented refusals.
 */
import { getRegister, rules } from '@erpcert/contract';
import { refusal } from '../mutants-portal.js';
import type { ProxyRequest, ProxyResponse } from '../proxy.js';
import { formOf, isPortal, pathOf, portalAction, queryOf, text } from '../wire.js';
import { bodyRegister, requestRegister } from './catalogue-mutants.js';

/** The operation a request asks for, in the words of specs/behaviours.yaml. */
export interface RequestOperation {
  readonly api: 'REST' | 'PORTAL';
  readonly operation: string;
  /** The register it names (URL, register/regname, or the JSON body's vcname). */
  readonly register: string | undefined;
  /** REST: the record key of `/api/<n>/<register>/<key>`, URL-decoded. */
  readonly key?: string;
}

const REST_PATH = /^\/api\/(\d+)\/([^/]+)(?:\/(.+))?$/;

/** The operation of a request, or undefined for one of neither API (the API root, an OAuth endpoint). */
export function operationOf(req: ProxyRequest): RequestOperation | undefined {
  if (isPortal(req)) {
    const operation = portalAction(req);
    if (operation === undefined) return undefined;
    return { api: 'PORTAL', operation, register: bodyRegister(req) ?? requestRegister(req) };
  }
  const m = REST_PATH.exec(pathOf(req));
  if (!m) return undefined;
  const register = decodeURIComponent(m[2]!);
  const key = m[3] === undefined ? undefined : decodeURIComponent(m[3]);
  const method = req.method.toUpperCase();
  if (key !== undefined)
    return method === 'PATCH'
      ? { api: 'REST', operation: 'update', register, key }
      : method === 'GET'
        ? { api: 'REST', operation: 'get-by-key', register, key }
        : undefined;
  if (method === 'GET') return { api: 'REST', operation: 'list', register };
  if (method !== 'POST') return undefined;
  const json = /json/i.test(String(req.headers['content-type'] ?? ''));
  return { api: 'REST', operation: json ? 'create-json' : 'create-form', register };
}

/** The company number of a REST path (`/api/<n>/`), or of a portal request's compno; 1 without either. */
export function companyOf(req: ProxyRequest): string {
  return REST_PATH.exec(pathOf(req))?.[1] ?? queryOf(req).get('compno') ?? queryOf(req).get('compcode') ?? '1';
}

/** The records of a JSON create body (`{data: {<Register>: [...]}}`), or undefined when it is not one. */
export function jsonRecords(req: ProxyRequest): Record<string, unknown>[] | undefined {
  try {
    const doc = JSON.parse(req.body.toString('utf8')) as { data?: Record<string, unknown> };
    const lists = Object.values(doc.data ?? {}).filter(Array.isArray) as unknown[][];
    return lists.flat().filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null);
  } catch {
    return undefined;
  }
}

/** The value a create request sets for a header field: form `set_field.<field>` or a JSON record member. */
export function sentField(req: ProxyRequest, field: string): string | undefined {
  if (/json/i.test(String(req.headers['content-type'] ?? ''))) {
    const v = jsonRecords(req)?.find((r) => field in r)?.[field];
    return v === undefined ? undefined : String(v);
  }
  return formOf(req).get(`set_field.${field}`) ?? undefined;
}

/** The registers an operation serves, from the catalogue's `<API>.<AREA>.*REGISTERS` rule that applies to it. */
export function operationRegisters(api: 'REST' | 'PORTAL', operation: string): readonly string[] | undefined {
  return rules.find((r) => r.api === api && /REGISTERS$/.test(r.id) && r.appliesTo?.includes(operation))?.registers;
}

/** The one key field of a REST register, or undefined for a register of the portal only or a composite key. */
export function singleKey(register: string): string | undefined {
  const def = getRegister(register);
  return def && def.key.length === 1 ? def.key[0] : undefined;
}

/** Headers of an extra upstream request: the caller's credentials, no body headers of theirs. */
function credentials(req: ProxyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of ['authorization', 'cookie']) {
    const v = req.headers[h];
    if (typeof v === 'string') out[h] = v;
  }
  return out;
}

/** Forwards one request upstream (proxy.ts `exchange`). */
export type Forward = (r: ProxyRequest) => Promise<ProxyResponse>;

/**
 * The key of the record beside `key` in `register` (the next one in key order, else the previous one), skipping
 * confirmed records, which refuse every change: read over REST with the caller's credentials. Undefined when the
 * register has no single key or no such record.
 */
export async function neighbourKey(
  req: ProxyRequest,
  forward: Forward,
  register: string,
  key: string,
): Promise<string | undefined> {
  const field = singleKey(register);
  if (field === undefined) return undefined;
  const hasOk = getRegister(register)?.fields.includes('OKFlag') ?? false;
  const fields = hasOk ? `${field},OKFlag` : field;
  const url = `/api/${companyOf(req)}/${encodeURIComponent(register)}?sort=${field}&fields=${fields}&limit=5000`;
  const res = await forward({
    method: 'GET',
    url,
    headers: { ...credentials(req), accept: 'application/json' },
    body: Buffer.alloc(0),
  });
  let records: Record<string, unknown>[] = [];
  try {
    const doc = JSON.parse(text(res)) as { data?: Record<string, unknown> };
    records = (doc.data?.[register] ?? []) as Record<string, unknown>[];
  } catch {
    return undefined;
  }
  const keys = records.filter((r) => r.OKFlag !== '1').map((r) => String(r[field] ?? ''));
  const all = records.map((r) => String(r[field] ?? ''));
  const at = all.indexOf(key);
  if (at < 0) return undefined;
  const after = all.slice(at + 1).find((k) => keys.includes(k));
  const before = all
    .slice(0, at)
    .reverse()
    .find((k) => keys.includes(k));
  return after ?? before;
}

/** A record as a REST read by key answers it (header fields, `rows`), or undefined when there is none. */
export type WireRecordJson = Record<string, unknown> & { rows?: Record<string, unknown>[] };

/**
 * The record `register`/`key` read over REST by key with the caller's credentials (the behaviour mutants ask it
 * whether the server would take a write at all: a missing or confirmed record, a row it lacks, is refused).
 */
export async function readRecord(
  req: ProxyRequest,
  forward: Forward,
  register: string,
  key: string,
): Promise<WireRecordJson | undefined> {
  const res = await forward({
    method: 'GET',
    url: `/api/${companyOf(req)}/${encodeURIComponent(register)}/${encodeURIComponent(key)}`,
    headers: { ...credentials(req), accept: 'application/json' },
    body: Buffer.alloc(0),
  });
  if (res.status !== 200) return undefined;
  try {
    const doc = JSON.parse(text(res)) as { data?: Record<string, unknown> };
    const list = doc.data?.[register];
    return Array.isArray(list) && list.length > 0 ? (list[0] as WireRecordJson) : undefined;
  } catch {
    return undefined;
  }
}

/** A form PATCH of `register`/`key` that sets `field` to `value`, sent upstream with the caller's credentials. */
export function patchField(
  req: ProxyRequest,
  forward: Forward,
  register: string,
  key: string,
  field: string,
  value: string,
): Promise<ProxyResponse> {
  return forward({
    method: 'PATCH',
    url: `/api/${companyOf(req)}/${encodeURIComponent(register)}/${encodeURIComponent(key)}`,
    headers: { ...credentials(req), 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: Buffer.from(`set_field.${field}=${encodeURIComponent(value)}`, 'utf8'),
  });
}

/** A portal operation result with an empty errstr: the documented success (§7). */
export function succeeded(res: ProxyResponse): boolean {
  return res.status === 200 && /<res\b[^>]*\berrstr=""/.test(text(res)) && !/<error\b/.test(text(res));
}

/** The portal operations that answer JSON and fail with the JSON failure (field-trigger response, `success` false). */
const JSON_OPERATIONS = new Set(['windowactions', 'activeeditfields']);

/**
 * The documented refusal of a request: the portal's `<res errstr>` (§7), the JSON failure of a JSON operation, or
 * on REST the error shape live servers send (DESIGN.md: `<error code description row field/>`, JSON `{"error"}`)
 * with HTTP 400, as the example server answered.
 */
export function refusalOf(req: ProxyRequest, op: RequestOperation, why: string): ProxyResponse {
  if (op.api === 'PORTAL') {
    if (!JSON_OPERATIONS.has(op.operation)) return refusal(why);
    const body = { success: false, res: false, messages: [{ description: why }] };
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify(body), 'utf8'),
    };
  }
  const code = op.operation === 'list' ? '1003' : '1011';
  const json = /json/i.test(String(req.headers.accept ?? ''));
  const body = json
    ? JSON.stringify({ error: { '@code': code, '@description': why, '@row': '-1', '@field': '' } })
    : `<?xml version="1.0" encoding="UTF-8"?>\n<error code="${code}" description="${why}" row="-1" field=""/>\n`;
  return {
    status: 400,
    headers: { 'content-type': json ? 'application/json; charset=utf-8' : 'application/xml; charset=utf-8' },
    body: Buffer.from(body, 'utf8'),
  };
}
