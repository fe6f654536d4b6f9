import { createFromForm, type FieldChanges } from '../../business/record-write.js';
import type { StoredRecord } from '../../store/record-table.js';
import { RIGHTS, requireUser, userHasRight } from '../access.js';
import type { PortalContext, PortalHandler } from '../handler.js';
import { ACCESS_DENIED, PortalError, RECORD_IS_LOCKED } from '../handler.js';
import { addDerivedLink, derivedFrom } from '../records/record-links.js';
import { loadRecord, registerSchema } from '../records/record-ref.js';
import { okXml } from '../xml.js';

/**
 * Header fields a new record never takes from its source: keys, state, dates (the new record gets today's),
 * sums (recomputed), numbers of the issued document and the base fields.
 */
const NOT_CARRIED = new Set([
  'SerNr',
  'OKFlag',
  'InvDate',
  'TransDate',
  'PayDate',
  'OrdDate',
  'QTDate',
  'ValidUntilDate',
  'MakeContactDate',
  'PlanShip',
  'DespatchDate',
  'ServiceDelDate',
  'OrderStatus',
  'InvType',
  'InvoiceNr',
  'OfficialSerNr',
  'Sum0',
  'Sum1',
  'Sum2',
  'Sum3',
  'Sum4',
  'BaseSum4',
  'DiscSum',
  'UUID',
  'SyncFlags',
  'ServerSequence',
]);

/** Row fields recomputed on the new record. */
const ROW_NOT_CARRIED = new Set(['Sum']);

/**
 * The form-write changes that rebuild `src` in register `to`: CustCode first (its auto-fill runs), then every
 * other non-empty header field both registers have, and the rows with the fields both have (README
 * "Conversions"). The new record is then auto-filled and summed like a form POST (record-rest-api.md §4 rule 1).
 */
function carryOver(ctx: PortalContext, src: StoredRecord, to: string): FieldChanges {
  const target = registerSchema(ctx, to);
  const fields = new Set(target.fields);
  const rowFields = new Set(target.rowFields);
  const header: [string, string][] = [];
  if (src.fields.CustCode) header.push(['CustCode', src.fields.CustCode]);
  for (const [f, v] of Object.entries(src.fields))
    if (v !== '' && f !== 'CustCode' && fields.has(f) && !NOT_CARRIED.has(f)) header.push([f, v]);
  const rows = new Map<number, [string, string][]>();
  src.rows.forEach((r, i) => {
    const pairs: [string, string][] = [];
    for (const [f, v] of Object.entries(r))
      if (v !== '' && rowFields.has(f) && !ROW_NOT_CARRIED.has(f)) pairs.push([f, v]);
    if (rowFields.has('stp') && !pairs.some(([f]) => f === 'stp')) pairs.unshift(['stp', '1']);
    rows.set(i, pairs);
  });
  return { header, rows };
}

/** A conversion sub-action: `id` is the source SerNr; `regname`, when sent, must be the source register. */
function conversion(name: string, from: string, to: string): PortalHandler {
  return {
    kind: 'sub-action',
    name,
    required: ['id', 'usercode'],
    handle(ctx) {
      const regname = ctx.params.get('regname');
      if (regname && regname !== from)
        throw new PortalError(`${name} converts ${from} records; regname is "${regname}"`);
      requireUser(ctx);
      const store = ctx.app.store;
      const created = store.write(() => {
        const src = loadRecord(ctx, from, ctx.params.require('id'));
        for (const [reg, id] of derivedFrom(store, ctx.company, from, src.id))
          if (reg === to && store.get(to, ctx.company, [id]))
            throw new PortalError(`${from} ${src.id} was already converted to ${to} ${id}`);
        const rec = createFromForm(ctx.write, registerSchema(ctx, to), carryOver(ctx, src.rec, to));
        const newId = rec.fields.SerNr!;
        addDerivedLink(store, ctx.company, { register: from, id: src.id }, { register: to, id: newId });
        return newId;
      });
      return { xml: okXml({ newdata: created }) };
    },
  };
}

/**
 * `copyrecord` (IVVc only, §4 rule 7; §3 "copyrecord (IVVc) ... new record in draft (0) ... gets the current
 * date and a new SerNr"): the operation result, with the new SerNr in `newdata` as well.
 */
const copyrecord: PortalHandler = {
  kind: 'sub-action',
  name: 'copyrecord',
  registers: { operation: 'copyrecord', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const register = ctx.register!;
    const store = ctx.app.store;
    const newId = store.write(() => {
      const src = loadRecord(ctx, register, ctx.params.require('id'));
      const changes = carryOver(ctx, src.rec, register);
      return createFromForm(ctx.write, registerSchema(ctx, register), changes).fields.SerNr!;
    });
    return { xml: okXml({ newdata: newId }) };
  },
};

/**
 * `unokrecord` (IVVc, ORVc, PlanAbsenceVc): a confirmed record (OKFlag 1) becomes draft (0) when the user
 * of `usercode` holds the un-confirm permission (§3 "Confirmation flag", §4 rule 6). Without it:
 * "Access denied: ..."; a draft record, or one open in another session, is refused.
 */
const unokrecord: PortalHandler = {
  kind: 'sub-action',
  name: 'unokrecord',
  registers: { operation: 'unokrecord', param: 'regname' },
  required: ['id', 'usercode'],
  handle(ctx) {
    const user = requireUser(ctx);
    if (!userHasRight(ctx.app.store, ctx.company, user.Code!, RIGHTS.unok))
      throw new PortalError(`${ACCESS_DENIED}: user ${user.Code} has no un-confirm permission`);
    const register = ctx.register!;
    const store = ctx.app.store;
    store.write(() => {
      const ref = loadRecord(ctx, register, ctx.params.require('id'));
      if (ref.rec.fields.OKFlag !== '1') throw new PortalError(`${register} ${ref.id} is not confirmed (OKFlag 0)`);
      if (ctx.portal.locks.lockedAgainst(ctx.company, register, ref.id, ctx.auth.sessionId))
        throw new PortalError(RECORD_IS_LOCKED);
      const fields: Record<string, string> = { ...ref.rec.fields, OKFlag: '0' };
      delete fields.ServerSequence;
      store.update(register, ref.rec, { fields, rows: ref.rec.rows });
    });
    return { xml: okXml() };
  },
};

export const conversionHandlers: readonly PortalHandler[] = [
  conversion('createslinvoicefromorder', 'ORVc', 'IVVc'),
  conversion('createsalesorderfromquotation', 'QTVc', 'ORVc'),
  conversion('createslinvoicefromquotation', 'QTVc', 'IVVc'),
  copyrecord,
  unokrecord,
];
