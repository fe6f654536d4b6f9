/**
 * The cleanup after a run (DESIGN.md "Running against somebody's staging ERP"): every record in the ledger
 * is deleted through the documented APIs, or closed where the register has no documented delete but a
 * field that closes it; whatever stays behind is the run's residue, listed in the report.
 */
import { getRegister, unescapeXml } from '@erpcert/contract';
import type { LedgerEntry } from './ledger.js';
import { portalUrl, restUrl, send, type TargetConnection, TargetUnreachableError } from './target-http.js';

/** Registers the portal `delete` action serves (portal-action-api.md §2 "Registers per operation"). */
export const PORTAL_DELETE_REGISTERS: readonly string[] = [
  'IVVc',
  'VIVc',
  'ORVc',
  'QTVc',
  'ActVc',
  'CUVc',
  'EPOrderDocVc',
];

/** Registers of `unokrecord` that `delete` also serves (portal-action-api.md §2): a confirmed one can go back to draft. */
export const UNOK_DELETE_REGISTERS: readonly string[] = ['IVVc', 'ORVc'];

/**
 * Registers without a documented delete whose main fields (record-rest-api.md §2 "Registers, keys and main
 * fields") include one that takes the record out of use; the cleanup sets it to `1` with PATCH.
 */
export const CLOSE_FIELDS: Readonly<Record<string, string>> = {
  ObjVc: 'TerminateFlag',
  INVc: 'Terminated',
  AccVc: 'blockedFlag',
  UserVc: 'Closed',
  GCVc: 'Closed',
  ContactRelVc: 'Invalid',
};

/** A record the cleanup could not delete: closed, or left as it was, with why. */
export interface ResidueEntry extends LedgerEntry {
  readonly status: 'closed' | 'left';
  readonly reason: string;
}

/** What the cleanup did. */
export interface CleanupReport {
  /** Records in the ledger. */
  readonly ledgerEntries: number;
  readonly deleted: number;
  /** Records a test had removed already. */
  readonly alreadyGone: number;
  readonly residue: readonly ResidueEntry[];
}

/** Options of {@link cleanUp}. */
export interface CleanupOptions {
  /** Requests per second at most (`--pace`). */
  readonly pace?: number | undefined;
  /** Called once per record with a one-line account. */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * A user code with the un-confirm permission: a confirmed IVVc or ORVc that `delete` refuses is put back to
   * draft with `unokrecord` (portal-action-api.md §3 "Confirmation flag", §4 rule 6) and deleted again.
   */
  readonly unokUsercode?: string | undefined;
}

type Attempt = { ok: true } | { ok: false; why: string };

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  const raw = m ? (m[2] ?? m[3] ?? '') : undefined;
  return raw === undefined ? undefined : unescapeXml(raw);
}

/** Success or failure of a portal operation result: `<error>` or a non-empty errstr fails (portal-action-api.md §7). */
export function portalOutcome(status: number, body: string): Attempt {
  const error = /<error\b[^>]*>/.exec(body);
  if (error) return { ok: false, why: attribute(error[0], 'description') ?? 'an <error> element' };
  const res = /<res\b[^>]*>/.exec(body);
  const errstr = res ? attribute(res[0], 'errstr') : undefined;
  if (errstr) return { ok: false, why: errstr };
  if (status < 200 || status >= 300) return { ok: false, why: `HTTP ${status}` };
  if (!res) return { ok: false, why: `HTTP ${status} without a <res> result` };
  return { ok: true };
}

