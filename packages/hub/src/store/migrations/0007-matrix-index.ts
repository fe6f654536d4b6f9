/**
 * The matrix's index (issue 25 "Performance": 50 runs x 417 rules in p95 <= 150 ms). The matrix reads every verdict
 * of the runs it shows, run by run (`HubStore.verdictsOf`); the primary key (run_id, rule_id) finds the rows, but
 * each row's verdict was then read from the table. This index holds the verdict and area beside the key, so the
 * database answers from the index alone, in key order, without a sort. One index, the same on both databases.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('rule_verdicts_run_verdict')
    .on('rule_verdicts')
    .columns(['run_id', 'rule_id', 'verdict', 'area'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('rule_verdicts_run_verdict').execute();
}
