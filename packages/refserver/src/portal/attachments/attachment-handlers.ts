import type { PortalContext, PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { loadRecord, type RecordRef } from '../records/record-ref.js';
import { attrs, okXml } from '../xml.js';
import { AttachmentStore } from './attachment-store.js';
import { parseUploadBody } from './upload-body.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Content types by file extension (getfile); anything else is application/octet-stream. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The Content-Type of a file name. */
export function contentTypeOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[filename.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** `attachment; filename="..."; filename*=UTF-8''...` (RFC 6266): an ASCII fallback plus the exact name. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** The record of `regname`/`id` (any register with a one-part key: the table restricts doupload only). */
function attachmentRecord(ctx: PortalContext): RecordRef {
  const register = ctx.register ?? ctx.params.require('regname', 'the record register');
  return loadRecord(ctx, register, ctx.params.require('id'));
}

/** The `file` parameter: a UUID (portal-action-api.md §2 "File identifiers are UUID strings"). */
function fileParam(ctx: PortalContext): string {
  const file = ctx.params.require('file', 'the attachment UUID');
  if (!UUID.test(file)) throw new PortalError(`parameter "file" must be a UUID, got "${file}"`);
  return file;
}

/**
 * `POST action=action&register=doupload&regname=<R>&id=<id>` with the XML upload body: stores the file and
 * answers its UUID (§4 rule 10). A body over Max Web Post Size (PortalOptions.maxWebPostSize), a malformed
 * body or an unknown record is refused and nothing is stored.
 */
const doupload: PortalHandler = {
  kind: 'sub-action',
  name: 'doupload',
  methods: ['POST'],
  readsBody: true,
  registers: { operation: 'doupload', param: 'regname' },
  required: ['id'],
  handle(ctx) {
    const max = ctx.portal.options.maxWebPostSize;
    if (ctx.req.body.length > max)
      throw new PortalError(`the upload is ${ctx.req.body.length} bytes; Max Web Post Size is ${max} bytes`);
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== '' && type !== 'application/xml' && type !== 'text/xml')
      throw new PortalError(`doupload takes an XML body (application/xml), not ${type}`);
    const ref = attachmentRecord(ctx);
    const file = parseUploadBody(ctx.req.body);
    const uuid = new AttachmentStore(ctx.app.store).add(
      ctx.company,
      ref.register,
      ref.id,
      file.filename,
      file.content,
      ctx.today,
    );
    return { xml: okXml({ uuid }) };
  },
};

/** `action=action&register=getattachlist&regname=<R>&id=<id>`: `<data><attachment uuid filename size date/>...</data>`. */
const getattachlist: PortalHandler = {
  kind: 'sub-action',
  name: 'getattachlist',
  required: ['regname', 'id'],
  handle(ctx) {
    const ref = attachmentRecord(ctx);
    const list = new AttachmentStore(ctx.app.store).list(ctx.company, ref.register, ref.id);
    const inner = list.map(
      (a) => `<attachment${attrs({ uuid: a.uuid, filename: a.filename, size: a.size, date: a.date })}/>`,
    );
    return { xml: `<data>${inner.join('')}</data>\n` };
  },
};

/**
 * `action=action&register=getfile&regname=<R>&id=<id>&file=<uuid>`: the file's exact bytes with a
 * Content-Type from its extension and a Content-Disposition naming it (the body is not shown, §4 rule 11).
 */
const getfile: PortalHandler = {
  kind: 'sub-action',
  name: 'getfile',
  required: ['regname', 'id', 'file'],
  handle(ctx) {
    const ref = attachmentRecord(ctx);
    const uuid = fileParam(ctx);
    const found = new AttachmentStore(ctx.app.store).get(ctx.company, ref.register, ref.id, uuid);
    if (!found) throw new PortalError(`${ref.register} ${ref.id} has no attachment ${uuid}`);
    return {
      response: {
        status: 200,
        headers: {
          'Content-Type': contentTypeOf(found.filename),
          'Content-Disposition': contentDisposition(found.filename),
        },
        body: Buffer.from(found.content),
      },
    };
  },
};

/** `action=action&register=deleteattachment&regname=<R>&id=<id>&file=<uuid>`: the operation result. */
const deleteattachment: PortalHandler = {
  kind: 'sub-action',
  name: 'deleteattachment',
  required: ['regname', 'id', 'file'],
  handle(ctx) {
    const ref = attachmentRecord(ctx);
    const uuid = fileParam(ctx);
    if (!new AttachmentStore(ctx.app.store).delete(ctx.company, ref.register, ref.id, uuid))
      throw new PortalError(`${ref.register} ${ref.id} has no attachment ${uuid}`);
    return { xml: okXml() };
  },
};

export const attachmentHandlers: readonly PortalHandler[] = [doupload, getattachlist, getfile, deleteattachment];
