/**
 * p95 per scenario per load run (issue 25: "each scenario's throughput and p95 over builds"). erpcert's load results
 * carry `latencyMs.p95` since they measure it; a run of an older erpcert has none, so the column is nullable and
 * null means "not recorded" (never 0). Nothing to backfill: the load results schema of the hubs before this
 * migration refused a `p95` (its latency object allowed no other property), so no stored run holds one.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('load_figures').addColumn('p95_ms', 'double precision').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('load_figures').dropColumn('p95_ms').execute();
}