/** Success of a REST write: 2xx and no error body (XML `<error>`, JSON `{"error": ...}`). */
function restOutcome(status: number, body: string): Attempt {
  const error = /<error\b[^>]*>/.exec(body);
  if (error) return { ok: false, why: attribute(error[0], 'description') ?? 'an <error> element' };
  if (/^\s*\{\s*"error"\s*:/.test(body)) return { ok: false, why: body.slice(0, 200) };
  if (status < 200 || status >= 300) return { ok: false, why: `HTTP ${status}` };
  return { ok: true };
}

/** Whether the record still exists, by an exact `filter.<key field>` list read; undefined when that cannot tell. */
async function exists(conn: TargetConnection, e: LedgerEntry): Promise<boolean | undefined> {
  const def = getRegister(e.register);
  const parts = e.key.split('/');
  if (!def || def.key.length !== parts.length) return undefined;
  const url = restUrl(conn, e.register, undefined, e.company ?? conn.compcode);
  def.key.forEach((field, i) => {
    url.searchParams.set(`filter.${field}`, parts[i]!);
  });
  try {
    const res = await send(conn, 'GET', url, { accept: 'application/json' });
    if (res.status !== 200) return undefined;
    const records = (JSON.parse(res.body) as { data?: Record<string, unknown> }).data?.[e.register];
    return Array.isArray(records) ? records.length > 0 : undefined;
  } catch {
    return undefined;
  }
}

async function portalDelete(conn: TargetConnection, e: LedgerEntry): Promise<Attempt> {
  const url = portalUrl(conn, { action: 'delete', register: e.register, id: e.key }, e.company ?? conn.compcode);
  const res = await send(conn, 'GET', url);
  return portalOutcome(res.status, res.body);
}

async function unconfirm(conn: TargetConnection, e: LedgerEntry, usercode: string): Promise<Attempt> {
  const params = { action: 'action', register: 'unokrecord', regname: e.register, id: e.key, usercode };
  const res = await send(conn, 'GET', portalUrl(conn, params, e.company ?? conn.compcode));
  return portalOutcome(res.status, res.body);
}

async function close(conn: TargetConnection, e: LedgerEntry, field: string): Promise<Attempt> {
  const url = restUrl(conn, e.register, e.key, e.company ?? conn.compcode);
  const res = await send(conn, 'PATCH', url, {
    body: `set_field.${encodeURIComponent(field)}=1`,
    contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
  });
  return restOutcome(res.status, res.body);
}

/**
 * Deletes (portal `delete`) or closes (PATCH `set_field.<close field>=1`) every ledger entry, newest first
 * (a record made from another goes before its source). A record that a test already removed counts as
 * gone; everything else that stays is residue. Never throws for one record: an unreachable target leaves
 * the rest as residue with the reason.
 */
export async function cleanUp(
  conn: TargetConnection,
  entries: readonly LedgerEntry[],
  options: CleanupOptions = {},
): Promise<CleanupReport> {
  const interval = options.pace && options.pace > 0 ? 1000 / options.pace : 0;
  let last = 0;
  const paced = async <T>(f: () => Promise<T>): Promise<T> => {
    const wait = last + interval - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    last = Date.now();
    return f();
  };
  let deleted = 0;
  let alreadyGone = 0;
  let unreachable: string | undefined;
  const residue: ResidueEntry[] = [];
  const log = options.log ?? (() => {});
  for (const e of [...entries].reverse()) {
    const label = `${e.register} ${e.key}${e.company !== undefined ? ` (company ${e.company})` : ''}`;
    if (e.permanent !== undefined) {
      // nothing documented removes it: no request is sent, and the report says why it stays
      residue.push({ ...e, status: 'left', reason: e.permanent });
      log(`left ${label}: ${e.permanent}`);
      continue;
    }
    if (unreachable) {
      residue.push({ ...e, status: 'left', reason: unreachable });
      continue;
    }
    try {
      const closeField = CLOSE_FIELDS[e.register];
      let why: string;
      if (PORTAL_DELETE_REGISTERS.includes(e.register)) {
        let d = await paced(() => portalDelete(conn, e));
        const unok = options.unokUsercode;
        if (!d.ok && unok && UNOK_DELETE_REGISTERS.includes(e.register)) {
          const u = await paced(() => unconfirm(conn, e, unok));
          if (u.ok) d = await paced(() => portalDelete(conn, e));
          else d = { ok: false, why: `${d.why}; unokrecord: ${u.why}` };
        }
        if (d.ok) {
          deleted++;
          log(`deleted ${label}`);
          continue;
        }
        why = `portal delete: ${d.why}`;
      } else if (closeField) {
        const c = await paced(() => close(conn, e, closeField));
        if (c.ok) {
          residue.push({ ...e, status: 'closed', reason: `no documented delete; closed with ${closeField}=1` });
          log(`closed ${label}`);
          continue;
        }
        why = `close with ${closeField}=1: ${c.why}`;
      } else {
        why = `no documented delete for ${e.register} and no field that closes it`;
      }
      if ((await paced(() => exists(conn, e))) === false) {
        alreadyGone++;
        log(`already gone ${label}`);
        continue;
      }
      residue.push({ ...e, status: 'left', reason: why });
      log(`left ${label}: ${why}`);
    } catch (err) {
      if (!(err instanceof TargetUnreachableError)) throw err;
      unreachable = `cleanup stopped, the target stopped answering: ${err.message}`;
      residue.push({ ...e, status: 'left', reason: unreachable });
      log(`left ${label}: ${unreachable}`);
    }
  }
  return { ledgerEntries: entries.length, deleted, alreadyGone, residue: residue.reverse() };
}
