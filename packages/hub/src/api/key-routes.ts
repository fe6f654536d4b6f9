/** Signing keys the hub trusts: runs they sign show "verified, key sha256:…". Registering one needs the token. */
import { Hono } from 'hono';
import type { HubStore } from '../store/hub-store.js';
import { DEFAULT_ORGANISATION_ID } from '../store/migrations/0003-accounts.js';
import { ApiError } from './api-error.js';
import { requireToken } from './bearer-token.js';

export function keyRoutes(store: HubStore, token: string | undefined): Hono {
  const app = new Hono();
  app.get('/keys', async (c) => c.json({ keys: await store.keys([DEFAULT_ORGANISATION_ID]) }));
  app.post('/keys', requireToken(token), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new ApiError(400, 'send JSON: { "name": "...", "pem": "-----BEGIN PUBLIC KEY-----..." }');
    }
    const { name, pem } = (body ?? {}) as { name?: unknown; pem?: unknown };
    if (typeof pem !== 'string' || !pem.includes('BEGIN PUBLIC KEY'))
      throw new ApiError(400, 'pem must be a public key in PEM (erpcert keygen writes one beside the private key)');
    if (name !== undefined && (typeof name !== 'string' || name.length > 200))
      throw new ApiError(400, 'name must be a string of at most 200 characters');
    const key = await store.registerKey(pem, (name as string | undefined) ?? 'unnamed', DEFAULT_ORGANISATION_ID);
    return c.json({ key }, 201);
  });
  return app;
}
