import type { App as RestApp } from '../app-types.js';
import { createFromForm, createFromJson, patchFromForm } from '../business/record-write.js';
import { AlreadyRegistered } from '../business/register-behaviour.js';
import { ErpError, ErrorCode } from '../errors.js';
import { formChanges, parseForm } from '../http/form-body.js';
import { parseJsonRecords } from '../http/json-body.js';
import { parseFieldMode, parseListParams } from '../http/query-params.js';
import { dataResponse, errorResponse } from '../http/respond.js';
import type { AppResponse, RouteRequest } from '../http/types.js';
import { recordsJson, recordsXml } from '../render/records.js';
import type { RegisterSchema } from '../schema/register-schema.js';
import { blockRoute } from './block-route.js';
import { alreadyRegisteredAnswer, rawControlCharsQuirk } from './observed-answers.js';
import { errorWithMessages, malformedPatchAnswer, nestedPatchError, patchQuirk } from './quirky-answers.js';

/** PATCHes answered in JSON per app in `--quirks` mode: the rotation of quirky-answers.ts counts them. */
const quirkyPatches = new WeakMap<RestApp, number>();

import { listDeletes, listRecords, pageFromRecords, type RecordPage } from '../store/record-query.js';
import type { StoredRecord } from '../store/record-table.js';

const methodNotAllowed = (allow: string, what: string) =>
  new ErpError(405, ErrorCode.methodNotAllowed, `${what} allows ${allow}`, { headers: { Allow: allow } });

/** The methods of a register path: GET (and HEAD) everywhere, POST on the list, PATCH on a record, none to write read-only registers. */
function allowedMethods(schema: RegisterSchema, record: boolean): readonly string[] {
  if (schema.readOnly || schema.block) return ['GET', 'HEAD'];
  return ['GET', 'HEAD', record ? 'PATCH' : 'POST'];
}

function renderPage(req: RouteRequest, app: RestApp, page: RecordPage, nonBlank: boolean): AppResponse {
  const info = { register: page.plan.register, sequence: app.store.sequence, systemVersion: app.systemVersion };
  const opts = { nonBlank };
  const res = dataResponse(req, info, req.format === 'json' ? recordsJson(page, opts) : recordsXml(page, opts));
  const schema = app.quirks ? app.store.schema(page.plan.register) : undefined;
  return schema ? rawControlCharsQuirk(res, schema, req) : res;
}

/** The records just written, rendered like a GET (record-table.ts keeps every field of a written record). */
function writtenPage(schema: RegisterSchema, recs: StoredRecord[]): RecordPage {
  return pageFromRecords(schema, recs);
}

