import type { App } from '../app-types.js';
import { ErpError, ErrorCode } from '../errors.js';
import { textResponse } from '../http/respond.js';
import type { RouteHandler } from '../http/types.js';
import type { PortalState } from './handler.js';

/**
 * `POST /erpcert/lock?register=<R>&id=<id>[&compno=N]` opens an edit lock on a record for the caller's
 * HSESSION session ("open in another session", README "What locks a record"); `DELETE` releases it.
 * Not part of the documented APIs: a test hook of the reference server. JSON answers; 409 when another
 * session holds the lock.
 */
export function lockRoute(state: PortalState): RouteHandler<App> {
  return (req, app) => {
    const auth = app.authenticate(req, { allowBearer: false });
    const company = app.company(req, undefined, 'compno');
    const register = req.query.get('register') ?? '';
    const id = req.query.get('id') ?? '';
    if (req.method !== 'POST' && req.method !== 'DELETE')
      throw new ErpError(405, ErrorCode.methodNotAllowed, 'the lock takes POST (open) or DELETE (release)', {
        headers: { Allow: 'POST, DELETE' },
      });
    const schema = app.store.schema(register);
    if (schema?.key.length !== 1)
      throw new ErpError(400, ErrorCode.badParameter, `register "${register}" has no records to lock`, {
        field: 'register',
      });
    const rec = app.store.get(register, company, [id]);
    if (!rec) throw new ErpError(404, ErrorCode.notFound, `${register} ${id} does not exist in company ${company}`);
    const key = rec.fields[schema.key[0]!] ?? id;
    const session = auth.sessionId ?? '';
    const headers: Record<string, string> = auth.setCookie ? { 'Set-Cookie': auth.setCookie } : {};
    if (req.method === 'DELETE') {
      const released = state.locks.release(company, register, key, session);
      return textResponse(req, 200, 'application/json', JSON.stringify({ released, register, id: key }), headers);
    }
    const ok = state.locks.open(company, register, key, session);
    const body = ok
      ? { locked: true, register, id: key, ttl: state.options.lockTtl }
      : { locked: false, register, id: key, reason: 'another session holds the lock' };
    return textResponse(req, ok ? 200 : 409, 'application/json', JSON.stringify(body), headers);
  };
}
