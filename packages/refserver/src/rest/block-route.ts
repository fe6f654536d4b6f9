import { escapeXml } from '@erpcert/contract';
import type { App } from '../app-types.js';
import { ErpError, ErrorCode } from '../errors.js';
import { dataResponse } from '../http/respond.js';
import type { AppResponse, RouteRequest } from '../http/types.js';
import type { RegisterSchema } from '../schema/register-schema.js';

/**
 * A settings block (VATCodeBlock) under `/api/<N>/<name>`: GET answers its one record as live servers do (issue
 * 10), in JSON `{"data": {"@register", "@sequence", "@systemversion", "<name>": {"rows": [...]}}}` (an object, not
 * an array) and in XML `<data register sequence systemversion><name><rows><row rownumber>...`. Every row field
 * comes back, empty or not. A company without the block answers `{"rows": []}`. Writes are not served.
 */
export function blockRoute(
  req: RouteRequest,
  app: App,
  schema: RegisterSchema,
  company: number,
  keySegs: string[],
): AppResponse {
  if (keySegs.length > 0)
    throw new ErpError(404, ErrorCode.notFound, `${schema.name} is a settings block: it has no records by key`);
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new ErpError(405, ErrorCode.methodNotAllowed, `${schema.name} allows GET, HEAD`, {
      headers: { Allow: 'GET, HEAD' },
    });
  const rows =
    app.store.get(
      schema.name,
      company,
      schema.key.map(() => ''),
    )?.rows ?? [];
  const info = { register: schema.name, sequence: app.store.sequence, systemVersion: app.systemVersion };
  const fields = schema.rowFields;
  if (req.format === 'json') {
    const list = rows.map((r, i) => ({
      '@rownumber': String(i),
      ...Object.fromEntries(fields.map((f) => [f, r[f] ?? ''])),
    }));
    return dataResponse(req, info, JSON.stringify({ rows: list }));
  }
  const xmlRows = rows
    .map(
      (r, i) =>
        `<row rownumber="${i}">${fields.map((f) => (r[f] ? `<${f}>${escapeXml(r[f]!)}</${f}>` : `<${f}/>`)).join('')}</row>`,
    )
    .join('');
  const name = schema.name;
  return dataResponse(
    req,
    info,
    `<${name} register="${name}">${rows.length === 0 ? '<rows/>' : `<rows>${xmlRows}</rows>`}</${name}>\n`,
  );
}
