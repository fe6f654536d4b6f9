/**
 * The hub's HTTP API under /api/v1 (described by specs/hub.openapi.yaml), as a Hono app: tested in-process with
 * `app.request(...)`, served by @hono/node-server (server.ts). The browser pages (src/pages) mount beside it.
 * Every request is authenticated first (an API token, else the session cookie, else nobody: src/auth); every
 * state-changing request that came by cookie passes the one CSRF check (auth/csrf.ts).
 */
import type { TargetGuard } from '@erpcert/contract';
import { Hono } from 'hono';
import { authRoutes } from '../auth/auth-routes.js';
import { csrfRefusal } from '../auth/csrf.js';
import { type AuthOptions, type HubAuth, hubAuth } from '../auth/hub-auth.js';
import type { OnSignedIn } from '../auth/oidc/oidc-identity.js';
import { oidcRoutes } from '../auth/oidc/oidc-routes.js';
import type { OidcSettings } from '../auth/oidc/oidc-settings.js';
import type { OidcTransactionStore } from '../auth/oidc/oidc-transactions.js';
import { oidcSignIn } from '../auth/oidc-sign-in.js';
import { authenticate } from '../auth/request-auth.js';
import { certificationApi } from '../certification/certification-api.js';
import { certificationPages } from '../certification/certification-page-routes.js';
import { type CertificationServices, certificationServices } from '../certification/services.js';
import { DEFAULT_LIMITS, type IngestLimits } from '../ingest/limits.js';
import { JobQueue } from '../live/job-queue.js';
import type { LoadScenarioChoice } from '../live/live-actions.js';
import { liveRoutes } from '../live/live-routes.js';
import { SavedTargets } from '../live/saved-targets.js';
import { SecretBox } from '../live/secret-box.js';
import { LIVE_SCRIPT, LIVE_SCRIPT_PATH } from '../pages/live-run.js';
import { pageRoutes } from '../pages/page-routes.js';
import type { HubStore } from '../store/hub-store.js';
import { ApiError, errorResponse } from './api-error.js';
import { compareRoutes } from './compare-routes.js';
import { keyRoutes } from './key-routes.js';
import { runRoutes } from './run-routes.js';
import { targetRoutes } from './target-routes.js';

export const API_BASE = '/api/v1';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface HubAppOptions {
  readonly store: HubStore;
  /** Accounts, sessions, tokens and the audit log; made from `authOptions` when not given. */
  readonly auth?: HubAuth;
  readonly authOptions?: AuthOptions;
  readonly limits?: IngestLimits;
  /** Where unexpected errors are written (never a token). */
  readonly log?: (line: string) => void;
  /** ERPCERT_HUB_SECRET: the key of saved credentials; without it, no password is saved. */
  readonly secret?: string;
  /** Live runs: the queue and saved targets (startHub shares them with its worker pool). */
  readonly live?: {
    readonly queue: JobQueue;
    readonly targets: SavedTargets;
    readonly queued?: () => void;
    readonly eventsPollMs?: number;
    /** The load scenarios a live run may name (the start form's choice; an unknown one is refused). */
    readonly loadScenarios?: readonly LoadScenarioChoice[];
  };
  /** OpenID Connect sign-in under /auth/oidc (auth/oidc/oidc-routes.ts); without it, those routes do not exist. */
  readonly oidc?: {
    readonly settings: OidcSettings;
    /**
     * What a verified sign-in does. @defaultValue the user made or updated with the identity's memberships, a
     * session opened (auth/oidc-sign-in.ts).
     */
    readonly onSignedIn?: OnSignedIn;
    readonly transactions?: OidcTransactionStore;
  };
  /**
   * Certification (issue 26): submissions, frozen runs, the public page and badges, share links. @defaultValue over
   * the store, with the accounts' audit log, proxy setting and clock
   */
  readonly certification?: CertificationServices;
}

/**
 * The queue and saved targets of a store, with the credentials' key from `secret` and the SSRF allow-list `guard`
 * (default: the defaults alone).
 */
