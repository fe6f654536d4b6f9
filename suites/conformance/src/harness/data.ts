/**
 * Data helpers (DESIGN.md "Running against somebody's staging ERP"): discover what the target holds,
 * create tagged records and put each into the run's ledger before the test goes on, delete through the
 * portal, and make codes unique to the run.
 */
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import {
  type ErpClientError,
  isErpClientError,
  type RestCallOptions,
  type RestEnvelope,
  type RestFields,
  type RestRecord,
  type RestRowFields,
} from '@erpcert/client';
import { getRegister, registers as registerCatalogue } from '@erpcert/contract';
import fc from 'fast-check';
import { appendLedger } from '../runner/ledger.js';
import { accepted, isRefusalAnswer, refusedViolation } from './accepted.js';
import { assertJsonListBody, decodeViolation, jsonListBodyValid } from './assert/list-body.js';
import { observe } from './observations.js';
import { asRestQuery, fieldValue, type ListQuery, ledgerKey, rowsOf } from './records.js';
import type { RuleContext } from './rule-test.js';
import { runShared } from './run-shared.js';
import { isTargetFault } from './target-fault.js';
import { violated } from './violation.js';

let counter = 0;
/** Three base-36 characters chosen once per worker, so that parallel workers never make the same code. */
const workerPart = randomInt(36 ** 3)
  .toString(36)
  .toUpperCase()
  .padStart(3, '0');

/**
 * A code unique to this run and worker, starting with the run tag: `<tag><worker><nnnn>` (`EC4K2Q7ZA0003`),
 * 13 characters for a 6-character tag. `extra` (upper-cased letters and digits) is appended. The counter has a
 * fixed width so that no `<n><extra>` can equal another `<n>` (counter 1 with extra "A" against counter 1A).
 */
export function uniqueCode(ctx: Pick<RuleContext, 'target'>, extra = ''): string {
  counter += 1;
  return `${ctx.target.runTag}${workerPart}${counter.toString(36).toUpperCase().padStart(4, '0')}${extra}`;
}

/**
 * True when this run created the record, whether or not a test has removed it since (every ledger line counts,
 * `gone` ones too). Such records come and go while other test files run, so a property about the target's
 * existing data must not judge them: another worker may delete one between its discovery and its use.
 */
export function createdByThisRun(ctx: Pick<RuleContext, 'target'>, register: string, key: string): boolean {
  const file = ctx.target.ledger;
  if (!existsSync(file)) return false;
  return readFileSync(file, 'utf8')
    .split('\n')
    .some((line) => {
      if (line.trim() === '') return false;
      try {
        const e = JSON.parse(line) as { register?: unknown; key?: unknown };
        return e.register === register && e.key === key;
      } catch {
        return false;
      }
    });
}

/** Appends a created record to the run's ledger (runner/ledger.ts), so that the runner cleans it up. */
export function ledgerCreated(ctx: Pick<RuleContext, 'target' | 'name'>, register: string, key: string): void {
  appendLedger(ctx.target.ledger, {
    register,
    key,
    ...(ctx.target.compcode !== undefined ? { company: ctx.target.compcode } : {}),
    test: ctx.name,
    at: new Date().toISOString(),
  });
}

/** Marks a ledger entry gone: the test deleted the record itself. */
export function ledgerGone(ctx: Pick<RuleContext, 'target' | 'name'>, register: string, key: string): void {
  appendLedger(ctx.target.ledger, {
    register,
    key,
    ...(ctx.target.compcode !== undefined ? { company: ctx.target.compcode } : {}),
    test: ctx.name,
    gone: true,
  });
}

/** A write created records whose keys cannot be told: they could not be put into the ledger. */
export class UnledgeredRecordError extends Error {
  override readonly name = 'UnledgeredRecordError';
}

/** The key of a record a write created, from its `@url`/key fields, else from the key fields the write set. */
function createdKey(register: string, record: RestRecord | undefined, sent: Readonly<Record<string, unknown>>) {
  const fromRecord = record ? ledgerKey(register, record) : undefined;
  if (fromRecord !== undefined) return fromRecord;
  const def = getRegister(register);
  const parts = def?.key.map((k) => sent[k]);
  return parts?.every((p) => typeof p === 'string' && p !== '') ? parts.join('/') : undefined;
}

function ledgerAll(
  ctx: RuleContext,
  register: string,
  env: RestEnvelope<string>,
  sent: readonly Readonly<Record<string, unknown>>[],
): string[] {
  const keys: string[] = [];
  const n = Math.max(env.records.length, sent.length);
  for (let i = 0; i < n; i++) {
    const key = createdKey(register, env.records[i], sent[i] ?? {});
    if (key === undefined)
      throw new UnledgeredRecordError(
        `${register}: the create answer names no key for record ${i} (no @url, no key fields), so it cannot be cleaned up`,
      );
    ledgerCreated(ctx, register, key);
    keys.push(key);
  }
  return keys;
}

