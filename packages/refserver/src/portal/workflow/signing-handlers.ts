import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { loadRecord } from '../records/record-ref.js';
import { okXml } from '../xml.js';
import { expandPersons } from './persons.js';
import {
  cancelSigning,
  createSession,
  createSigning,
  resolveSigning,
  SIGN_STATUS,
  type Signing,
  signBy,
  signerFor,
  signingsOfRecord,
  startSigning,
} from './signing-state.js';
import { actingUser, wfOf } from './wf-context.js';
import { SIGN_REGISTERS } from './workflow-config.js';

/** The path of the local stand-in of the external signing interface (signing-page.ts). */
export const SIGNING_PATH = '/erpcert/signing';

/**
 * The signers of a new signing activity: `signers` (ours: user codes and user groups, comma-separated), else
 * `usercode`, else the session user. Every entry must name an open user or a group with open users.
 */
function signersOf(ctx: PortalContext): string[] {
  const list = ctx.params.get('signers');
  if (list !== undefined && list !== '') {
    const { codes, unknown } = expandPersons(ctx.app.store, ctx.company, list);
    if (unknown.length > 0) throw new PortalError(`signers: ${unknown.join(', ')} is neither a user nor a user group`);
    return [...codes];
  }
  const user = actingUser(ctx);
  if (!user) throw new PortalError('no signer: send usercode (or signers, a list of user codes)');
  return [user];
}

/**
 * `createsigningactivity&regname&id[&usercode|&signers]` (regname per "Registers per operation"): a signing
 * activity (ActVc, ActType SIGN); `newdata` is its SerNr (ours: the body is not shown, rule 11). A record that
 * needs approval must be approved first ("Sign approved record").
 */
const createsigningactivity: PortalHandler = {
  kind: 'sub-action',
  name: 'createsigningactivity',
  registers: { operation: 'createsigningactivity', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const signers = signersOf(ctx);
    const activity = ctx.app.store.write(() => {
      const ref = loadRecord(ctx, ctx.register!, ctx.params.require('id'));
      return createSigning(wf, ref.register, ref.rec, ref.id, signers);
    });
    return { xml: okXml({ newdata: activity }) };
  },
};

/** `createsigningsess&id` (id: the signing activity): its ErpSignSessVc session; `newdata` is the session SerNr. */
const createsigningsess: PortalHandler = {
  kind: 'sub-action',
  name: 'createsigningsess',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const user = actingUser(ctx) ?? '';
    const session = ctx.app.store.write(() =>
      createSession(wf, resolveSigning(wf, ctx.params.require('id'), 'ActVc'), user),
    );
    return { xml: okXml({ newdata: session }) };
  },
};

/** The signing that `id` (and the optional `regname`, ActVc or ErpSignSessVc) names. */
const signingOf = (ctx: PortalContext): Signing =>
  resolveSigning(wfOf(ctx), ctx.params.require('id'), ctx.params.get('regname') || undefined);

/** The absolute URL of the stand-in page, on the host the client used. */
function signingUrl(ctx: PortalContext, token: string): string {
  const host = ctx.req.headers.host || '127.0.0.1';
  return `http://${host}${SIGNING_PATH}/${token}`;
}

/**
 * `startsigning&id[&usercode]` (id: signing activity or session SerNr): `url` on the result is the link to
 * the stand-in signing page for the signer (usercode, else the session user, else the first signer waiting).
 */
const startsigning: PortalHandler = {
  kind: 'sub-action',
  name: 'startsigning',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const token = ctx.app.store.write(() => {
      const s = signingOf(ctx);
      return startSigning(wf, s, signerFor(wf, s, actingUser(ctx)));
    });
    return { xml: okXml({ url: signingUrl(ctx, token) }) };
  },
};

/**
 * `signactivity&id[&regname][&usercode]` (parameters "not shown", rule 13; ours as startsigning): the signer
 * signs inside the ERP, without the external interface.
 */
const signactivity: PortalHandler = {
  kind: 'sub-action',
  name: 'signactivity',
  required: ['id'],
  handle(ctx) {
    const wf = wfOf(ctx);
    ctx.app.store.write(() => {
      const s = signingOf(ctx);
      signBy(wf, s, signerFor(wf, s, actingUser(ctx)));
    });
    return { xml: okXml() };
  },
};

/**
 * `cancelsigning&id&regname`: regname ActVc (the signing activity), ErpSignSessVc (a session) or a register of
 * createsigningactivity (id is then the record, whose open signing is cancelled).
 */
const cancelsigning: PortalHandler = {
  kind: 'sub-action',
  name: 'cancelsigning',
  required: ['id', 'regname'],
  handle(ctx) {
    const wf = wfOf(ctx);
    const regname = ctx.params.require('regname');
    const id = ctx.params.require('id');
    ctx.app.store.write(() => {
      if (regname === 'ActVc' || regname === 'ErpSignSessVc') return cancelSigning(wf, resolveSigning(wf, id, regname));
      if (!(SIGN_REGISTERS as readonly string[]).includes(regname))
        throw new PortalError(
          `regname "${regname}" is not allowed for cancelsigning; allowed: ActVc, ErpSignSessVc, ${SIGN_REGISTERS.join(', ')}`,
        );
      const ref = loadRecord(ctx, regname, id);
      const open = signingsOfRecord(wf, ref.register, ref.rec, ref.id).find(
        (s) => s.status !== SIGN_STATUS.signed && s.status !== SIGN_STATUS.cancelled,
      );
      if (!open) throw new PortalError(`${regname} ${ref.id} has no open signing to cancel`);
      cancelSigning(wf, open);
    });
    return { xml: okXml() };
  },
};

/** The signing sub-actions. */
export const signingHandlers: readonly PortalHandler[] = [
  createsigningactivity,
  createsigningsess,
  startsigning,
  signactivity,
  cancelsigning,
];
