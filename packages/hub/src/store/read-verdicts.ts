/**
 * The matrix's read of many runs' verdicts (issue 25 "Performance": 50 runs x 417 rules within the pages' aim): a row
 * per rule with a cell per run, from one query that answers a row per run.
 */
import { type Kysely, sql } from 'kysely';
import type { Dialect } from './open-store.js';
import type { Database } from './schema.js';

/** One rule's verdicts in some runs (the matrix). */
export interface RuleVerdicts {
  readonly rule: string;
  readonly area: string;
  /** One per run asked for, in the order asked; null where that run does not hold the rule. */
  readonly verdicts: readonly (string | null)[];
}

/** A run's rule ids and its verdicts as the database joins them: words joined by commas. */
const RULE_IDS = /^[A-Z0-9_.]+(?:,[A-Z0-9_.]+)*$/;
const VERDICT_WORDS = /^[A-Z]+(?:,[A-Z]+)*$/;

/**
 * Verdicts of `runIds` by rule, for the matrix. Read run by run: the database joins each run's rule ids into one
 * text and its verdicts, in the same order, into another, reading the index (run_id, rule_id, verdict, area;
 * migration 0007) in key order with no sort, so 50 runs x 417 rules come back as 50 rows. Runs made over one rule
 * catalogue give the same text of rule ids, which is split and looked up once. A rule id matches the results
 * schema's `(REST|PORTAL).[A-Z0-9_]+.[A-Z0-9_]+` and a verdict is a word of its enum, so neither holds a comma; a
 * run whose texts are not of that shape anyway is read row by row. A rule's area: {@link areasOf}.
 */
export async function readVerdicts(
  db: Kysely<Database>,
  dialect: Dialect,
  runIds: readonly number[],
  rowByRow: (runId: number) => Promise<readonly { rule: string; verdict: string }[]>,
): Promise<RuleVerdicts[]> {
  if (runIds.length === 0) return [];
  const ids = [...new Set(runIds)];
  const column = new Map(runIds.map((id, i) => [id, i] as const).reverse());
  // the two aggregates of a group step over its rows in one pass, in one order: the i-th rule id and the i-th
  // verdict are one row's (an ORDER BY in each would make each sort, four times the query on SQLite)
  const join = (c: 'rule_id' | 'verdict') =>
    dialect === 'postgres'
      ? sql<string>`string_agg(${sql.ref(c)}, ',')`
      : sql<string>`group_concat(${sql.ref(c)}, ',')`;
  const runs = await db
    .selectFrom('rule_verdicts')
    .select(['run_id', join('rule_id').as('rules'), join('verdict').as('verdicts')])
    .where('run_id', 'in', ids)
    .groupBy('run_id')
    .execute();
  // a row per rule, a cell per run asked for
  const byRule = new Map<string, (string | null)[]>();
  const rowOf = (rule: string) => {
    let row = byRule.get(rule);
    if (!row) {
      row = new Array<string | null>(runIds.length).fill(null);
      byRule.set(rule, row);
    }
    return row;
  };
  // each distinct text of rule ids, split once into the rows its positions fill
  const catalogues = new Map<string, (string | null)[][] | undefined>();
  for (const r of runs) {
    const runId = Number(r.run_id);
    const at = column.get(runId) ?? 0;
    let rows = catalogues.get(r.rules);
    if (!catalogues.has(r.rules)) {
      rows = RULE_IDS.test(r.rules) ? r.rules.split(',').map(rowOf) : undefined;
      catalogues.set(r.rules, rows);
    }
    const verdicts = r.verdicts.split(',');
    if (rows === undefined || !VERDICT_WORDS.test(r.verdicts) || verdicts.length !== rows.length) {
      for (const v of await rowByRow(runId)) rowOf(v.rule)[at] = v.verdict;
      continue;
    }
    for (let i = 0; i < rows.length; i++) (rows[i] as (string | null)[])[at] = verdicts[i] as string;
  }
  // a run asked for twice (a column repeated) shows the same verdicts in both places
  runIds.forEach((id, i) => {
    const first = column.get(id);
    if (first !== undefined && first !== i) for (const row of byRule.values()) row[i] = row[first] ?? null;
  });
  const area = await areasOf(db, ids, byRule);
  return [...byRule].map(([rule, verdicts]) => ({ rule, area: area.get(rule) ?? '', verdicts }));
}

/**
 * The area of each rule of `rules`: as the first of `runIds` gives it (one run holds nearly every rule), else,
 * for a rule that run lacks, the least of the areas the others give it.
 */
async function areasOf(
  db: Kysely<Database>,
  runIds: readonly number[],
  rules: ReadonlyMap<string, unknown>,
): Promise<Map<string, string>> {
  const [first, ...others] = runIds;
  const area = new Map<string, string>();
  if (first === undefined) return area;
  const rows = await db.selectFrom('rule_verdicts').select(['rule_id', 'area']).where('run_id', '=', first).execute();
  for (const r of rows) area.set(r.rule_id, r.area);
  const missing = [...rules.keys()].filter((r) => !area.has(r));
  if (missing.length > 0 && others.length > 0) {
    const rest = await db
      .selectFrom('rule_verdicts')
      .select(['rule_id', (eb) => eb.fn.min('area').as('area')])
      .where('run_id', 'in', others)
      .where('rule_id', 'in', missing)
      .groupBy('rule_id')
      .execute();
    for (const r of rest) area.set(r.rule_id, r.area);
  }
  return area;
}
