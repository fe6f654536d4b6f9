/**
 * The few requests the runner itself sends to the target: the reachability check before a run and the
 * ledger cleanup after it. Every request is bounded by a timeout (a dead target never hangs the CLI).
 * Paths follow the docs: REST `/api/1/<register>[/<key>]` (record-rest-api.md §4) with the company in the
 * query (`compcode`) or the path segment (DESIGN.md "What real deployments do"); portal
 * `<portal path>?action=...` (portal-action-api.md §4).
 */

import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { TARGET_REFUSED, type TargetGuard } from '@erpcert/contract';

/** Where the target is and how to authenticate. */
export interface TargetConnection {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly user?: string | undefined;
  readonly password?: string | undefined;
  /** Company code; absent: the target's default company. */
  readonly compcode?: number | undefined;
  /** `query`: `/api/1/...?compcode=N`; `path`: `/api/N/...`. */
  readonly companyIn: 'query' | 'path';
  /** Path of the portal action API, e.g. `/WebErpAPI.hal`. */
  readonly portalPath: string;
  /** Per-request timeout. @defaultValue 15000 */
  readonly timeoutMs?: number | undefined;
  /** The hub's SSRF guard (`conform --target-guard`): each connection's address is checked when it is made. */
  readonly guard?: Pick<TargetGuard, 'lookup' | 'refusal'> | undefined;
}

/** A request that got no usable answer: the target is down, refused the connection, or timed out. */
export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
}

/** A response as the runner needs it. */
export interface TargetResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** HTTP Basic header value (record-rest-api.md §5), or undefined without a user. */
export function basicAuth(conn: Pick<TargetConnection, 'user' | 'password'>): string | undefined {
  if (conn.user === undefined) return undefined;
  return `Basic ${Buffer.from(`${conn.user}:${conn.password ?? ''}`, 'utf8').toString('base64')}`;
}

/** `@url` key parts are URL-encoded and separated by `/` (record-rest-api.md §2 "Record", §4 rule 11). */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** The REST URL of a register or a record, with the company placed as configured. */
export function restUrl(conn: TargetConnection, register: string, key?: string, company = conn.compcode): URL {
  const segment = conn.companyIn === 'path' && company !== undefined ? String(company) : '1';
  const url = new URL(
    `${conn.url}/api/${segment}/${encodeURIComponent(register)}${key === undefined ? '' : `/${encodeKey(key)}`}`,
  );
  if (conn.companyIn === 'query' && company !== undefined) url.searchParams.set('compcode', String(company));
  return url;
}

/** The REST API root (the session start, record-rest-api.md §4 "API root"). */
export function restRootUrl(conn: TargetConnection): URL {
  const segment = conn.companyIn === 'path' && conn.compcode !== undefined ? String(conn.compcode) : '1';
  const url = new URL(`${conn.url}/api/${segment}/`);
  if (conn.companyIn === 'query' && conn.compcode !== undefined)
    url.searchParams.set('compcode', String(conn.compcode));
  return url;
}

/** A portal URL; `compno` is the portal's company parameter (portal-action-api.md §1 "Global parameters"). */
export function portalUrl(
  conn: TargetConnection,
  params: Readonly<Record<string, string>>,
  company = conn.compcode,
): URL {
  const path = conn.portalPath.startsWith('/') ? conn.portalPath : `/${conn.portalPath}`;
  const url = new URL(`${conn.url}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (company !== undefined) url.searchParams.set('compno', String(company));
  return url;
}

/** Sends one request with Basic auth and the connection's timeout. Throws TargetUnreachableError without a response. */
export async function send(
  conn: TargetConnection,
  method: string,
  url: URL,
  options: { body?: string; contentType?: string; accept?: string } = {},
): Promise<TargetResponse> {
  const headers: Record<string, string> = {};
  const auth = basicAuth(conn);
  if (auth) headers.authorization = auth;
  if (options.accept) headers.accept = options.accept;
  if (options.contentType) headers['content-type'] = options.contentType;
  const timeoutMs = conn.timeoutMs ?? 15_000;
  try {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // node:net connects to an address literal without a lookup: the guard judges it here
    const refused = conn.guard && isIP(host) ? conn.guard.refusal(host) : undefined;
    if (refused !== undefined) throw Object.assign(new Error(refused), { code: TARGET_REFUSED });
    return await request(method, url, headers, options.body, timeoutMs, conn.guard?.lookup);
  } catch (err) {
    const e = err as Error & { code?: string };
    const why =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : e.code === TARGET_REFUSED
          ? `refused by the hub's target guard: ${e.message}`
          : (e.code ?? e.message);
    throw new TargetUnreachableError(`${method} ${url.origin}${url.pathname}: ${why}`);
  }
}

/**
 * One request over node:http with the lenient parser, as the client's transport does: rough servers (DESIGN.md,
 * `erpcert serve --quirks`) answer with both Content-Length and Transfer-Encoding, which fetch refuses.
 */
function request(
  method: string,
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
  lookup: TargetGuard['lookup'] | undefined,
): Promise<TargetResponse> {
  const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method,
        headers: { ...headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
        insecureHTTPParser: true,
        agent: false,
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          clearTimeout(timer);
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
          resolve({ status: res.statusCode ?? 0, headers: out, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    const timer = setTimeout(() => {
      const err = Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' });
      req.destroy(err);
      reject(err);
    }, timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(payload);
  });
}

/** The outcome of {@link checkTarget}. */
export type TargetCheck =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly reason: 'unreachable' | 'refused' | 'unexpected'; readonly message: string };

/**
 * Checks before a run that the target answers the REST API root with the given credentials
 * (record-rest-api.md §4 "API root (session start)"): no answer -> unreachable; 401/403 -> refused;
 * any other non-2xx -> unexpected.
 */
export async function checkTarget(conn: TargetConnection): Promise<TargetCheck> {
  const url = restRootUrl(conn);
  let res: TargetResponse;
  try {
    res = await send(conn, 'GET', url);
  } catch (err) {
    return { ok: false, reason: 'unreachable', message: `cannot reach the target: ${(err as Error).message}` };
  }
  if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
  if (res.status === 401 || res.status === 403) {
    return {
      ok: false,
      reason: 'refused',
      message:
        `the target refused the credentials: GET ${url.pathname} answered ${res.status}` +
        (conn.user === undefined ? ' (no --user given)' : ` for user ${JSON.stringify(conn.user)}`),
    };
  }
  return {
    ok: false,
    reason: 'unexpected',
    message: `GET ${url.pathname} answered ${res.status}: is ${conn.url} the ERP's base URL?`,
  };
}
