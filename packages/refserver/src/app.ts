import type { App, AppOptions } from './app-types.js';
import { parseAllowList } from './auth/allow-list.js';
import { type AuthConfig, authenticate } from './auth/authenticate.js';
import { ExpiringMap } from './auth/expiring-map.js';
import { authorizeEndpoint, OAUTH_PATHS, type PendingCode, tokenEndpoint } from './auth/oauth.js';
import { localDate } from './business/draft.js';
import { ErpError, ErrorCode } from './errors.js';
import { resolveCompany } from './http/company.js';
import { errorResponse, internalError } from './http/respond.js';
import type { AppRequest, AppResponse, RouteHandler, RouteRequest } from './http/types.js';
import { stderrLog } from './log.js';
import { builtinModules } from './modules.js';
import { restHandler } from './rest/rest-routes.js';
import { seedIfNew } from './seed/seed-store.js';
import { RecordStore } from './store/record-store.js';

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

function normalizeHeaders(h: AppRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) {
    if (v === undefined) continue;
    const key = k.toLowerCase();
    const val = Array.isArray(v) ? v.join(key === 'cookie' ? '; ' : ', ') : v;
    out[key] = out[key] === undefined ? val : `${out[key]}${key === 'cookie' ? '; ' : ', '}${val}`;
  }
  return out;
}

/** Latin-1 in quirks mode unless the request mentions UTF-8 in Content-Type, Accept or Accept-Charset. */
function charsetOf(headers: Record<string, string>, quirks: boolean): 'utf-8' | 'latin1' {
  if (!quirks) return 'utf-8';
  const says = /charset\s*=\s*"?utf-?8/i;
  if (says.test(headers['content-type'] ?? '') || says.test(headers.accept ?? '')) return 'utf-8';
  return /utf-?8/i.test(headers['accept-charset'] ?? '') ? 'utf-8' : 'latin1';
}

export type { App, AppOptions } from './app-types.js';

