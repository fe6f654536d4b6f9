import type { App } from '../../app-types.js';
import { ErpError, ErrorCode } from '../../errors.js';
import { textResponse } from '../../http/respond.js';
import type { RouteHandler } from '../../http/types.js';
import type { RecordStore } from '../../store/record-store.js';
import { ensurePortalTables } from '../portal-tables.js';

/** A mail sendemail wrote. */
export interface OutboxMail {
  readonly company: number;
  /** ISO timestamp. */
  readonly created: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly body: string;
  readonly register: string;
  readonly recordId: string;
  readonly usercode: string;
  readonly attachmentName: string;
  readonly attachment: Buffer;
}

/** Stores a mail in the outbox (table `portal_outbox`); returns its id. */
export function addToOutbox(store: RecordStore, m: OutboxMail): number {
  ensurePortalTables(store.db);
  const r = store.db
    .prepare(
      'INSERT INTO portal_outbox (company, created, mail_from, mail_to, subject, body, register, record_id, usercode, ' +
        'attachment_name, attachment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      m.company,
      m.created,
      m.from,
      m.to,
      m.subject,
      m.body,
      m.register,
      m.recordId,
      m.usercode,
      m.attachmentName,
      m.attachment,
    );
  return Number(r.lastInsertRowid);
}

type Row = {
  id: number;
  company: number;
  created: string;
  mail_from: string;
  mail_to: string;
  subject: string;
  body: string;
  register: string;
  record_id: string;
  usercode: string;
  attachment_name: string;
  attachment: Buffer;
};

/** The mail as an RFC 5322 message with the document as a base64 MIME part (RFC 2045, 2046). */
export function mimeMessage(r: Row): string {
  const boundary = `erpcert-${r.id}-boundary`;
  const b64 = r.attachment.toString('base64').replace(/.{76}/g, '$&\r\n');
  const q = (s: string) => s.replace(/[\r\n"]/g, ' ');
  const encodedWord = (s: string) =>
    /^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`;
  return [
    `From: ${q(r.mail_from)}`,
    `To: ${q(r.mail_to)}`,
    `Subject: ${encodedWord(q(r.subject))}`,
    `Date: ${new Date(r.created).toUTCString()}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    r.body.replace(/\r?\n/g, '\r\n'),
    `--${boundary}`,
    `Content-Type: application/pdf; name="${q(r.attachment_name)}"`,
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="${q(r.attachment_name)}"`,
    '',
    b64,
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

/**
 * `GET /erpcert/outbox[?compno=N]`: the mails sendemail wrote, as JSON, newest last; `GET
 * /erpcert/outbox/<id>`: one mail as `message/rfc822` with its PDF. Read-only, behind the same auth as the
 * portal (Basic or HSESSION). Not part of the documented APIs (README "sendemail and the outbox").
 */
export function outboxRoute(): RouteHandler<App> {
  return (req, app) => {
    const auth = app.authenticate(req, { allowBearer: false });
    if (req.method !== 'GET' && req.method !== 'HEAD')
      throw new ErpError(405, ErrorCode.methodNotAllowed, 'the outbox is read-only: GET', {
        headers: { Allow: 'GET, HEAD' },
      });
    const db = app.store.db;
    ensurePortalTables(db);
    const headers: Record<string, string> = auth.setCookie ? { 'Set-Cookie': auth.setCookie } : {};
    const rest = req.rawPath.slice('/erpcert/outbox'.length).replace(/^\//, '');
    if (rest !== '') {
      if (!/^\d{1,12}$/.test(rest)) throw new ErpError(404, ErrorCode.notFound, `no such outbox mail ${rest}`);
      const row = db.prepare('SELECT * FROM portal_outbox WHERE id = ?').get(Number(rest)) as Row | undefined;
      if (!row) throw new ErpError(404, ErrorCode.notFound, `no such outbox mail ${rest}`);
      return {
        status: 200,
        headers: { 'Content-Type': 'message/rfc822', ...headers },
        body: Buffer.from(mimeMessage(row), 'utf8'),
      };
    }
    const compno = req.query.get('compno');
    const company = compno ? app.company(req, undefined, 'compno') : undefined;
    const rows = (
      company === undefined
        ? db.prepare('SELECT * FROM portal_outbox ORDER BY id').all()
        : db.prepare('SELECT * FROM portal_outbox WHERE company = ? ORDER BY id').all(company)
    ) as Row[];
    const mails = rows.map((r) => ({
      id: r.id,
      company: r.company,
      created: r.created,
      from: r.mail_from,
      to: r.mail_to,
      subject: r.subject,
      register: r.register,
      recordId: r.record_id,
      usercode: r.usercode,
      attachment: { name: r.attachment_name, size: r.attachment.length },
      url: `/erpcert/outbox/${r.id}`,
    }));
    return textResponse(req, 200, 'application/json', JSON.stringify({ mails }), headers);
  };
}
