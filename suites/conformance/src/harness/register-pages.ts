/**
 * A page of every register of the table, in JSON and in XML, read once per worker and shared by the register
 * tests and the sweeps that follow them (properties/rest/registers.prop.ts): the JSON page (the first read), an
 * `updates_after` probe and the XML page for each register (the gate profile: the JSON page alone beyond the first
 * {@link GATE_WHOLE_REGISTERS}). Every body is validated (list-body.ts), so every register's envelope is checked
 * in both formats in every full run, blamed by path, at no extra request.
 */
import type { RestEnvelope } from '@erpcert/client';
import { type RegisterDef, registers } from '@erpcert/contract';
import { rawJson } from './assert/envelope.js';
import { decodeViolation, listBodyViolation, violationOf } from './assert/list-body.js';
import { isRefusal, probe } from './data.js';
import type { AnyRecord } from './records.js';
import type { RuleContext } from './rule-test.js';

/** Records read per register and format. */
export const REGISTER_PAGE_SIZE = 25;

/** A page of one register in one format, as the target sent it (JSON read raw). */
export interface Page {
  readonly register: string;
  readonly format: 'xml' | 'json';
  /** The envelope as the client read it; none when the client could not read it (then `invalid` says why). */
  readonly envelope?: RestEnvelope<string>;
  readonly records: readonly AnyRecord[];
  readonly base: boolean;
  /** The body does not validate: the violation, blamed on the rule that owns the broken part. */
  readonly invalid?: Error & { rule: string };
}

/** What one register's reads gave. */
export interface RegisterRead {
  readonly def: RegisterDef;
  readonly pages: readonly Page[];
  /** Why nothing was read: the target does not serve the register, or it holds no records. */
  readonly skip?: string;
  /** The first read's body was broken (an empty answer that does not validate), blamed by path. */
  readonly broken?: Error & { rule: string };
  /** A page read the target refused, by format, although the first read was served. */
  readonly refused?: string;
  /** The first read was refused (the register not served), with the refusal. */
  readonly unserved?: string;
}

/**
 * The gate profile reads this many registers with data whole (the JSON page, the XML page, the base probe), and
 * of the others only the JSON page (issue 19: the gate's request count); every other profile reads all whole.
 * @defaultValue 4
 */
export const GATE_WHOLE_REGISTERS = 4;
let readWhole = 0;

/** The page of an answer, validated: JSON as the target sent it (read raw), XML as decoded. */
async function pageOf(def: RegisterDef, format: 'xml' | 'json', envelope: RestEnvelope<string>, base: boolean) {
  const invalid = await listBodyViolation(def.name, envelope);
  let records: readonly AnyRecord[] = envelope.records as AnyRecord[];
  if (format === 'json' && !invalid) {
    const raw = (rawJson(envelope) as { data?: Record<string, unknown> }).data?.[def.name];
    records = (Array.isArray(raw) ? raw : []) as AnyRecord[];
  }
  return { register: def.name, format, envelope, records, base, ...(invalid ? { invalid } : {}) } satisfies Page;
}

async function readPage(ctx: RuleContext, def: RegisterDef, format: 'xml' | 'json', base: boolean): Promise<Page> {
  let envelope: RestEnvelope<string>;
  try {
    envelope = await ctx.client.rest.list(def.name, { limit: REGISTER_PAGE_SIZE } as never, { format });
  } catch (err) {
    const broken = decodeViolation(def.name, err);
    if (broken) return { register: def.name, format, records: [], base, invalid: broken };
    throw err;
  }
  return pageOf(def, format, envelope, base);
}

async function readRegister(ctx: RuleContext, def: RegisterDef): Promise<RegisterRead> {
  // the first read is the JSON page: it shows whether the target serves the register and has records
  let first: Awaited<ReturnType<typeof probe>>;
  try {
    first = await probe(ctx, def.name, { limit: REGISTER_PAGE_SIZE });
  } catch (err) {
    const broken = violationOf(err);
    if (broken) return { def, pages: [], broken };
    throw err;
  }
  if (!first.ok)
    return { def, pages: [], skip: `the target does not serve ${def.name}: ${first.why}`, unserved: first.why };
  if (first.records.length === 0) return { def, pages: [], skip: `the target has no ${def.name} records` };
  const whole = ctx.profile !== 'gate' || readWhole < GATE_WHOLE_REGISTERS;
  if (whole) readWhole++;
  // a base register answers updates_after (§4 "Query parameters"); its empty answer is validated by probe too
  let base = false;
  try {
    if (whole) base = (await probe(ctx, def.name, { updates_after: first.envelope.sequence ?? '0', limit: 1 })).ok;
  } catch (err) {
    const broken = violationOf(err);
    if (broken) return { def, pages: [], broken };
    throw err;
  }
  const pages: Page[] = [await pageOf(def, 'json', first.envelope, base)];
  if (whole)
    try {
      pages.push(await readPage(ctx, def, 'xml', base));
    } catch (err) {
      if (!isRefusal(err)) throw err;
      return { def, pages, refused: `GET ${def.name} in xml was refused: ${(err as Error).message}` };
    }
  return { def, pages };
}

const reads = new Map<string, Promise<RegisterRead>>();

/** The reads of one register, made once per worker (a failed read is tried again by the next caller). */
export function registerRead(ctx: RuleContext, def: RegisterDef): Promise<RegisterRead> {
  let hit = reads.get(def.name);
  if (!hit) {
    hit = readRegister(ctx, def);
    reads.set(def.name, hit);
    hit.catch(() => reads.delete(def.name));
  }
  return hit;
}

/** The reads of every register of the table, in the table's order. */
export async function allRegisterReads(ctx: RuleContext): Promise<RegisterRead[]> {
  const out: RegisterRead[] = [];
  for (const def of registers) out.push(await registerRead(ctx, def));
  return out;
}

/** The broken bodies among the reads: the first read's, then each page's, in order. */
export function bodyViolations(reads: readonly RegisterRead[]): (Error & { rule: string })[] {
  return reads.flatMap((r) => [
    ...(r.broken ? [r.broken] : []),
    ...r.pages.flatMap((p) => (p.invalid ? [p.invalid] : [])),
  ]);
}

/** A page whose body validates, with the envelope the client read. */
export type ValidPage = Page & { readonly envelope: RestEnvelope<string> };

/** The pages whose body validates: the ones a check of another part can judge. */
export function validPages(reads: readonly RegisterRead[]): ValidPage[] {
  return reads.flatMap((r) => r.pages.filter((p): p is ValidPage => !p.invalid && p.envelope !== undefined));
}
