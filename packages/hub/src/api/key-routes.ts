/**
 * Signing keys an organisation trusts: its runs they sign show "verified, key sha256:…". Registering one is an org
 * admin's (settings); every member reads them.
 */
import { Hono } from 'hono';
import type { AuditLog } from '../auth/audit-log.js';
import { actorOf, clientAddress, organisationFor, readable } from '../auth/request-auth.js';
import type { HubStore } from '../store/hub-store.js';
import { ApiError } from './api-error.js';
import { jsonBody } from './json-body.js';

export function keyRoutes(store: HubStore, audit: AuditLog, trustProxy: boolean): Hono {
  const app = new Hono();
  app.get('/keys', async (c) => c.json({ keys: await store.keys(readable(c)) }));
  app.post('/keys', async (c) => {
    const organisationId = organisationFor(c, 'register-key', c.req.query('organisation'));
    const { name, pem } = await jsonBody(c, '{ "name": "...", "pem": "-----BEGIN PUBLIC KEY-----..." }');
    if (typeof pem !== 'string' || !pem.includes('BEGIN PUBLIC KEY'))
      throw new ApiError(400, 'pem must be a public key in PEM (erpcert keygen writes one beside the private key)');
    if (name !== undefined && (typeof name !== 'string' || name.length > 200))
      throw new ApiError(400, 'name must be a string of at most 200 characters');
    const key = await store.registerKey(pem, (name as string | undefined) ?? 'unnamed', organisationId);
    await audit.record({
      actor: actorOf(c),
      organisationId,
      action: 'register-key',
      subject: key.fingerprint,
      detail: { name: key.name },
      address: clientAddress(c, trustProxy),
    });
    return c.json({ key }, 201);
  });
  return app;
}
