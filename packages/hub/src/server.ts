/**
 * Starts the hub: opens (and migrates) the store, serves the API with @hono/node-server, and says where.
 * `erpcert hub` calls this; tests call it with port 0.
 */
import type { AddressInfo } from 'node:net';
import { parseTargetGuard, type Resolver } from '@erpcert/contract';
import { serve } from '@hono/node-server';
import { createHubApp, type HubAppOptions, liveParts } from './api/hub-app.js';
import { type AuthOptions, type HubAuth, hubAuth } from './auth/hub-auth.js';
import { DEFAULT_DATABASE } from './constants.js';
import type { IngestLimits } from './ingest/limits.js';
import type { LoadScenarioChoice } from './live/live-actions.js';
import { type LiveRunExecutor, WorkerPool } from './live/worker-pool.js';
import { HubStore } from './store/hub-store.js';

export interface HubOptions {
  readonly host?: string;
  /** 0 for a free port. */
  readonly port?: number;
  /** A SQLite file path or a postgres:// URL. */
  readonly database?: string;
  /** Accounts: the clock, the scrypt cost, session and throttle policies, a trusted TLS proxy. */
  readonly auth?: AuthOptions;
  readonly limits?: IngestLimits;
  readonly log?: (line: string) => void;
  /** ERPCERT_HUB_SECRET: the key of saved targets' credentials. */
  readonly secret?: string;
  /** Executes live runs (the CLI's spawns the erpcert bin); without one, runs stay queued for another hub. */
  readonly executor?: LiveRunExecutor;
  /**
   * The load scenarios the executor runs (`erpcert hub` hands `erpcert load`'s, name and description): the saved
   * target page offers them, and a start naming another is refused. @defaultValue unknown: any well-formed name
   */
  readonly loadScenarios?: readonly LoadScenarioChoice[];
  /** Live runs at once. @defaultValue half the cores, at least 1 */
  readonly workers?: number;
  /** OpenID Connect sign-in (settings checked by oidcSettings), and what a verified sign-in does. */
  readonly oidc?: HubAppOptions['oidc'];
  /**
   * `--allow-targets`: the loopback and private CIDR blocks saved targets may resolve to (link-local never).
   * @defaultValue none: only public addresses, and the embedded reference server by name
   */
  readonly allowTargets?: string;
  /** Test seam: how target host names are resolved. @defaultValue the system resolver */
  readonly resolver?: Resolver;
  /** Test seams: queue polling, heartbeat and staleness, in milliseconds. */
  readonly timing?: {
    readonly pollMs?: number;
    readonly heartbeatMs?: number;
    readonly staleMs?: number;
    readonly eventsPollMs?: number;
  };
}

export interface RunningHub {
  readonly url: string;
  readonly store: HubStore;
  /** Accounts, sessions, tokens, audit log (erpcert hub --init-admin uses it). */
  readonly auth: HubAuth;
  /** The worker pool, when the hub was given an executor. */
  readonly pool: WorkerPool | undefined;
  close(): Promise<void>;
}

export async function startHub(o: HubOptions = {}): Promise<RunningHub> {
  const store = await HubStore.open(o.database ?? DEFAULT_DATABASE, { log: o.log });
  let live: ReturnType<typeof liveParts>;
  try {
    live = liveParts(store, o.secret, parseTargetGuard(o.allowTargets, o.resolver));
  } catch (err) {
    await store.close();
    throw err;
  }
  const auth = hubAuth(store.db, o.auth);
  const pool = o.executor
    ? new WorkerPool({
        store,
        ...live,
        executor: o.executor,
        size: o.workers,
        limits: o.limits,
        log: o.log,
        ...o.timing,
      })
    : undefined;
  const app = createHubApp({
    store,
    auth,
    limits: o.limits,
    log: o.log,
    live: {
      ...live,
      queued: () => pool?.wake(),
      eventsPollMs: o.timing?.eventsPollMs,
      ...(o.loadScenarios ? { loadScenarios: o.loadScenarios } : {}),
    },
    oidc: o.oidc,
  });
  const host = o.host ?? '127.0.0.1';
  try {
    const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: host, port: o.port ?? 8480 }, () => resolve(s));
      s.once('error', reject);
    });
    const { port } = server.address() as AddressInfo;
    await pool?.start();
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return {
      url: `http://${shownHost}:${port}`,
      store,
      auth,
      pool,
      close: async () => {
        await pool?.stop();
        (server as import('node:http').Server).closeAllConnections?.();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
