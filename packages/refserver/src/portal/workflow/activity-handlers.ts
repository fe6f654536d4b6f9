import type { StoredRecord } from '../../store/record-table.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { assertUnlocked, loadRecord, registerSchema } from '../records/record-ref.js';
import { attrs, elementXml, okXml } from '../xml.js';
import { activityFromSource, insertActivity, loadActivity, updateActivity } from './activities.js';
import { approvalStepOf } from './approval-state.js';
import { requestText } from './request-text.js';
import { SIGN_STATUS_NAMES, signersOf, signingOfActivity } from './signing-state.js';
import { actingUser, type Wf, wfOf } from './wf-context.js';
import { activityTypes } from './workflow-config.js';

/** `<ActVc>` with every header field and `<rows><row rownumber>` (the REST record shape, without attributes). */
function activityXml(ctx: PortalContext, rec: StoredRecord): string {
  const schema = registerSchema(ctx, 'ActVc');
  let out = '<ActVc>';
  for (const f of schema.fields) out += elementXml(f, rec.fields[f] ?? '');
  out += '<rows>';
  rec.rows.forEach((r, i) => {
    out += `<row${attrs({ rownumber: i })}>`;
    for (const f of schema.rowFields) out += elementXml(f, r[f] ?? '');
    out += '</row>';
  });
  return `${out}</rows></ActVc>`;
}

/** The task description: the Text of the activity's rows, one line each. */
export function descriptionOf(rec: StoredRecord): string {
  return rec.rows.map((r) => r.Text ?? '').join('\n');
}

function commentCount(wf: Wf, activity: string): number {
  return wf.store.db
    .prepare('SELECT COUNT(*) FROM wf_comments WHERE company = ? AND activity = ?')
    .pluck()
    .get(wf.company, activity) as number;
}

/**
 * `getactivitydata&id`: the activity and what part B knows about it (the body is not shown, rule 11; README
 * "Activities and tasks"): `<res errstr=""/>`, `<ActVc>` (every field, rows), `<description>`, `<approval>` for
 * an approval activity, `<signing>` with `<signer>`s for a signing activity, `<comments count>`.
 */
const getactivitydata: PortalHandler = {
  kind: 'sub-action',
  name: 'getactivitydata',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const rec = loadActivity(wf, ctx.params.require('id'));
    const id = rec.fields.SerNr!;
    let inner = activityXml(ctx, rec) + elementXml('description', descriptionOf(rec));
    const step = approvalStepOf(wf, id);
    if (step)
      inner += `<approval${attrs({ regname: step.register, id: step.recordId, step: step.step, steps: step.steps, state: step.state, decidedby: step.decidedBy, decidedon: step.decidedOn })}/>`;
    const signing = signingOfActivity(wf, id);
    if (signing) {
      inner += `<signing${attrs({ regname: signing.register, id: signing.recordId, status: signing.status, statusname: SIGN_STATUS_NAMES[signing.status]!, session: signing.session })}>`;
      for (const s of signersOf(wf, id))
        inner += `<signer${attrs({ usercode: s.usercode, status: s.status, signedon: s.signedOn })}/>`;
      inner += '</signing>';
    }
    inner += `<comments${attrs({ count: commentCount(wf, id) })}/>`;
    return { xml: okXml({}, inner) };
  },
};

/** `getcomments&id`: `<comment id usercode date time>text</comment>`, oldest first (body not shown, rule 11). */
const getcomments: PortalHandler = {
  kind: 'sub-action',
  name: 'getcomments',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const id = loadActivity(wf, ctx.params.require('id')).fields.SerNr!;
    const rows = wf.store.db
      .prepare('SELECT id, usercode, date, time, text FROM wf_comments WHERE company = ? AND activity = ? ORDER BY id')
      .all(wf.company, id) as { id: number; usercode: string; date: string; time: string; text: string }[];
    const inner = rows
      .map(
        (c) =>
          `<comment${attrs({ id: c.id, usercode: c.usercode, date: c.date, time: c.time })}>${elementXml('text', c.text)}</comment>`,
      )
      .join('');
    return { xml: okXml({}, inner) };
  },
};

/**
 * `addcomment&id` (POST): the comment text per request-text.ts (body, or the form field `comment`); the author
 * is `usercode`, else the session user, else the login name. The result carries the comment's `id` (ours).
 */
const addcomment: PortalHandler = {
  kind: 'sub-action',
  name: 'addcomment',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const author = actingUser(ctx) ?? ctx.auth.user;
    const text = requestText(ctx, ['comment', 'text']);
    if (text === undefined || text.trim() === '')
      throw new PortalError('missing the comment text: send it as the request body or in the form field "comment"');
    const id = loadActivity(wf, ctx.params.require('id')).fields.SerNr!;
    const r = wf.store.db
      .prepare('INSERT INTO wf_comments (company, activity, usercode, date, time, text) VALUES (?, ?, ?, ?, ?, ?)')
      .run(wf.company, id, author, wf.today, wf.time, text);
    return { xml: okXml({ id: Number(r.lastInsertRowid) }) };
  },
};

/**
 * `settaskdescription&id` (POST): the description (body, or the form field `text`) becomes the activity's rows,
 * one row per line with the line in `Text` (the ActVc rows of TextCode/Text); an empty text clears them. A record
 * open in another session answers `Record is locked`.
 */
const settaskdescription: PortalHandler = {
  kind: 'sub-action',
  name: 'settaskdescription',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const text = requestText(ctx, ['text', 'description']);
    if (text === undefined)
      throw new PortalError('missing the description: send it as the request body or in the form field "text"');
    ctx.app.store.write(() => {
      const rec = loadActivity(wf, ctx.params.require('id'));
      assertUnlocked(ctx, { register: 'ActVc', id: rec.fields.SerNr!, rec });
      const rows = text === '' ? [] : text.split('\n').map((line) => ({ TextCode: '', Text: line }));
      updateActivity(wf, rec, {}, rows);
    });
    return { xml: okXml() };
  },
};

/**
 * `getactivitytypes`: `<ActType code name signing="0|1" signregisters="..."/>` per type ("configured activity
 * types, with signing information"; body not shown, rule 11).
 */
const getactivitytypes: PortalHandler = {
  kind: 'sub-action',
  name: 'getactivitytypes',
  handle(ctx) {
    const inner = activityTypes(ctx.app.store, ctx.company)
      .map(
        (t) =>
          `<ActType${attrs({ code: t.code, name: t.name, signing: t.signing ? 1 : 0, signregisters: t.signRegisters.join(',') })}/>`,
      )
      .join('');
    return { xml: okXml({}, inner) };
  },
};

/**
 * `linktosourcerecord&sourceRegName&sourceRecordId`: creates a TASK activity linked to the record
 * (SourceRegister/SourceRecordId, so getrecordlinks lists it); `newdata` is its SerNr (ours).
 */
const linktosourcerecord: PortalHandler = {
  kind: 'sub-action',
  name: 'linktosourcerecord',
  required: ['sourceRegName', 'sourceRecordId'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const user = actingUser(ctx);
    const activity = ctx.app.store.write(() => {
      const ref = loadRecord(ctx, ctx.params.require('sourceRegName'), ctx.params.require('sourceRecordId'));
      return insertActivity(wf, activityFromSource(wf, ref.register, ref.rec, ref.id, user)).fields.SerNr!;
    });
    return { xml: okXml({ newdata: activity }) };
  },
};

/** The activity and task sub-actions. */
export const activityHandlers: readonly PortalHandler[] = [
  getactivitydata,
  getcomments,
  addcomment,
  settaskdescription,
  getactivitytypes,
  linktosourcerecord,
];
