/**
 * Looking up, creating and repairing the fixture set (fixture-scheme.ts) on the target, once per run:
 * - a run reads the set (one `sort=Code&range=<prefix>:` read, then `filter.Code` for any code it did not see,
 *   since no collation is assumed), creates only the missing records and puts back fields a person changed;
 * - parallel workers of one run take turns through a lock file in the run folder (exclusive create): the one
 *   that holds it creates, the others wait and then look the set up again; a second run at the same time is
 *   kept from making a record twice by the key itself (the set's codes are keys, and a create is only sent for
 *   a code the read just did not find; a refused create of one code is read back, not retried);
 * - in the readonly profile nothing is created or repaired: the set is only looked up;
 * - fixture records never go into the ledger, so the cleanup leaves them; each worker appends what it found and
 *   did to `fixtures.jsonl` in the run folder, which the report lists apart from the run's residue.
 */
import { appendFileSync } from 'node:fs';
import { probe } from './data.js';
import { type FixtureAccount, fixtureFiles } from './fixture-accounts.js';
import { type FixtureSetSpec, fixtureCodes, fixtureFields } from './fixture-scheme.js';
import { fieldValue } from './records.js';
import type { RuleContext } from './rule-test.js';
import { withLock } from './run-lock.js';

type Found = Map<string, Readonly<Record<string, unknown>>>;

/** The records of the set on the target, by code. */
async function lookUp(ctx: RuleContext, prefix: string, set: FixtureSetSpec, thorough = false): Promise<Found> {
  const codes = fixtureCodes(prefix, set);
  const wanted = new Set(codes);
  const fields = [...new Set([set.keyField, ...Object.keys(fixtureFields(prefix, set, 1)), 'Terminated'])].join(',');
  const found: Found = new Map();
  const range = await probe(ctx, set.register, {
    sort: set.keyField,
    range: `${prefix}${set.code}:`,
    fields,
    limit: set.count * 2,
  });
  if (range.ok)
    for (const r of range.records) {
      const code = fieldValue(r, set.keyField);
      if (wanted.has(code)) found.set(code, r);
    }
  // a collation that sorts the set apart, or a target without range: read what was not seen one by one
  if (!range.ok || thorough || (found.size > 0 && found.size < codes.length))
    for (const code of codes) {
      if (found.has(code)) continue;
      const one = await probe(ctx, set.register, { [`filter.${set.keyField}`]: code, fields });
      const r = one.ok ? one.records.find((x) => fieldValue(x, set.keyField) === code) : undefined;
      if (r) found.set(code, r);
    }
  return found;
}

/** The fields of a found record that differ from the set's values (numbers compared as numbers). */
function changedFields(want: Record<string, string>, got: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(want)) {
    const now = fieldValue(got, field);
    const same = /^-?\d+(\.\d+)?$/.test(value) ? Number(now) === Number(value) && now.trim() !== '' : now === value;
    if (!same) out[field] = value;
  }
  if (fieldValue(got, 'Terminated') === '1') out.Terminated = '0';
  return out;
}

function refusal(err: unknown): string {
  return (err as Error).message.split('\n')[0] ?? String(err);
}

/** Creates the missing records: how many the target took, and why it refused any. */
async function createMissing(
  ctx: RuleContext,
  prefix: string,
  set: FixtureSetSpec,
  missing: readonly string[],
): Promise<{ created: number; why?: string }> {
  if (missing.length === 0) return { created: 0 };
  const codes = fixtureCodes(prefix, set);
  const records = missing.map((code) => fixtureFields(prefix, set, codes.indexOf(code) + 1));
  try {
    await ctx.client.rest.createJson(set.register as never, records, { format: 'json' });
    return { created: records.length };
  } catch (err) {
    if (records.length === 1) return { created: 0, why: refusal(err) };
    // one refused record (a code another run made meanwhile, or one the read missed) refuses the whole POST:
    // one by one, and the set is read back record by record afterwards
    let created = 0;
    let why: string | undefined;
    for (const r of records)
      try {
        await ctx.client.rest.createJson(set.register as never, [r], { format: 'json' });
        created++;
      } catch (e) {
        why = refusal(e);
      }
    return { created, ...(why !== undefined ? { why } : {}) };
  }
}

