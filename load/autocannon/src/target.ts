import {
  basicHeader,
  createClient,
  type ErpClient,
  encodeQuery,
  pinnedConnectGuard,
  type QueryPair,
} from '@erpcert/client';
import { LoadConfigError, type LoadRunOptions } from './options.js';

/** Everything a scenario needs to build raw requests for autocannon against one target. */
export interface TargetRequests {
  /** `http://host:port`: what autocannon connects to. */
  readonly origin: string;
  /** Headers every request carries (Basic credentials when given). */
  readonly headers: Readonly<Record<string, string>>;
  /** `/prefix/api/1/<register>?compcode=N&...` (or `/api/N/...` with the company in the path). */
  restPath(register: string, query?: readonly QueryPair[]): string;
  /** `/prefix/WebErpAPI.hal?...&compno=N&usercode=U&portalcc=C` (the global parameters that are set). */
  portalPath(query: readonly QueryPair[]): string;
  /** A client for the setup requests (session, ids), pinned as the load is (`connectAddress`); close it when done. */
  client(useSession?: boolean): ErpClient;
}

/** Checks the target URL and builds its request helpers. */
export function targetRequests(o: LoadRunOptions): TargetRequests {
  let url: URL;
  try {
    url = new URL(o.target);
  } catch {
    throw new LoadConfigError(`target must be a URL such as http://127.0.0.1:8080, got ${JSON.stringify(o.target)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new LoadConfigError(`target must be an http:// or https:// URL, got ${url.protocol}`);
  const prefix = url.pathname.replace(/\/+$/, '');
  const companyIn = o.companyIn ?? 'query';
  const compcode = o.compcode === undefined ? undefined : String(o.compcode);
  const auth = o.user !== undefined && o.password !== undefined ? { user: o.user, password: o.password } : undefined;
  const headers: Record<string, string> = { 'accept-charset': 'utf-8' };
  if (auth) headers.authorization = basicHeader(auth);
  const withQuery = (path: string, pairs: readonly QueryPair[]) => {
    const q = encodeQuery(pairs);
    return q ? `${path}?${q}` : path;
  };
  return {
    origin: url.origin,
    headers,
    restPath(register, query = []) {
      // record-rest-api.md §4: /api/1/<register>; the company's place is "not shown" (rule 8), DESIGN.md
      const segment = companyIn === 'path' && compcode !== undefined ? compcode : '1';
      const company: QueryPair[] = companyIn === 'query' && compcode !== undefined ? [['compcode', compcode]] : [];
      return withQuery(`${prefix}/api/${segment}/${register}`, [...company, ...query]);
    },
    portalPath(query) {
      // portal-action-api.md §1 "Global parameters": compno, usercode, portalcc
      const globals: QueryPair[] = [];
      if (o.compno !== undefined) globals.push(['compno', o.compno]);
      if (o.usercode !== undefined) globals.push(['usercode', o.usercode]);
      if (o.portalcc !== undefined) globals.push(['portalcc', o.portalcc]);
      return withQuery(`${prefix}${o.portalPath ?? '/WebErpAPI.hal'}`, [...query, ...globals]);
    },
    client(useSession = false) {
      return createClient({
        baseUrl: o.target,
        ...(auth ? { auth } : {}),
        useSession,
        companyIn,
        ...(o.compcode !== undefined ? { compcode: o.compcode } : {}),
        ...(o.compno !== undefined ? { compno: o.compno } : {}),
        ...(o.usercode !== undefined ? { usercode: o.usercode } : {}),
        ...(o.portalcc !== undefined ? { portalcc: o.portalcc } : {}),
        ...(o.portalPath !== undefined ? { portalPath: o.portalPath } : {}),
        timeoutMs: o.timeoutMs ?? 10_000,
        ...(o.connectAddress !== undefined ? { connectGuard: pinnedConnectGuard(url.hostname, o.connectAddress) } : {}),
      });
    },
  };
}