function mediaType(req: RouteRequest): string {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The charset of a form body: UTF-8 unless `--quirks` and the Content-Type names no charset=UTF-8. */
function formCharset(req: RouteRequest, quirks: boolean): 'utf-8' | 'latin1' {
  if (!quirks) return 'utf-8';
  return /charset\s*=\s*"?utf-?8/i.test(req.headers['content-type'] ?? '') ? 'utf-8' : 'latin1';
}

function decodeKey(segments: string[]): string[] {
  try {
    return segments.map((s) => decodeURIComponent(s));
  } catch {
    throw new ErpError(400, ErrorCode.badParameter, 'the record key in the path is not valid percent-encoding');
  }
}

/** GET/POST/PATCH under `/api/<N>/<register>[/<key>]` (record-rest-api.md §4 "Endpoints"). */
function route(req: RouteRequest, app: RestApp): AppResponse {
  const segs = req.rawPath.split('/');
  const companySeg = segs[2] ?? '';
  if (companySeg !== '' && !/^\d{1,9}$/.test(companySeg))
    throw new ErpError(404, ErrorCode.notFound, `no such path ${req.rawPath}: the record API is /api/1/<register>`);
  const companyOf = () => app.company(req, companySeg === '' ? undefined : companySeg);
  const register = segs[3] ?? '';
  const keySegs = segs.slice(4);
  if (keySegs.length === 1 && keySegs[0] === '') keySegs.pop();
  if (register === '') {
    // API root: the documented session start (record-rest-api.md §4 "API root")
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed('GET, HEAD', 'the API root');
    companyOf();
    return dataResponse(req, { sequence: app.store.sequence, systemVersion: app.systemVersion }, undefined);
  }
  const schema = app.store.schema(register);
  if (!schema?.rest)
    throw new ErpError(404, ErrorCode.unknownRegister, `unknown register "${register}"`, { field: register });
  // a method no operation of the path has is 405 with Allow (RFC 9110 §15.5.6), whatever the query says
  const allowed = allowedMethods(schema, keySegs.length > 0);
  if (!allowed.includes(req.method))
    throw methodNotAllowed(allowed.join(', '), schema.readOnly ? `read-only register ${register}` : register);
  const company = companyOf();
  if (schema.block) return blockRoute(req, app, schema, company, keySegs);
  const ctx = app.writeContext(company);
  const envelope = { register, sequence: app.store.sequence, systemVersion: app.systemVersion };
  const respondWrite = (write: () => AppResponse) => {
    try {
      return write();
    } catch (err) {
      if (err instanceof AlreadyRegistered)
        return alreadyRegisteredAnswer(req, err, { ...envelope, sequence: app.store.sequence });
      if (err instanceof ErpError && err.status === 200) {
        if (app.quirks && req.format === 'json') return errorWithMessages(req, err);
        return errorResponse(req, err, { ...envelope, sequence: app.store.sequence });
      }
      throw err;
    }
  };

  if (keySegs.length === 0) {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const params = parseListParams(schema, req.query);
      if (params.deletes) {
        const page = listDeletes(app.store, register, company, params.deletes);
        // nothing deleted: 204 with an empty body, as real deployments answer
        if (page.rows.length === 0) return { status: 204, headers: {}, body: Buffer.alloc(0) };
        return renderPage(req, app, page, false);
      }
      return renderPage(req, app, listRecords(app.store, register, company, params.list), params.nonBlank ?? false);
    }
    const nonBlank = parseFieldMode(req.query, 'nonblank');
    const type = mediaType(req);
    if (type === 'application/json') {
      const records = parseJsonRecords(req.body, register);
      return respondWrite(() => {
        const created = createFromJson(ctx, schema, records);
        return renderPage(req, app, writtenPage(schema, created), nonBlank);
      });
    }
    if (type !== '' && type !== 'application/x-www-form-urlencoded')
      throw new ErpError(
        415,
        ErrorCode.unsupportedMediaType,
        `POST takes application/x-www-form-urlencoded or application/json, not ${type}`,
      );
    const changes = formChanges(parseForm(req.body, formCharset(req, app.quirks), app.quirks));
    return respondWrite(() => {
      const created = createFromForm(ctx, schema, changes);
      return renderPage(req, app, writtenPage(schema, [created]), nonBlank);
    });
  }

  if (keySegs.length !== schema.key.length)
    throw new ErpError(
      404,
      ErrorCode.notFound,
      `${register} records have a key of ${schema.key.length} part(s) (${schema.key.join(' / ')}), the path gives ${keySegs.length}`,
    );
  const keyParts = decodeKey(keySegs);
  const notFound = () =>
    new ErpError(404, ErrorCode.notFound, `${register} ${keyParts.join('/')} does not exist in company ${company}`);
  if (req.method === 'GET' || req.method === 'HEAD') {
    const params = parseListParams(schema, req.query);
    const page = listRecords(app.store, register, company, {
      keyParts,
      ...(params.list.select ? { select: params.list.select } : {}),
    });
    if (page.rows.length === 0) throw notFound();
    return renderPage(req, app, page, params.nonBlank ?? false);
  }
  const type = mediaType(req);
  if (type !== '' && type !== 'application/x-www-form-urlencoded')
    throw new ErpError(
      415,
      ErrorCode.unsupportedMediaType,
      `PATCH takes a form body (set_field.*, set_row_field.*), not ${type}`,
    );
  const nonBlank = parseFieldMode(req.query, 'all');
  const changes = formChanges(parseForm(req.body, formCharset(req, app.quirks), app.quirks));
  const existing = app.store.get(register, company, keyParts);
  if (!existing) throw notFound();
  if (app.quirks && req.format === 'json') {
    // the rough JSON PATCH answers of live servers (issue 10, README "Quirks" 7 and 8)
    const n = quirkyPatches.get(app) ?? 0;
    quirkyPatches.set(app, n + 1);
    try {
      const updated = patchFromForm(ctx, schema, existing, changes);
      return malformedPatchAnswer(
        renderPage(req, app, writtenPage(schema, [updated]), nonBlank),
        patchQuirk(n),
        register,
      );
    } catch (err) {
      if (err instanceof ErpError && err.status === 200) return nestedPatchError(req, err, n % 2 === 1);
      throw err;
    }
  }
  return respondWrite(() => {
    const updated = patchFromForm(ctx, schema, existing, changes);
    return renderPage(req, app, writtenPage(schema, [updated]), nonBlank);
  });
}

/**
 * The record REST API: authenticates (Basic, HSESSION or bearer), then routes. The session cookie
 * of a Basic request rides on every answer, errors included.
 */
export function restHandler(req: RouteRequest, app: RestApp): AppResponse {
  const auth = app.authenticate(req, { allowBearer: true });
  let res: AppResponse;
  try {
    res = route(req, app);
  } catch (err) {
    if (!(err instanceof ErpError)) throw err;
    res = errorResponse(req, err);
  }
  if (auth.setCookie) res.headers['Set-Cookie'] = auth.setCookie;
  return res;
}