/** A record a helper created: the answer and the ledgered key. */
export interface Created {
  readonly key: string;
  /** The record as the create answered it (its non-blank fields, on real servers), if it did. */
  readonly record: RestRecord | undefined;
  readonly envelope: RestEnvelope<string>;
}

/**
 * The rule that allows a write (accepted.ts): its refusal FAILs that rule. `null` declares the write's acceptance
 * open (the docs leave it to the target): a refusal then stays what it was (ERROR, or the caller's SKIP).
 */
export interface Allowed {
  readonly allowedBy?: string | null;
}

/** The rule allowing a form POST of set_field.* / set_row_field.* (record-rest-api.md §4 "Endpoints"). */
export const FORM_POST_RULE = 'REST.WRITE.CREATE_FORM';

/** Runs a write, FAILing `rule` when the target refuses it (accepted.ts); `null` leaves a refusal as it is. */
function allowed<T>(rule: string | null | undefined, call: () => Promise<T>, what: string): Promise<T> {
  return rule ? accepted(rule, call, what) : call();
}

/**
 * Creates a record with a form POST (auto-fill runs, record-rest-api.md §4 rule 1) and ledgers it. A form POST
 * of `set_field.*` and `set_row_field.*` is a documented request: a refusal FAILs REST.WRITE.CREATE_FORM (or
 * `allowedBy`, the rule that says this particular body is accepted), not the rule of the test that sent it.
 */
export async function createForm(
  ctx: RuleContext,
  register: string,
  header: RestFields<string>,
  rows: readonly RestRowFields[] = [],
  options?: RestCallOptions & Allowed,
): Promise<Created> {
  const { allowedBy = FORM_POST_RULE, ...call } = options ?? {};
  const env = await allowed(
    allowedBy,
    () => ctx.client.rest.createForm(register, header, rows, call),
    `form POST /api/1/${register} (${Object.keys(header).length} set_field, ${rows.length} row(s))`,
  );
  if (env.records.length === 0 && createdKey(register, undefined, header) === undefined) {
    // an envelope that names no record (the docs show only "envelope"): the record is looked for by what was sent
    const key = await findUnanswered(ctx, register, header, rows, allowedBy ?? FORM_POST_RULE);
    ledgerCreated(ctx, register, key);
    return { key, record: undefined, envelope: env };
  }
  const [key] = ledgerAll(ctx, register, env, [header]);
  return { key: key!, record: env.records[0], envelope: env };
}

/**
 * The key of the record a form POST made whose answer named none, found by what the POST sent: a record holding
 * every header value sent (filter.<Field>, exact) and, in its rows, every row value sent tagged with the run, that
 * this run has not ledgered yet.
 * None found: the write answered its success and changed nothing, a FAIL of the rule of that write (issue 28),
 * not an ERROR of every test that wrote through it. Found but not told from the target's own records (nothing
 * sent carries the run tag): an UnledgeredRecordError, as before, since cleanup must never delete those.
 */
async function findUnanswered(
  ctx: RuleContext,
  register: string,
  header: RestFields<string>,
  rows: readonly RestRowFields[],
  rule: string,
): Promise<string> {
  const sent = Object.entries(header).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
  const filters = Object.fromEntries(sent.map(([f, v]) => [`filter.${f}`, v]));
  const read = await probe(ctx, register, { ...filters, limit: 2000 } as ListQuery);
  const holds = (r: RestRecord) =>
    sent.every(([f, v]) => fieldValue(r, f) === v) &&
    // rows by their values tagged with the run (a Spec): numbers may come back formatted otherwise than sent
    rows.every((row) =>
      rowsOf(r).some((x) =>
        Object.entries(row).every(([f, v]) => !v?.includes(ctx.target.runTag) || fieldValue(x, f) === v),
      ),
    );
  const found = (read.ok ? read.records : [])
    .filter(holds)
    .map((r) => ledgerKey(register, r))
    .filter((k): k is string => k !== undefined && !createdByThisRun(ctx, register, k));
  if (read.ok && found.length === 0)
    violated(
      rule,
      `form POST /api/1/${register} answered its success with an envelope naming no record, and no record of ${register} holds what it sent (${sent.map(([f, v]) => `${f}=${v}`).join(', ') || 'no header field'}, ${rows.length} row(s)): the write changed nothing`,
    );
  const tagged = [...sent.map(([, v]) => v), ...rows.flatMap((r) => Object.values(r))].some((v) =>
    v?.includes(ctx.target.runTag),
  );
  if (found.length !== 1 || !tagged)
    throw new UnledgeredRecordError(
      `${register}: the create answer names no key, and ${found.length} record(s) hold what it sent${tagged ? '' : ' (none of it tagged with the run)'}: it cannot be cleaned up`,
    );
  return found[0]!;
}