export function liveParts(
  store: HubStore,
  secret: string | undefined,
  guard?: TargetGuard,
): { queue: JobQueue; targets: SavedTargets } {
  return {
    queue: new JobQueue(store.db, store.dialect),
    targets: new SavedTargets(store.db, secret ? new SecretBox(secret) : undefined, undefined, guard),
  };
}

export function createHubApp(o: HubAppOptions): Hono {
  const log = o.log ?? ((line: string) => console.error(line));
  const auth = o.auth ?? hubAuth(o.store.db, o.authOptions);
  const api = new Hono();
  // a request by cookie that changes something carries the session's CSRF token (header X-CSRF-Token)
  api.use('*', async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const refused = csrfRefusal(c);
      if (refused) throw new ApiError(403, refused);
    }
    await next();
  });
  const cert =
    o.certification ??
    certificationServices(o.store, { audit: auth.audit, trustProxy: auth.trustProxy, now: auth.now });
  api.route('/', authRoutes(auth));
  // certification's API (its own access table, certification/access.ts): in the API, so that its routes count in
  // the 405 answers' Allow
  api.route('/', certificationApi(cert));
  api.route('/', runRoutes(o.store, o.limits ?? DEFAULT_LIMITS, auth.audit, auth.trustProxy));
  api.route('/', targetRoutes(o.store));
  api.route('/', compareRoutes(o.store));
  api.route('/', keyRoutes(o.store, auth.audit, auth.trustProxy));
  const live = o.live ?? liveParts(o.store, o.secret);
  api.route('/', liveRoutes({ store: o.store, audit: auth.audit, trustProxy: auth.trustProxy, ...live }));
  const app = new Hono();
  app.use('*', authenticate(auth));
  // the live section's script: external, so that the pages' CSP needs no inline script
  app.get(LIVE_SCRIPT_PATH, (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(LIVE_SCRIPT);
  });
  app.route(API_BASE, api);
  // before the pages: their last route answers any other path with a 404 page
  if (o.oidc) app.route('/', oidcRoutes({ onSignedIn: oidcSignIn(auth), ...o.oidc, log }));
  // certification's pages, some public (the certified implementations, badges, share links): before the pages,
  // whose middleware sends everyone else to the sign-in page
  app.route('/', certificationPages(cert, { log }));
  app.route('/', pageRoutes({ store: o.store, auth, limits: o.limits, log, live, oidc: o.oidc !== undefined }));
  const routes = apiRoutes(api);
  app.notFound((c) => {
    const path = c.req.path;
    const allowed = path.startsWith(`${API_BASE}/`) ? routes.allowed(path.slice(API_BASE.length)) : [];
    // a resource of the API asked with a method it does not have: 405 with what it has (RFC 9110 15.5.6)
    if (allowed.length > 0)
      return errorResponse(
        new ApiError(405, `${path} answers ${allowed.join(', ')}, not ${c.req.method}`, { Allow: allowed.join(', ') }),
        c,
        log,
      );
    return errorResponse(new ApiError(404, `no such resource: ${c.req.method} ${path}`), c, log);
  });
  app.onError((err, c) => errorResponse(err, c, log));
  return app;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The API's routes as patterns: which methods a path has (Hono's `:name` and `:name{regex}` segments). */
function apiRoutes(api: Hono): { allowed(path: string): string[] } {
  const patterns = api.routes
    .filter((r) => METHODS.has(r.method.toUpperCase()))
    .map((r) => {
      const source = r.path
        .split('/')
        .map((seg) => {
          const param = /^:[A-Za-z_]+(?:\{(.+)\})?$/.exec(seg);
          if (param) return param[1] ? `(?:${param[1]})` : '[^/]+';
          return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('/');
      return { method: r.method.toUpperCase(), re: new RegExp(`^${source}/?$`) };
    });
  return {
    allowed: (path) => {
      const methods = new Set(patterns.filter((p) => p.re.test(path)).map((p) => p.method));
      if (methods.has('GET')) methods.add('HEAD');
      return [...methods].sort();
    },
  };
}
