import { randomBytes } from 'node:crypto';
import type { StoredRecord } from '../../store/record-table.js';
import { findUser } from '../access.js';
import { PortalError } from '../handler.js';
import {
  ACT_STATE,
  ACT_TYPE,
  closeActivity,
  contactOf,
  insertActivity,
  loadActivity,
  updateActivity,
} from './activities.js';
import { approvalBlocksSigning } from './approval-state.js';
import type { Wf } from './wf-context.js';

/**
 * Signing activities and sessions (README "Portal action API", "Signing"). portal-action-api.md §3:
 * "Signing session and signing activity states: not shown"; the reference server's design:
 *
 * | status | name      | reached by                                               |
 * | 0      | created   | createsigningactivity                                    |
 * | 1      | started   | startsigning (a signing link for one signer)              |
 * | 2      | signed    | the last signer completes (stand-in page or signactivity) |
 * | 3      | declined  | a signer cancels on the stand-in page                     |
 * | 4      | cancelled | cancelsigning                                            |
 *
 * 2 and 4 are final. The session (ErpSignSessVc) mirrors the status in `Status` and each signer's state in the
 * row's `SignStatus` (0 waiting, 1 signed, 2 declined).
 */
export const SIGN_STATUS = { created: 0, started: 1, signed: 2, declined: 3, cancelled: 4 } as const;
export const SIGN_STATUS_NAMES = ['created', 'started', 'signed', 'declined', 'cancelled'] as const;
/** A signer's state (ErpSignSessVc row SignStatus). */
export const SIGNER_STATUS = { waiting: 0, signed: 1, declined: 2 } as const;

/** A signing activity as the reference server keeps it. */
export interface Signing {
  readonly activity: string;
  readonly register: string;
  readonly recordId: string;
  readonly status: number;
  /** The ErpSignSessVc SerNr, or empty. */
  readonly session: string;
}

/** One signer of a signing activity. */
export interface Signer {
  readonly usercode: string;
  readonly status: number;
  readonly signedOn: string;
}

const final = (s: number) => s === SIGN_STATUS.signed || s === SIGN_STATUS.cancelled;
const name = (s: number) => `${s} ${SIGN_STATUS_NAMES[s]}`;

type Row = { activity: string; register: string; record_id: string; status: number; session: string };
const toSigning = (r: Row): Signing => ({
  activity: r.activity,
  register: r.register,
  recordId: r.record_id,
  status: r.status,
  session: r.session,
});

/** The signing of an activity, or undefined when it is no signing activity. */
export function signingOfActivity(wf: Wf, activity: string): Signing | undefined {
  const r = wf.store.db
    .prepare(
      'SELECT activity, register, record_id, status, session FROM wf_signings WHERE company = ? AND activity = ?',
    )
    .get(wf.company, activity) as Row | undefined;
  return r ? toSigning(r) : undefined;
}

function signingOfSession(wf: Wf, session: string): Signing | undefined {
  const r = wf.store.db
    .prepare('SELECT activity, register, record_id, status, session FROM wf_signings WHERE company = ? AND session = ?')
    .get(wf.company, session) as Row | undefined;
  return r ? toSigning(r) : undefined;
}

/** Signings of a record (newest first). */
export function signingsOfRecord(wf: Wf, register: string, rec: StoredRecord, id: string): Signing[] {
  const rows = wf.store.db
    .prepare(
      'SELECT activity, register, record_id, status, session FROM wf_signings WHERE company = ? AND register = ? ' +
        'AND record_id = ? AND record_uuid = ? ORDER BY CAST(activity AS INTEGER) DESC',
    )
    .all(wf.company, register, id, rec.fields.UUID ?? '') as Row[];
  return rows.map(toSigning);
}

/** The signers of a signing activity, in order. */
export function signersOf(wf: Wf, activity: string): Signer[] {
  const rows = wf.store.db
    .prepare('SELECT usercode, status, signed_on FROM wf_signers WHERE company = ? AND activity = ? ORDER BY position')
    .all(wf.company, activity) as { usercode: string; status: number; signed_on: string }[];
  return rows.map((r) => ({ usercode: r.usercode, status: r.status, signedOn: r.signed_on }));
}

/**
 * A signing by the id startsigning, signactivity and cancelsigning take: a signing activity's or a signing
 * session's SerNr. `regname` (ActVc or ErpSignSessVc) says which; without it an activity wins.
 */
export function resolveSigning(wf: Wf, id: string, regname: string | undefined): Signing {
  if (regname !== undefined && regname !== 'ActVc' && regname !== 'ErpSignSessVc')
    throw new PortalError(`regname "${regname}" names no signing; use ActVc (activity) or ErpSignSessVc (session)`);
  const s =
    (regname !== 'ErpSignSessVc' ? signingOfActivity(wf, id) : undefined) ??
    (regname !== 'ActVc' ? signingOfSession(wf, id) : undefined);
  if (!s)
    throw new PortalError(
      regname === 'ErpSignSessVc'
        ? `ErpSignSessVc ${id} is no signing session of company ${wf.company}`
        : `${regname === 'ActVc' ? 'ActVc' : 'id'} ${id} is no signing activity${regname ? '' : ' or session'} of company ${wf.company}`,
    );
  return s;
}

