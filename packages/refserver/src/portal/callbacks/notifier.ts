import type { App } from '../../app-types.js';
import type { RecordChange } from '../../store/record-store.js';
import type { ResolvedPortalOptions } from '../portal-options.js';
import { ensurePortalTables } from '../portal-tables.js';

/**
 * The JSON notice POSTed to a registered callback for each committed record change of either API
 * (portal-action-api.md §6: "Callback payload and trigger conditions: not shown"; README "registerapi").
 */
export interface CallbackNotice {
  /** The UUID the callback was registered with. */
  readonly uuid: string;
  readonly event: 'insert' | 'update' | 'delete';
  readonly register: string;
  readonly company: number;
  /** The record key, parts joined by `/` (the `@url` key of record-rest-api.md §2). */
  readonly id: string;
  /** The sequence number the change took (`updates_after` / `deletes_after`). */
  readonly sequence: number;
}

interface Callback {
  readonly uuid: string;
  readonly company: number;
  readonly url: string;
  readonly queue: CallbackNotice[];
  sending: boolean;
}

/**
 * Delivers notices to the callbacks registered with `registerapi`. Listening to the store's commits means
 * writes of the REST API and of the portal are both seen. Delivery never blocks the request that made the
 * change: notices wait in a bounded queue per callback (the oldest are dropped and logged when it is full)
 * and are sent in order, one at a time, each retried with doubling backoff up to `callbackAttempts` tries.
 */
export class CallbackNotifier {
  readonly #app: App;
  readonly #options: ResolvedPortalOptions;
  readonly #callbacks = new Map<string, Callback>();

  constructor(app: App, options: ResolvedPortalOptions) {
    this.#app = app;
    this.#options = options;
    ensurePortalTables(app.store.db);
    const rows = app.store.db.prepare('SELECT uuid, company, url FROM portal_callbacks ORDER BY rowid').all() as {
      uuid: string;
      company: number;
      url: string;
    }[];
    for (const r of rows) this.#callbacks.set(r.uuid, { ...r, queue: [], sending: false });
    app.store.onCommit((changes) => this.#enqueue(changes));
  }

  /** Registers (or re-points) a callback; stored, so it survives a restart on a database file. */
  register(uuid: string, company: number, url: string, created: string): void {
    this.#app.store.db
      .prepare('INSERT OR REPLACE INTO portal_callbacks (uuid, company, url, created) VALUES (?, ?, ?, ?)')
      .run(uuid, company, url, created);
    const old = this.#callbacks.get(uuid);
    this.#callbacks.set(uuid, { uuid, company, url, queue: old?.queue ?? [], sending: old?.sending ?? false });
  }

  #enqueue(changes: readonly RecordChange[]): void {
    if (this.#callbacks.size === 0) return;
    for (const cb of this.#callbacks.values()) {
      for (const c of changes) {
        if (c.company !== cb.company) continue;
        cb.queue.push({
          uuid: cb.uuid,
          event: c.kind,
          register: c.register,
          company: c.company,
          id: c.keyParts.join('/'),
          sequence: c.seq,
        });
      }
      const over = cb.queue.length - this.#options.callbackQueueMax;
      if (over > 0) {
        cb.queue.splice(0, over);
        this.#app.log(`erpcert refserver: callback ${cb.uuid}: queue full, dropped the ${over} oldest notice(s)`);
      }
      if (!cb.sending && cb.queue.length > 0) {
        cb.sending = true;
        setImmediate(() => void this.#drain(cb));
      }
    }
  }

  async #drain(cb: Callback): Promise<void> {
    try {
      while (cb.queue.length > 0 && this.#app.store.db.open) {
        const notice = cb.queue.shift()!;
        await this.#deliver(cb, notice);
      }
    } finally {
      cb.sending = false;
    }
  }

  async #deliver(cb: Callback, notice: CallbackNotice): Promise<void> {
    const { callbackAttempts, callbackBackoffMs, callbackTimeoutMs } = this.#options;
    const body = JSON.stringify(notice);
    for (let attempt = 1; attempt <= callbackAttempts; attempt++) {
      let why: string;
      try {
        const res = await fetch(cb.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'erpcert-refserver' },
          body,
          signal: AbortSignal.timeout(callbackTimeoutMs),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
        why = `HTTP ${res.status}`;
      } catch (err) {
        why = (err as Error)?.message ?? String(err);
      }
      if (attempt === callbackAttempts || !this.#app.store.db.open) {
        this.#app.log(
          `erpcert refserver: callback ${cb.uuid}: gave up on a notice after ${attempt} attempt(s): ${why}`,
        );
        return;
      }
      await new Promise<void>((resolve) => setTimeout(resolve, callbackBackoffMs * 2 ** (attempt - 1)).unref());
    }
  }
}
