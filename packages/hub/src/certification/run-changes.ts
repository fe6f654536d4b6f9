/**
 * The writes that change a stored run after it was published: delete it, relabel it (build, label). Each is
 * refused for a certified run (frozen-runs.ts), and deleting, for a run that a certified run reruns (its
 * `parent_run_id` would change). The hub has no way to replace a run's files (they are its digest:
 * other files are another run); the triggers of migration 0004 refuse that write, and these, by any other path.
 */
import type { Kysely } from 'kysely';
import { StoreInputError } from '../store/hub-store.js';
import type { Database } from '../store/schema.js';
import { assertNoCertifiedRerun, assertNotFrozen, frozenOrRethrow, isFrozenTrigger } from './frozen-runs.js';

export interface Relabel {
  readonly build?: string | null;
  readonly label?: string | null;
}

const MAX_LABEL = 200;

function labelValue(v: unknown, name: string): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (typeof v !== 'string' || v.length > MAX_LABEL || /\p{Cc}/u.test(v))
    throw new StoreInputError(`${name} must be text of at most ${MAX_LABEL} characters without control characters`);
  return v === '' ? null : v;
}

export class RunChanges {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Deletes a run with its files list, verdicts and figures (not a certified run, nor a run that a certified run
   * reruns). false: no such run.
   */
  async deleteRun(runId: number): Promise<boolean> {
    await assertNotFrozen(this.db, runId);
    await assertNoCertifiedRerun(this.db, runId);
    try {
      return await this.db.transaction().execute(async (trx) => {
        // the jobs that made it or rerun it keep their history, without the run
        await trx.updateTable('jobs').set({ run_id: null }).where('run_id', '=', runId).execute();
        await trx.updateTable('jobs').set({ parent_run_id: null }).where('parent_run_id', '=', runId).execute();
        await trx.updateTable('runs').set({ parent_run_id: null }).where('parent_run_id', '=', runId).execute();
        const r = await trx.deleteFrom('runs').where('id', '=', runId).executeTakeFirst();
        return Number(r.numDeletedRows) > 0;
      });
    } catch (err) {
      // a rerun certified meanwhile: the trigger refused clearing its parent, say so
      if (isFrozenTrigger(err)) await assertNoCertifiedRerun(this.db, runId);
      frozenOrRethrow(err, runId);
    }
  }

  /** Sets a run's build and label (undefined: left as it is; null or "": cleared). false: no such run. */
  async relabelRun(runId: number, change: Relabel): Promise<boolean> {
    const build = labelValue(change.build, 'build');
    const label = labelValue(change.label, 'label');
    await assertNotFrozen(this.db, runId);
    const set: { build?: string | null; label?: string | null } = {};
    if (build !== undefined) set.build = build;
    if (label !== undefined) set.label = label;
    if (Object.keys(set).length === 0) throw new StoreInputError('say what to change: build, label');
    try {
      const r = await this.db.updateTable('runs').set(set).where('id', '=', runId).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    } catch (err) {
      frozenOrRethrow(err, runId);
    }
  }
}