/**
 * Creates records with one JSON POST (no auto-fill, §4 rules 2-3) and ledgers every one. Which values a JSON
 * POST must carry is not shown (§4 rule 2), so its acceptance is open unless the caller names the rule that
 * allows this body (`allowedBy`): then a refusal FAILs that rule.
 */
export async function createJson(
  ctx: RuleContext,
  register: string,
  records: readonly Record<string, unknown>[],
  options?: RestCallOptions & Allowed,
): Promise<Created[]> {
  const { allowedBy = null, ...call } = options ?? {};
  const what = `JSON POST /api/1/${register} of ${records.length} record(s)`;
  const env = await allowed(
    allowedBy,
    () =>
      ctx.client.rest.createJson(register, records, call).catch(async (err: unknown) => {
        // acceptance open: asked apart whether the target takes a JSON POST at all before the refusal stands
        if (allowedBy === null && isRefusalAnswer(err)) await judgeJsonPostRefused(ctx, what);
        throw err;
      }),
    what,
  );
  const keys = ledgerAll(ctx, register, env, records);
  return keys.map((key, i) => ({ key, record: env.records[i], envelope: env }));
}

let fullJsonPost: Promise<ErpClientError | undefined> | undefined;

/**
 * A JSON POST whose acceptance is open (which values it must carry is not shown) was refused: asked apart, once
 * per worker, with a JSON POST that carries every value a record of the target holds. A contact is made by a form
 * POST of Code and Name (auto-fill supplies what the target requires, §4 rule 1) and read back; its non-blank
 * documented values are posted as JSON under a new Code and Name. That body carries all required values ("JSON POST does
 * not trigger auto-fill. All required values must be supplied.", §4 rule 2), so the docs accept it: refused too,
 * the target refuses JSON POSTs as such and REST.WRITE.CREATE_JSON FAILs with that exchange. Accepted, the first
 * refusal stays what it was (the target wanted values the docs do not name).
 */
async function judgeJsonPostRefused(ctx: RuleContext, what: string): Promise<void> {
  fullJsonPost ??= (async () => {
    const code = uniqueCode(ctx, 'J');
    await createForm(ctx, 'CUVc', { Code: code, Name: `${ctx.target.runTag} json control` }, [], { format: 'json' });
    const env = await accepted(
      'REST.QUERY.FILTER_EXACT',
      ctx.client.rest.list('CUVc', { 'filter.Code': code } as never, { format: 'json' }),
      `GET /api/1/CUVc?filter.Code=${code}`,
    );
    const held = env.records.find((r) => r.Code === code);
    if (held === undefined) return undefined; // not read back: CREATE_FORM's or FILTER_EXACT's to judge
    // the register's main fields (§2 "Registers, keys and main fields"), not the system fields every base
    // register also carries (UUID, ServerSequence, SyncFlags), which a server may set itself
    const documented = new Set(getRegister('CUVc')?.fields ?? []);
    const record: Record<string, string> = {};
    for (const [field, value] of Object.entries(held))
      if (documented.has(field) && typeof value === 'string' && value !== '') record[field] = value;
    record.Code = uniqueCode(ctx, 'J');
    record.Name = `${ctx.target.runTag} json control`;
    try {
      const made = await ctx.client.rest.createJson('CUVc', [record], { format: 'json' });
      ledgerAll(ctx, 'CUVc', made, [record]);
      return undefined;
    } catch (err) {
      if (isRefusalAnswer(err)) return err;
      throw err;
    }
  })();
  const refused = await fullJsonPost;
  if (refused !== undefined)
    throw refusedViolation(
      'REST.WRITE.CREATE_JSON',
      `${what} was refused, and so was a JSON POST of CUVc carrying every value of a contact the target holds (all required values, §4 rule 2)`,
      refused,
    );
}

/**
 * Deletes a record with the portal `delete` action (portal-action-api.md §4) and marks it gone in the ledger.
 * Whether a record may be deleted depends on its state ("Record is locked", §7), so a refusal is the caller's
 * to judge unless it names the rule that allows this delete (`allowedBy`).
 */
export async function deleteRecord(
  ctx: RuleContext,
  register: string,
  key: string,
  { allowedBy = null }: Allowed = {},
): Promise<void> {
  await allowed(
    allowedBy,
    () => ctx.client.portal.delete({ register, id: key } as Parameters<typeof ctx.client.portal.delete>[0]),
    `portal delete of ${register} ${key}`,
  );
  ledgerGone(ctx, register, key);
}