async function repair(ctx: RuleContext, prefix: string, set: FixtureSetSpec, found: Found): Promise<number> {
  let repaired = 0;
  const codes = fixtureCodes(prefix, set);
  for (const [i, code] of codes.entries()) {
    const got = found.get(code);
    if (!got) continue;
    const changed = changedFields(fixtureFields(prefix, set, i + 1), got);
    delete changed[set.keyField];
    if (Object.keys(changed).length === 0) continue;
    await ctx.client.rest.update(set.register as never, [code], changed as never);
    repaired++;
  }
  return repaired;
}

/**
 * Looks the set up and, outside readonly, creates the missing records and repairs changed ones under the run
 * folder's lock; appends the account. Not memoised: {@link fixtureSet} calls it once per worker.
 */
export async function ensureFixtureSet(ctx: RuleContext, set: FixtureSetSpec): Promise<FixtureAccount> {
  const prefix = ctx.target.fixturePrefix;
  const codes = fixtureCodes(prefix, set);
  const readonly = ctx.profile === 'readonly';
  const account = (found: Found, created: number, repaired: number, reason?: string): FixtureAccount => ({
    set: set.id,
    register: set.register,
    prefix,
    expected: codes.length,
    present: codes.filter((c) => found.has(c)).length,
    created,
    repaired,
    missing: codes.filter((c) => !found.has(c)),
    ...(reason !== undefined ? { reason } : {}),
    readonly,
    at: new Date().toISOString(),
  });
  let result: FixtureAccount;
  if (readonly) {
    result = account(await lookUp(ctx, prefix, set), 0, 0);
  } else {
    const { lock } = fixtureFiles(ctx.target.ledger);
    result = await withLock(lock, ctx.signal, async () => {
      const before = await lookUp(ctx, prefix, set);
      const missing = codes.filter((c) => !before.has(c));
      const { created, why } = await createMissing(ctx, prefix, set, missing);
      const repaired = await repair(ctx, prefix, set, before);
      const after = missing.length > 0 ? await lookUp(ctx, prefix, set, why !== undefined) : before;
      // a code the target refused because it holds it already is present, and not missing
      return account(after, created, repaired, after.size < codes.length ? why : undefined);
    });
  }
  appendFileSync(fixtureFiles(ctx.target.ledger).accounts, `${JSON.stringify(result)}\n`);
  return result;
}

const holderKey = Symbol.for('erpcert.conformance.fixtureSets');
type Holder = { [holderKey]?: Map<string, Promise<FixtureAccount>> };

/**
 * The fixture set on the target, made complete once per worker (readonly: only looked up). Resolves to what
 * was found and done; a set with missing records is for the caller to skip on, with {@link fixtureSkipReason}.
 */
export function fixtureSet(ctx: RuleContext, set: FixtureSetSpec): Promise<FixtureAccount> {
  const holder = globalThis as Holder;
  holder[holderKey] ??= new Map();
  const key = `${ctx.target.baseUrl}\u0000${ctx.target.fixturePrefix}\u0000${ctx.profile}\u0000${set.id}`;
  let p = holder[holderKey].get(key);
  if (!p) {
    p = ensureFixtureSet(ctx, set);
    holder[holderKey].set(key, p);
  }
  return p;
}

/** Why a test that needs the set cannot run, or undefined when the set is complete. */
export function fixtureSkipReason(a: FixtureAccount, set: FixtureSetSpec): string | undefined {
  if (a.missing.length === 0) return undefined;
  const what = `the fixture set ${a.prefix}${set.code}.. (${a.expected} ${set.register} records: ${set.purpose}) lacks ${a.missing.length} record(s) on the target`;
  if (a.readonly) return `readonly profile: ${what}; a full run creates it once, and later runs reuse it`;
  return `${what}: the target refused to create them${a.reason ? ` (${a.reason})` : ''}`;
}
