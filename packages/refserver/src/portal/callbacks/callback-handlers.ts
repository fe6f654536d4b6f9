import type { PortalHandler } from '../handler.js';
import { PortalError } from '../handler.js';
import { loadRecord } from '../records/record-ref.js';
import { okXml } from '../xml.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The callback address of `registerapi`: `url` (a host or an http(s) URL), `port` and `path` put together,
 * e.g. url=127.0.0.1, port=8081, path=/hook -> http://127.0.0.1:8081/hook.
 */
export function callbackUrl(url: string, port: string | undefined, path: string | undefined): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new PortalError(`parameter "url" is not a host or an http(s) URL: "${url}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new PortalError(`parameter "url" must be http or https, got ${u.protocol.replace(':', '')}`);
  if (u.username || u.password) throw new PortalError('parameter "url" must not carry credentials');
  if (port !== undefined && port !== '') {
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)
      throw new PortalError(`parameter "port" must be a port number from 1 to 65535, got "${port}"`);
    u.port = port;
  }
  if (path !== undefined && path !== '') u.pathname = path.startsWith('/') ? path : `/${path}`;
  return u.toString();
}

/**
 * `action=action&register=registerapi&UUID=<uuid>&url=<host or URL>&port=<port>&path=<path>` (§6): registers
 * a callback; from then on every committed record change of the company (either API) is POSTed to it as a
 * JSON notice (notifier.ts). Registering the same UUID again re-points it. The operation result carries the
 * UUID and the resolved URL (the body is not shown, §4 rule 11).
 */
export const registerapi: PortalHandler = {
  kind: 'sub-action',
  name: 'registerapi',
  required: ['UUID', 'url'],
  handle(ctx) {
    const uuid = ctx.params.require('UUID').toLowerCase();
    if (!UUID.test(uuid)) throw new PortalError(`parameter "UUID" must be a UUID, got "${ctx.params.get('UUID')}"`);
    const url = callbackUrl(ctx.params.require('url'), ctx.params.get('port'), ctx.params.get('path'));
    if (!ctx.portal.callbacks) throw new PortalError('callbacks are not available on this server');
    ctx.portal.callbacks.register(uuid, ctx.company, url, ctx.app.now().toISOString());
    return { xml: okXml({ uuid, url }) };
  },
};

/**
 * The standardized record id string of `buildrecidstr` (code, vcname, compno; §4 "Build record id
 * string"): `urn:erp:<company>:<register>:<key>` with the key percent-encoded (RFC 3986), e.g.
 * `urn:erp:1:IVVc:10000101`. The record must exist. README "buildrecidstr".
 */
export function recordIdString(company: number, register: string, key: string): string {
  return `urn:erp:${company}:${register}:${encodeURIComponent(key)}`;
}

export const buildrecidstr: PortalHandler = {
  kind: 'sub-action',
  name: 'buildrecidstr',
  required: ['code', 'vcname'],
  handle(ctx) {
    const ref = loadRecord(ctx, ctx.params.require('vcname'), ctx.params.require('code'));
    return { xml: okXml({ recidstr: recordIdString(ctx.company, ref.register, ref.id) }) };
  },
};

export const callbackHandlers: readonly PortalHandler[] = [registerapi, buildrecidstr];