function setStatus(wf: Wf, s: Signing, status: number): Signing {
  wf.store.db
    .prepare('UPDATE wf_signings SET status = ? WHERE company = ? AND activity = ?')
    .run(status, wf.company, s.activity);
  return { ...s, status };
}

function setSigner(wf: Wf, s: Signing, usercode: string, status: number): void {
  wf.store.db
    .prepare('UPDATE wf_signers SET status = ?, signed_on = ? WHERE company = ? AND activity = ? AND usercode = ?')
    .run(status, status === SIGNER_STATUS.signed ? wf.today : '', wf.company, s.activity, usercode);
}

function revokeTokens(wf: Wf, s: Signing, usercode?: string): void {
  wf.store.db
    .prepare(
      `UPDATE wf_sign_tokens SET state = 'revoked' WHERE company = ? AND activity = ? AND state = 'open'` +
        `${usercode ? ' AND usercode = ?' : ''}`,
    )
    .run(wf.company, s.activity, ...(usercode ? [usercode] : []));
}

/** Mirrors the signing into its session record (Status, rows' SignStatus). */
function syncSession(wf: Wf, s: Signing): void {
  if (s.session === '') return;
  const rec = wf.store.get('ErpSignSessVc', wf.company, [s.session]);
  if (!rec) return;
  const states = new Map(signersOf(wf, s.activity).map((x) => [x.usercode, x.status]));
  const fields: Record<string, string> = { ...rec.fields, Status: String(s.status) };
  delete fields.ServerSequence;
  const rows = rec.rows.map((r) => {
    const st = states.get(r.Signer ?? '');
    return st === undefined ? r : { ...r, SignStatus: String(st) };
  });
  wf.store.update('ErpSignSessVc', rec, { fields, rows });
}

/** createsigningactivity: a SIGN activity for a record and its signers (inside a transaction). */
export function createSigning(wf: Wf, register: string, rec: StoredRecord, id: string, signers: string[]): string {
  const blocked = approvalBlocksSigning(wf, register, rec, id);
  if (blocked) throw new PortalError(blocked);
  const open = signingsOfRecord(wf, register, rec, id).find((s) => !final(s.status));
  if (open)
    throw new PortalError(
      `${register} ${id} already has signing activity ActVc ${open.activity} (status ${name(open.status)})`,
    );
  const contact = contactOf(wf, register, rec);
  const act = insertActivity(wf, {
    ActType: ACT_TYPE.signing,
    ActState: ACT_STATE.todo,
    TransDate: wf.today,
    StartTime: wf.time,
    Comment: `Sign ${register} ${id}`,
    MainPersons: signers.join(','),
    CUCode: contact.code,
    CUName: contact.name,
    SourceRegister: register,
    SourceRecordId: id,
  });
  const activity = act.fields.SerNr!;
  wf.store.db
    .prepare(
      'INSERT INTO wf_signings (company, activity, register, record_id, record_uuid, status, session, created_by) ' +
        "VALUES (?, ?, ?, ?, ?, ?, '', '')",
    )
    .run(wf.company, activity, register, id, rec.fields.UUID ?? '', SIGN_STATUS.created);
  const ins = wf.store.db.prepare(
    "INSERT INTO wf_signers (company, activity, usercode, position, status, signed_on) VALUES (?, ?, ?, ?, ?, '')",
  );
  for (const [i, u] of signers.entries()) ins.run(wf.company, activity, u, i, SIGNER_STATUS.waiting);
  return activity;
}

function assertOpen(s: Signing): void {
  if (final(s.status)) throw new PortalError(`signing activity ActVc ${s.activity} is ${SIGN_STATUS_NAMES[s.status]}`);
}

/** createsigningsess: the ErpSignSessVc session of a signing activity (one per activity). */
export function createSession(wf: Wf, s: Signing, usercode: string): string {
  assertOpen(s);
  if (s.session !== '')
    throw new PortalError(`signing activity ActVc ${s.activity} already has session ErpSignSessVc ${s.session}`);
  const serNr = String(wf.store.nextSerial('ErpSignSessVc', wf.company));
  const rows = signersOf(wf, s.activity).map((x) => {
    const u = findUser(wf.store, wf.company, x.usercode);
    return {
      stp: '1',
      Signer: x.usercode,
      SignerName: u?.Name ?? '',
      eMail: u?.emailAddr ?? '',
      SignStatus: String(x.status),
    };
  });
  wf.store.insert('ErpSignSessVc', wf.company, {
    fields: {
      SerNr: serNr,
      TransDate: wf.today,
      RegName: s.register,
      RecordId: s.recordId,
      Status: String(s.status),
      UserCode: usercode,
      Comment: `Signing of ${s.register} ${s.recordId} (ActVc ${s.activity})`,
      OKFlag: '0',
    },
    rows,
  });
  wf.store.db
    .prepare('UPDATE wf_signings SET session = ? WHERE company = ? AND activity = ?')
    .run(serNr, wf.company, s.activity);
  return serNr;
}

