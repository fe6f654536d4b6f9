import { applyNewDefaults, runHeaderTriggers } from '../../business/auto-fill.js';
import { type Draft, Explicit, type WriteContext } from '../../business/draft.js';
import { computeSums } from '../../business/sums.js';
import type { RegisterSchema } from '../../schema/register-schema.js';
import { findUser } from '../access.js';
import { PortalError } from '../handler.js';
import { ACT_STATE, ACT_TYPE, activityFromSource } from '../workflow/activities.js';
import type { Wf } from '../workflow/wf-context.js';
import type { TriggerRequest } from './trigger-request.js';

/**
 * The special `fieldname` values (portal-action-api.md §2): `__new` (a new empty record with defaults),
 * `__copy` (a duplicate of the record `id`), `__prepareActivity` (ActVc from a source record). Nothing is
 * saved: like every field trigger they answer a record for the client's form.
 */

/** The registers `__prepareActivity` takes as `sourceRegister` (§2 "sourceRegister ... Allowed: ..."). */
export const PREPARE_SOURCES = ['ORVc', 'IVVc', 'QTVc', 'VIVc', 'CUVc'] as const;

/** A draft holding every field of the register, empty. */
export function emptyDraft(schema: RegisterSchema): Draft {
  const fields: Record<string, string> = {};
  for (const f of schema.fields) fields[f] = '';
  return { fields, rows: [] };
}

/** An empty row of the register. */
export function emptyRow(schema: RegisterSchema): Record<string, string> {
  const r: Record<string, string> = {};
  for (const f of schema.rowFields) r[f] = '';
  return r;
}

/** Defaults of the portal registers the REST auto-fill does not know. */
function portalDefaults(register: string, wf: Wf): Record<string, string> {
  switch (register) {
    case 'ActVc':
      return {
        TransDate: wf.today,
        EndDate: wf.today,
        StartTime: wf.time,
        ActState: ACT_STATE.todo,
        ActType: ACT_TYPE.task,
      };
    case 'EPOrderDocVc':
      return { TransDate: wf.today, OKFlag: '0' };
    case 'AbsenceVc':
    case 'PlanAbsenceVc':
    case 'EPOffWorkVc':
    case 'EPOffWorkPlanVc':
      return { OKFlag: '0' };
    default:
      return {};
  }
}

/** Defaults that depend on the user of `usercode` ("usercode (optional, for __new defaults)", §4). */
function userDefaults(register: string, user: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  if (['IVVc', 'ORVc', 'QTVc', 'VIVc', 'CUVc'].includes(register)) out.SalesMan = user.Code ?? '';
  if (['IVVc', 'VIVc'].includes(register) && user.LangCode) out.LangCode = user.LangCode;
  if (register === 'ActVc') out.MainPersons = user.Code ?? '';
  if (register === 'EPOrderDocVc') out.ShortSign = user.Code ?? '';
  return out;
}

function setKnown(d: Draft, values: Record<string, string>, changed: Set<string>, force: boolean): void {
  for (const [f, v] of Object.entries(values))
    if (f in d.fields && (force || d.fields[f] === '')) {
      d.fields[f] = v;
      changed.add(f);
    }
}

/** The user of `usercode`, checked; undefined without one. */
export function triggerUser(wf: Wf, usercode: string | undefined): Readonly<Record<string, string>> | undefined {
  if (usercode === undefined) return undefined;
  const u = findUser(wf.store, wf.company, usercode);
  if (!u) throw new PortalError(`usercode "${usercode}" is not a user of company ${wf.company}`);
  return u;
}

/** `__new`: the register's defaults (dates today, draft state, ...), the user's, then their triggers. */
export function newRecord(write: WriteContext, wf: Wf, schema: RegisterSchema, usercode: string | undefined): Draft {
  const d = emptyDraft(schema);
  const ex = new Explicit();
  const changed = applyNewDefaults(write, schema.name, d, ex);
  setKnown(d, portalDefaults(schema.name, wf), changed, false);
  const user = triggerUser(wf, usercode);
  if (user) setKnown(d, userDefaults(schema.name, user), changed, true);
  runHeaderTriggers(write, schema.name, d, ex, changed);
  return d;
}

/**
 * `__copy`: the record `id` with a cleared key (a new record gets its number when saved), draft state,
 * today's dates (as copyrecord, §3: "new record gets the current date"), no issued numbers; sums recomputed.
 */
export function copyRecord(write: WriteContext, wf: Wf, schema: RegisterSchema, id: string): Draft {
  if (id === '') throw new PortalError('missing required member "id" (the record __copy duplicates)');
  const src = wf.store.get(schema.name, wf.company, [id]);
  if (!src) throw new PortalError(`${schema.name} ${id} does not exist in company ${wf.company}`);
  const d = emptyDraft(schema);
  for (const f of schema.fields) d.fields[f] = src.fields[f] ?? '';
  d.rows = src.rows.map((r) => ({ ...emptyRow(schema), ...r }));
  for (const k of [...schema.key, 'OfficialSerNr', 'InvoiceNr']) if (k in d.fields) d.fields[k] = '';
  const changed = new Set<string>();
  const defaults = emptyDraft(schema);
  applyNewDefaults(write, schema.name, defaults, new Explicit());
  Object.assign(defaults.fields, portalDefaults(schema.name, wf));
  const forced = Object.fromEntries(
    Object.entries(defaults.fields).filter(
      ([f, v]) => v !== '' && (v === wf.today || f === 'OKFlag' || f === 'ActState'),
    ),
  );
  if (schema.name === 'ActVc') forced.ActResult = '';
  setKnown(d, forced, changed, true);
  const ex = new Explicit();
  runHeaderTriggers(write, schema.name, d, ex, changed);
  computeSums(schema.name, d, ex);
  return d;
}

/** `__prepareActivity` (ActVc only): an activity about `sourceRegister`/`sourceRecordId`, not saved. */
export function prepareActivity(
  wf: Wf,
  schema: RegisterSchema,
  req: TriggerRequest,
  usercode: string | undefined,
): Draft {
  if (schema.name !== 'ActVc') throw new PortalError(`__prepareActivity is for vcname ActVc only, not ${schema.name}`);
  if (!(PREPARE_SOURCES as readonly string[]).includes(req.sourceRegister))
    throw new PortalError(
      req.sourceRegister === ''
        ? 'missing required member "sourceRegister" for __prepareActivity'
        : `sourceRegister "${req.sourceRegister}" is not allowed for __prepareActivity; allowed: ${PREPARE_SOURCES.join(', ')}`,
    );
  if (req.sourceRecordId === '')
    throw new PortalError('missing required member "sourceRecordId" for __prepareActivity');
  const rec = wf.store.get(req.sourceRegister, wf.company, [req.sourceRecordId]);
  if (!rec)
    throw new PortalError(`${req.sourceRegister} ${req.sourceRecordId} does not exist in company ${wf.company}`);
  const user = triggerUser(wf, usercode);
  const d = emptyDraft(schema);
  Object.assign(d.fields, activityFromSource(wf, req.sourceRegister, rec, req.sourceRecordId, user?.Code));
  return d;
}
