/**
 * The parsed results.json of a stored run. A run's files never change (they are content-addressed), so parsed
 * documents are kept in a small cache keyed by the run's digest.
 */
import type { LoadRunDocument, ResultsDocument } from '@erpcert/runs';
import type { Context } from 'hono';
import { allow } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import type { RunSummary } from '../store/run-summary.js';
import { ApiError } from './api-error.js';

export type RunDocument =
  | { readonly kind: 'conformance'; readonly doc: ResultsDocument }
  | { readonly kind: 'load'; readonly doc: LoadRunDocument };

const CACHE_SIZE = 64;

export class RunDocuments {
  private readonly cache = new Map<string, RunDocument>();

  constructor(private readonly store: HubStore) {}

  /** The run or a 404 (also when it belongs to an organisation the request's actor may not read). */
  async run(id: number, c: Context): Promise<RunSummary> {
    const run = await this.store.run(id);
    if (!run) throw new ApiError(404, `there is no run ${id}`);
    allow(c, 'read', run.organisationId, `run ${id}`);
    return run;
  }

  async document(run: RunSummary): Promise<RunDocument> {
    const hit = this.cache.get(run.digest);
    if (hit) {
      this.cache.delete(run.digest);
      this.cache.set(run.digest, hit);
      return hit;
    }
    const bytes = await this.store.readFile(run.id, 'results.json');
    if (!bytes) throw new Error(`run ${run.id} has no results.json in the store`);
    const doc = JSON.parse(bytes.toString('utf8'));
    const parsed: RunDocument = run.kind === 'conformance' ? { kind: 'conformance', doc } : { kind: 'load', doc };
    this.cache.set(run.digest, parsed);
    if (this.cache.size > CACHE_SIZE) {
      const [oldest] = this.cache.keys();
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    return parsed;
  }
}
