/**
 * The freeze of a certified run, as the store keeps it: every write to a run asks {@link assertNotFrozen} first and
 * is refused with a {@link FrozenRunError} (answered 409 with its message). The database's triggers (migration
 * 0004) stand behind it: a write that slips past the store fails with the same message, turned into the same error
 * by {@link frozenOrRethrow}.
 */
import type { Kysely } from 'kysely';
import { FROZEN_MESSAGE } from '../store/migrations/0004-certification.js';
import type { Database } from '../store/schema.js';

export { FROZEN_MESSAGE };

export class FrozenRunError extends Error {
  override readonly name = 'FrozenRunError';
  readonly status = 409;
  constructor(
    readonly runId: number,
    message = `run ${runId}: ${FROZEN_MESSAGE}`,
  ) {
    super(message);
  }
}

/** When the run was certified, or undefined when it is not frozen. */
export async function frozenAt(db: Kysely<Database>, runId: number): Promise<string | undefined> {
  const row = await db.selectFrom('frozen_runs').select('certified_at').where('run_id', '=', runId).executeTakeFirst();
  return row?.certified_at;
}

export async function assertNotFrozen(db: Kysely<Database>, runId: number): Promise<void> {
  if ((await frozenAt(db, runId)) !== undefined) throw new FrozenRunError(runId);
}

/**
 * Refuses to delete a run that a certified run reruns: deleting it would clear the certified run's `parent_run_id`,
 * a write to a frozen run. The answer names the certified rerun, not the run asked for (which is not frozen).
 */
export async function assertNoCertifiedRerun(db: Kysely<Database>, runId: number): Promise<void> {
  const child = await db
    .selectFrom('runs')
    .innerJoin('frozen_runs', 'frozen_runs.run_id', 'runs.id')
    .select('runs.id')
    .where('runs.parent_run_id', '=', runId)
    .orderBy('runs.id')
    .executeTakeFirst();
  if (child)
    throw new FrozenRunError(
      runId,
      `run ${runId} has a certified rerun #${child.id}: it cannot be deleted, because a certified run is frozen, the run it reruns included`,
    );
}

/** Whether a database error is a freeze trigger's refusal. */
export function isFrozenTrigger(err: unknown): boolean {
  return err instanceof Error && err.message.includes(FROZEN_MESSAGE);
}

/** Rethrows a trigger's refusal as a {@link FrozenRunError}, anything else as it is. */
export function frozenOrRethrow(err: unknown, runId: number): never {
  if (isFrozenTrigger(err)) throw new FrozenRunError(runId);
  throw err;
}
