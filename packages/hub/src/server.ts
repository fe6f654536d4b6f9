/**
 * Starts the hub: opens (and migrates) the store, serves the API with @hono/node-server, and says where.
 * `erpcert hub` calls this; tests call it with port 0.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createHubApp } from './api/hub-app.js';
import { DEFAULT_DATABASE } from './constants.js';
import type { IngestLimits } from './ingest/limits.js';
import { HubStore } from './store/hub-store.js';

export interface HubOptions {
  readonly host?: string;
  /** 0 for a free port. */
  readonly port?: number;
  /** A SQLite file path or a postgres:// URL. */
  readonly database?: string;
  readonly token?: string;
  readonly limits?: IngestLimits;
  readonly log?: (line: string) => void;
}

export interface RunningHub {
  readonly url: string;
  readonly store: HubStore;
  close(): Promise<void>;
}

export async function startHub(o: HubOptions = {}): Promise<RunningHub> {
  const store = await HubStore.open(o.database ?? DEFAULT_DATABASE, { log: o.log });
  const app = createHubApp({ store, token: o.token, limits: o.limits, log: o.log });
  const host = o.host ?? '127.0.0.1';
  try {
    const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, hostname: host, port: o.port ?? 8480 }, () => resolve(s));
      s.once('error', reject);
    });
    const { port } = server.address() as AddressInfo;
    const shownHost = host.includes(':') ? `[${host}]` : host;
    return {
      url: `http://${shownHost}:${port}`,
      store,
      close: async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await store.close();
      },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