function waitingSigner(wf: Wf, s: Signing, usercode: string): void {
  const signer = signersOf(wf, s.activity).find((x) => x.usercode === usercode);
  if (!signer) throw new PortalError(`user ${usercode} is not a signer of ActVc ${s.activity}`);
  if (signer.status === SIGNER_STATUS.signed)
    throw new PortalError(`user ${usercode} has already signed ActVc ${s.activity}`);
}

/** The signer startsigning/signactivity act for: `usercode`, else the first signer still waiting. */
export function signerFor(wf: Wf, s: Signing, usercode: string | undefined): string {
  if (usercode !== undefined) return usercode;
  const first = signersOf(wf, s.activity).find((x) => x.status !== SIGNER_STATUS.signed);
  if (!first) throw new PortalError(`every signer of ActVc ${s.activity} has signed`);
  return first.usercode;
}

/** startsigning: a new signing link (token) for one signer; the status becomes started. */
export function startSigning(wf: Wf, s: Signing, usercode: string): string {
  assertOpen(s);
  waitingSigner(wf, s, usercode);
  revokeTokens(wf, s, usercode);
  const token = randomBytes(16).toString('hex');
  wf.store.db
    .prepare("INSERT INTO wf_sign_tokens (token, company, activity, usercode, state) VALUES (?, ?, ?, ?, 'open')")
    .run(token, wf.company, s.activity, usercode);
  setSigner(wf, s, usercode, SIGNER_STATUS.waiting);
  const started = setStatus(wf, s, SIGN_STATUS.started);
  const act = loadActivity(wf, s.activity);
  updateActivity(wf, act, { ActState: ACT_STATE.inProgress, ActResult: '' });
  syncSession(wf, started);
  return token;
}

/** A signer signs (the stand-in page's "complete", or signactivity); the last one makes it signed. */
export function signBy(wf: Wf, s: Signing, usercode: string): Signing {
  assertOpen(s);
  if (s.status === SIGN_STATUS.declined)
    throw new PortalError(`signing activity ActVc ${s.activity} was declined; start signing again first`);
  waitingSigner(wf, s, usercode);
  setSigner(wf, s, usercode, SIGNER_STATUS.signed);
  wf.store.db
    .prepare(
      `UPDATE wf_sign_tokens SET state = 'used' WHERE company = ? AND activity = ? AND usercode = ? AND state = 'open'`,
    )
    .run(wf.company, s.activity, usercode);
  const all = signersOf(wf, s.activity).every((x) => x.status === SIGNER_STATUS.signed);
  const next = setStatus(wf, s, all ? SIGN_STATUS.signed : SIGN_STATUS.started);
  const act = loadActivity(wf, s.activity);
  if (all) {
    revokeTokens(wf, next);
    closeActivity(wf, act, 'SIGNED');
  } else updateActivity(wf, act, { ActState: ACT_STATE.inProgress });
  syncSession(wf, next);
  return next;
}

/** A signer declines on the stand-in page: the signing is declined until started again. */
export function declineBy(wf: Wf, s: Signing, usercode: string): Signing {
  assertOpen(s);
  waitingSigner(wf, s, usercode);
  setSigner(wf, s, usercode, SIGNER_STATUS.declined);
  revokeTokens(wf, s);
  const next = setStatus(wf, s, SIGN_STATUS.declined);
  updateActivity(wf, loadActivity(wf, s.activity), { ActResult: 'DECLINED' });
  syncSession(wf, next);
  return next;
}

/** cancelsigning: the signing ends as cancelled; its links stop working. */
export function cancelSigning(wf: Wf, s: Signing): void {
  assertOpen(s);
  revokeTokens(wf, s);
  const next = setStatus(wf, s, SIGN_STATUS.cancelled);
  closeActivity(wf, loadActivity(wf, s.activity), 'CANCELLED');
  syncSession(wf, next);
}

/** A signing link: its signing and signer, and whether it still works. */
export interface SignToken {
  readonly company: number;
  readonly activity: string;
  readonly usercode: string;
  readonly state: 'open' | 'used' | 'revoked';
}

/** Looks a signing link up by its token (any company), or undefined. */
export function findToken(wf: Pick<Wf, 'store'>, token: string): SignToken | undefined {
  return wf.store.db
    .prepare('SELECT company, activity, usercode, state FROM wf_sign_tokens WHERE token = ?')
    .get(token) as SignToken | undefined;
}
