import { escapeXml } from '@erpcert/contract';
import type { App } from '../../app-types.js';
import { textResponse } from '../../http/respond.js';
import type { AppResponse, RouteHandler } from '../../http/types.js';
import { findUser } from '../access.js';
import { PortalError } from '../handler.js';
import { SIGNING_PATH } from './signing-handlers.js';
import {
  declineBy,
  findToken,
  SIGN_STATUS_NAMES,
  type SignToken,
  signBy,
  signersOf,
  signingOfActivity,
} from './signing-state.js';
import { wfAt } from './wf-context.js';
import { ensureWorkflowTables } from './workflow-tables.js';

/**
 * The local stand-in of the external signing interface (README "Portal action API", "Signing"): what
 * startsigning's URL opens. Not part of the documented APIs, and like a real signing provider it needs no
 * ERP credentials: the random token in the path is the secret.
 *
 * - `GET  /erpcert/signing/<token>`: an HTML page with the document and two buttons (JSON with
 *   `Accept: application/json` or `?format=json`);
 * - `POST /erpcert/signing/<token>/complete`: the signer signs;
 * - `POST /erpcert/signing/<token>/cancel`: the signer declines.
 *
 * An unknown token answers 404; a used or revoked one 410; a refused step (the signing was cancelled...) 409.
 */
export function signingPageRoute(): RouteHandler<App> {
  return (req, app) => {
    ensureWorkflowTables(app.store.db);
    const rest = req.rawPath.slice(SIGNING_PATH.length).split('/').filter(Boolean);
    const [token, step] = rest;
    const json = req.format === 'json' || req.query.get('format') === 'json';
    const answer = (status: number, title: string, body: unknown) =>
      json
        ? textResponse(req, status, 'application/json', JSON.stringify(body))
        : htmlResponse(status, title, typeof body === 'string' ? body : '');
    const found = token && rest.length <= 2 ? findToken({ store: app.store }, token) : undefined;
    if (!token || !found || (step !== undefined && step !== 'complete' && step !== 'cancel'))
      return answer(
        404,
        'Unknown signing link',
        json ? { error: 'unknown signing link' } : '<p>Unknown signing link.</p>',
      );
    if (step === undefined && req.method !== 'GET' && req.method !== 'HEAD')
      return withAllow(answer(405, 'Method not allowed', { error: 'GET only' }), 'GET, HEAD');
    if (step !== undefined && req.method !== 'POST')
      return withAllow(answer(405, 'Method not allowed', { error: 'POST only' }), 'POST');
    const wf = wfAt(app, found.company);
    if (step === undefined)
      return answer(200, 'Signature', json ? describe(app, found, token) : page(app, found, token));
    if (found.state !== 'open')
      return answer(
        410,
        'Link no longer valid',
        json ? { error: `the link is ${found.state}` } : `<p>This link is ${found.state}.</p>`,
      );
    const signing = signingOfActivity(wf, found.activity);
    try {
      const next = app.store.write(() =>
        step === 'complete' ? signBy(wf, signing!, found.usercode) : declineBy(wf, signing!, found.usercode),
      );
      const done = step === 'complete' ? 'signed' : 'declined';
      return answer(
        200,
        `Document ${done}`,
        json
          ? { result: done, status: next.status, statusName: SIGN_STATUS_NAMES[next.status] }
          : `<p>You have ${done} ${escapeXml(`${next.register} ${next.recordId}`)}.</p>`,
      );
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      return answer(409, 'Signing refused', json ? { error: err.message } : `<p>${escapeXml(err.message)}</p>`);
    }
  };
}

function withAllow(res: AppResponse, allow: string): AppResponse {
  res.headers.Allow = allow;
  return res;
}

/** An HTML page, always UTF-8 as its header says (the stand-in is not part of the quirks wire). */
function htmlResponse(status: number, title: string, body: string): AppResponse {
  const html =
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeXml(title)}</title></head>` +
    `<body><h1>${escapeXml(title)}</h1>${body}</body></html>\n`;
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8' },
    body: Buffer.from(html, 'utf8'),
  };
}

/** What the link is about, as JSON. */
function describe(app: App, t: SignToken, token: string) {
  const wf = wfAt(app, t.company);
  const s = signingOfActivity(wf, t.activity);
  return {
    token,
    link: t.state,
    activity: t.activity,
    register: s?.register ?? '',
    id: s?.recordId ?? '',
    signer: t.usercode,
    status: s?.status ?? -1,
    statusName: s ? SIGN_STATUS_NAMES[s.status] : '',
    signers: signersOf(wf, t.activity).map((x) => ({ usercode: x.usercode, status: x.status, signedOn: x.signedOn })),
  };
}

/** The HTML page: the document, the signer and the two buttons while the link is open. */
function page(app: App, t: SignToken, token: string): string {
  const d = describe(app, t, token);
  const rec = d.register ? app.store.get(d.register, t.company, [d.id]) : undefined;
  const signer = findUser(app.store, t.company, t.usercode);
  const total = rec?.fields.Sum4 ?? rec?.fields.PayVal ?? '';
  const rows = [
    ['Document', `${d.register} ${d.id}`],
    ['Customer', rec?.fields.Addr0 ?? rec?.fields.CustCode ?? ''],
    ['Total', total],
    ['Signer', `${t.usercode}${signer?.Name ? ` (${signer.Name})` : ''}`],
    ['Status', d.statusName],
  ]
    .map(([k, v]) => `<tr><th>${escapeXml(k!)}</th><td>${escapeXml(v!)}</td></tr>`)
    .join('');
  const base = `${SIGNING_PATH}/${token}`;
  const buttons =
    t.state === 'open'
      ? `<form method="post" action="${base}/complete"><button type="submit" id="complete">Sign</button></form>` +
        `<form method="post" action="${base}/cancel"><button type="submit" id="cancel">Decline</button></form>`
      : `<p>This link is ${t.state}.</p>`;
  return `<table>${rows}</table>${buttons}`;
}
