import type { StoredRecord } from '../../store/record-table.js';
import { PortalError } from '../handler.js';
import { costTime, endDateFor } from './activity-times.js';
import { splitCodes, type Wf } from './wf-context.js';

/** ActState values (the portal demo data's TODO, INPROGRESS, DONE): DONE is a closed activity. */
export const ACT_STATE = { todo: 'TODO', inProgress: 'INPROGRESS', done: 'DONE' } as const;

/** Activity types part B creates (getactivitytypes lists them with the demo's CALL, MEET, TASK). */
export const ACT_TYPE = { approval: 'APPROVAL', signing: 'SIGN', task: 'TASK' } as const;

/** An ActVc record with every header field, empty unless given. */
function fullFields(wf: Wf, fields: Record<string, string>): Record<string, string> {
  const schema = wf.store.schema('ActVc');
  if (!schema) throw new PortalError('register ActVc is not available on this server');
  const out: Record<string, string> = {};
  for (const f of schema.fields) out[f] = '';
  return Object.assign(out, fields);
}

/** Inserts an activity with the next SerNr (inside the caller's transaction). */
export function insertActivity(
  wf: Wf,
  fields: Record<string, string>,
  rows: Record<string, string>[] = [],
): StoredRecord {
  const serNr = String(wf.store.nextSerial('ActVc', wf.company));
  return wf.store.insert('ActVc', wf.company, { fields: fullFields(wf, { ...fields, SerNr: serNr }), rows });
}

/** The activity ActVc `id` of the company, or a PortalError naming it. */
export function loadActivity(wf: Wf, id: string): StoredRecord {
  const rec = wf.store.get('ActVc', wf.company, [id]);
  if (!rec) throw new PortalError(`ActVc ${id} does not exist in company ${wf.company}`);
  return rec;
}

/** Rewrites an activity with changed header fields (and rows, when given). */
export function updateActivity(
  wf: Wf,
  rec: StoredRecord,
  changes: Record<string, string>,
  rows?: Record<string, string>[],
): StoredRecord {
  const fields: Record<string, string> = { ...rec.fields, ...changes };
  delete fields.ServerSequence;
  return wf.store.update('ActVc', rec, { fields, rows: rows ?? rec.rows });
}

/**
 * The fields that close an activity now (ActResult "closes the activity, sets EndTime and CostTime",
 * portal-action-api.md §2): ActState DONE, the result, EndDate today (not before TransDate), EndTime now,
 * CostTime from start to end.
 */
export function closingFields(
  wf: Wf,
  fields: Readonly<Record<string, string>>,
  result: string,
): Record<string, string> {
  const endDate = endDateFor(fields.TransDate ?? '', wf.today);
  const endTime = endDate === wf.today ? wf.time : (fields.StartTime ?? '');
  const out: Record<string, string> = {
    ActState: ACT_STATE.done,
    ActResult: result,
    EndDate: endDate,
    EndTime: endTime,
  };
  const cost = costTime(fields.TransDate ?? '', fields.StartTime ?? '', endDate, endTime);
  if (cost !== undefined) out.CostTime = cost;
  return out;
}

/** Closes an activity with a result (inside the caller's transaction). */
export function closeActivity(wf: Wf, rec: StoredRecord, result: string): StoredRecord {
  return updateActivity(wf, rec, closingFields(wf, rec.fields, result));
}

/** True when the user is among the activity's main or CC persons. */
export function involves(fields: Readonly<Record<string, string>>, usercode: string): boolean {
  return [...splitCodes(fields.MainPersons), ...splitCodes(fields.CCPersons)].includes(usercode);
}

/**
 * The customer (or supplier) of a record and its name, for the activity's CUCode/CUName: CustCode (sales
 * documents), VECode (purchase documents), the Code of a contact, else none.
 */
export function contactOf(wf: Wf, register: string, rec: StoredRecord): { code: string; name: string } {
  const code =
    register === 'CUVc'
      ? (rec.fields.Code ?? '')
      : (rec.fields.CustCode ?? rec.fields.VECode ?? rec.fields.CUCode ?? rec.rows[0]?.VECode ?? '');
  if (code === '') return { code: '', name: '' };
  const cu = wf.store.lookup('CUVc', wf.company, [code]);
  return { code, name: cu?.Name ?? rec.fields.Addr0 ?? rec.fields.VEName ?? '' };
}

/**
 * The fields of a new activity about a source record (linktosourcerecord, windowactions `__prepareActivity`):
 * a TASK to do today for `usercode`, naming the record, with its contact and the link back to it.
 */
export function activityFromSource(
  wf: Wf,
  register: string,
  rec: StoredRecord,
  id: string,
  usercode: string | undefined,
): Record<string, string> {
  const contact = contactOf(wf, register, rec);
  return {
    ActType: ACT_TYPE.task,
    ActState: ACT_STATE.todo,
    TransDate: wf.today,
    EndDate: wf.today,
    StartTime: wf.time,
    Comment: `${register} ${id}${contact.name ? ` ${contact.name}` : ''}`,
    MainPersons: usercode ?? '',
    CUCode: contact.code,
    CUName: contact.name,
    SourceRegister: register,
    SourceRecordId: id,
  };
}