/** The records of one read, or why the target could not serve it. */
export type Probe = { ok: true; records: RestRecord[]; envelope: RestEnvelope<string> } | { ok: false; why: string };

/**
 * Reads a register; an error of the target (unknown register, no permission) becomes `{ ok: false, why }`.
 * "No records" is concluded only from an envelope that validates (issue 18): a `data` that is null, removed or
 * of another shape reads as no records to the client, so an empty answer of a table register is validated
 * first, and a broken one throws a ContractViolation of the rule that owns the broken part (list-body.ts), or,
 * with `broken: 'absent'` (a pick of registers, which judges nothing), comes back as `{ ok: false, why }`.
 */
export async function probe(
  ctx: RuleContext,
  register: string,
  query: ListQuery = {},
  { broken = 'violation' }: { broken?: 'violation' | 'absent' } = {},
): Promise<Probe> {
  let envelope: RestEnvelope<string>;
  try {
    envelope = await ctx.client.rest.list(register, asRestQuery(query), { format: 'json' });
  } catch (err) {
    if (!isErpClientError(err) || err.kind === 'config' || isTargetFault(err)) throw err;
    // an answer whose envelope the client cannot read is a broken envelope, not a register the target refuses
    const violation = decodeViolation(register, err);
    if (violation && broken === 'violation') {
      observe(violation.rule);
      throw violation;
    }
    return { ok: false, why: `${register}: ${err.message.split('\n')[0]}` };
  }
  if (envelope.records.length === 0 && !jsonListBodyValid(register, envelope)) {
    if (broken === 'absent') return { ok: false, why: `${register}: the answer is a broken envelope` };
    assertJsonListBody(register, envelope);
  }
  return { ok: true, records: envelope.records, envelope };
}

/**
 * The registers of `candidates` that hold at least `min` records (one read each with `limit=min`), in the
 * order given, stopping once `enough` are found. Registers the target refuses, and ones whose answer is a broken
 * envelope, are left out.
 */
export async function registersWithData(
  ctx: RuleContext,
  candidates: readonly string[],
  min = 1,
  enough = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const found: string[] = [];
  for (const register of candidates) {
    if (found.length >= enough) break;
    // a broken envelope is neither data nor its absence: the register is left out of the picks, and the
    // sweeps of properties/rest/registers.prop.ts FAIL the rule that owns the broken part
    const p = await probe(ctx, register, { limit: min }, { broken: 'absent' });
    if (p.ok && p.records.length >= min) found.push(register);
  }
  return found;
}

/**
 * How many registers with data the gate profile looks for among the register table's: its properties pick a
 * few registers each, and the register tests (registers.prop.ts) read every register anyway. @defaultValue 8
 */
export const GATE_TABLE_REGISTERS = 8;

/**
 * The register table's registers that hold records on the target: one `limit=1` read each, once per run, shared
 * by the workers (run-shared.ts); in the gate profile the first {@link GATE_TABLE_REGISTERS} of them.
 */
export function tableRegistersWithData(ctx: RuleContext): Promise<string[]> {
  return runShared(ctx, 'table-registers-with-data', () =>
    registersWithData(
      ctx,
      registerCatalogue.map((r) => r.name),
      1,
      ctx.profile === 'gate' ? GATE_TABLE_REGISTERS : undefined,
    ),
  );
}

/**
 * One of the register table's registers that hold records on the target, as an arbitrary; skips the test when
 * none has records.
 */
export async function tableRegisterWithData(ctx: RuleContext): Promise<fc.Arbitrary<string>> {
  const list = await tableRegistersWithData(ctx);
  if (list.length === 0) ctx.skip('the target has no records in any register of the table');
  return fc.constantFrom(...list);
}

/**
 * Every record of a register in one read (JSON), when it has at most `max` records; undefined when it has
 * more (a staging ERP's big register is read only in pages) or the target refuses it.
 */
export async function readAll(
  ctx: RuleContext,
  register: string,
  max: number,
  query: ListQuery = {},
): Promise<RestRecord[] | undefined> {
  const p = await probe(ctx, register, { ...query, limit: max + 1 });
  if (!p.ok || p.records.length > max) return undefined;
  return p.records;
}

/**
 * The target refused the request with an answer (an ERP error document or a non-2xx status), as opposed
 * to a fault of the target (no answer, a 5xx, a body that does not parse: target-fault.ts) or a defect of
 * the suite.
 */
export function isRefusal(err: unknown): boolean {
  return isErpClientError(err) && (err.kind === 'erp' || err.kind === 'http-status') && !isTargetFault(err);
}