/** Builds the app: opens (or takes) the store, seeds a new database, mounts the routes and the modules. */
export function createApp(options: AppOptions = {}): App {
  const modules = options.modules ?? builtinModules;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? stderrLog;
  const store =
    options.store ??
    RecordStore.open({
      ...(options.db ? { file: options.db } : {}),
      ...(options.sync ? { sync: options.sync } : {}),
      registers: modules.flatMap((m) => m.registers ?? []),
      fields: modules.flatMap((m) => m.fields ?? []),
    });
  const clock = () => now().getTime();
  const auth: AuthConfig = {
    user: options.user ?? 'erpcert',
    password: options.password ?? 'erpcert',
    sessions: new ExpiringMap<string>({
      ttlMs: (options.sessionTtl ?? 1800) * 1000,
      max: 10_000,
      sliding: true,
      now: clock,
    }),
    tokens: new ExpiringMap<string>({
      ttlMs: (options.tokenTtl ?? 3600) * 1000,
      max: 10_000,
      sliding: false,
      now: clock,
    }),
  };
  const oauth = {
    clientId: options.oauthClientId ?? 'erpcert-client',
    clientSecret: options.oauthClientSecret ?? 'erpcert-secret',
    tokens: auth.tokens,
    codes: new ExpiringMap<PendingCode>({ ttlMs: 60_000, max: 1000, sliding: false, now: clock }),
    // refresh tokens outlive access tokens: 30 days, or 30 times the access token's lifetime if that is longer
    refreshTokens: new ExpiringMap<string>({
      ttlMs: Math.max(30 * 86_400, 30 * (options.tokenTtl ?? 3600)) * 1000,
      max: 10_000,
      sliding: false,
      now: clock,
    }),
  };
  const allowList = options.allow !== undefined ? parseAllowList(options.allow) : undefined;
  const exact = new Map<string, RouteHandler<App>>();
  const prefixes: [string, RouteHandler<App>][] = [];

  const app: App = {
    store,
    systemVersion: options.systemVersion ?? '1.0',
    quirks: options.quirks ?? false,
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    auth,
    oauthClientId: oauth.clientId,
    ...(allowList ? { allowList } : {}),
    mount(path, handler, opts = {}) {
      if (opts.prefix) {
        prefixes.push([path, handler]);
        prefixes.sort((a, b) => b[0].length - a[0].length);
      } else exact.set(path, handler);
    },
    authenticate(req, opts = {}) {
      return authenticate(auth, req.headers, { allowBearer: opts.allowBearer ?? false });
    },
    company(req, pathSegment, parameter = 'compcode') {
      return resolveCompany(store, pathSegment, req.query.getAll(parameter), parameter);
    },
    writeContext(company) {
      return { store, company, today: localDate(now()) };
    },
    now,
    log,
    close() {
      store.close();
    },
    reject(rawHeaders, err) {
      const headers = normalizeHeaders(rawHeaders);
      const format = /application\/json/i.test(headers.accept ?? '') ? 'json' : 'xml';
      const res = errorResponse({ format, charset: charsetOf(headers, app.quirks) }, err);
      res.headers.Sequence = String(store.sequence);
      res.headers['Content-Length'] = String(res.body.length);
      return res;
    },
    async handle(input) {
      const headers = normalizeHeaders(input.headers);
      const format = /application\/json/i.test(headers.accept ?? '') ? 'json' : 'xml';
      const charset = charsetOf(headers, app.quirks);
      const body =
        input.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body);
      const method = input.method.toUpperCase();
      let res: AppResponse;
      const bare = { format, charset } as const;
      try {
        const rawPath = input.url.split('?')[0] ?? '/';
        let url: URL;
        try {
          url = new URL(input.url.startsWith('/') ? input.url : `/${input.url}`, 'http://erpcert.invalid');
        } catch {
          throw new ErpError(400, ErrorCode.badParameter, 'the request URL cannot be parsed');
        }
        const req: RouteRequest = {
          method,
          url,
          rawPath,
          query: url.searchParams,
          headers,
          body,
          remoteAddress: input.remoteAddress ?? '127.0.0.1',
          format,
          charset,
        };
        if (allowList && !allowList.allows(req.remoteAddress))
          throw new ErpError(403, ErrorCode.forbidden, `client address ${req.remoteAddress} is not on the allow-list`);
        if (body.length > app.maxBody)
          throw new ErpError(413, ErrorCode.bodyTooLarge, `the request body is over ${app.maxBody} bytes`);
        let handler = exact.get(rawPath);
        if (!handler) handler = prefixes.find(([p]) => rawPath === p || rawPath.startsWith(`${p}/`))?.[1];
        if (!handler)
          throw new ErpError(404, ErrorCode.notFound, `no such path ${rawPath}; the record API is under /api/1/`);
        res = await handler(req, app);
      } catch (err) {
        if (err instanceof ErpError) res = errorResponse(bare, err);
        else {
          log(`erpcert refserver: internal error on ${method} ${input.url}: ${(err as Error)?.stack ?? String(err)}`);
          res = internalError(bare);
        }
      }
      if (res.headers.Sequence === undefined) res.headers.Sequence = String(store.sequence);
      // RFC 9110 §8.6: no Content-Length on 204 and 304
      if (res.status !== 204 && res.status !== 304) res.headers['Content-Length'] = String(res.body.length);
      if (method === 'HEAD') res.body = Buffer.alloc(0);
      return res;
    },
  };

  app.mount('/api', restHandler, { prefix: true });
  app.mount(OAUTH_PATHS[0], (req) => authorizeEndpoint(oauth, req));
  app.mount(OAUTH_PATHS[1], (req) => tokenEndpoint(oauth, req));
  seedIfNew(store, options.seed ?? 0, modules, app);
  for (const m of modules) m.setup?.(app);
  return app;
}
