/**
 * The hub-wide audit log (GET /api/v1/audit, the page /audit): a hub admin granted by the OpenID Connect admin group
 * and an organisation made by the API show there; the grant shows in no organisation's log, the organisation's own
 * business (its first admin added) stays out of it, and nobody but a hub admin reads it.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { type AuthFixture, seedAuth, type Who } from '../testing/auth-fixture.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import type { AuditEntry } from './audit-log.js';
import type { OidcIdentity } from './oidc/oidc-identity.js';
import { oidcSignIn } from './oidc-sign-in.js';
import { authenticate } from './request-auth.js';

const bob: OidcIdentity = {
  issuer: 'https://id.example.com',
  subject: 'sub-bob',
  email: 'bob@acme.example',
  emailVerified: true,
  name: 'Bob',
  groups: ['erpcert-admins'],
  memberships: [{ organisation: 'default', role: 'viewer' }],
  admin: true,
  adminGroupSet: true,
};

describe.each(testDialects)('the hub-wide audit log (on %s)', (dialect) => {
  let t: TestStore;
  let fx: AuthFixture;
  let app: ReturnType<typeof createHubApp>;

  beforeAll(async () => {
    t = await freshStore(dialect);
    fx = await seedAuth(t.store);
    app = createHubApp({ store: t.store, auth: fx.auth, log: () => {} });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const get = (who: Who, path: string) => app.request(path, { headers: fx.headers(who) });
  const entries = async (who: Who, path: string) => {
    const res = await get(who, path);
    expect(res.status, path).toBe(200);
    return ((await res.json()) as { entries: AuditEntry[] }).entries;
  };
  const what = (es: readonly AuditEntry[]) => es.map((e) => [e.action, e.subject]);

  it('shows a hub admin granted by OpenID Connect, and no organisation shows it', async () => {
    // the callback as oidc-routes.ts calls it: the provider's admin group makes bob a hub admin
    const cb = new Hono();
    cb.use('*', authenticate(fx.auth));
    cb.get('/cb', (c) => oidcSignIn(fx.auth)(c, bob, { returnTo: '/' }));
    expect((await cb.request('/cb')).status).toBe(303);
    const user = await fx.auth.accounts.userByEmail('bob@acme.example');
    const grant = ['grant-hub-admin', `user:${user?.id} bob@acme.example`];
    const hubWide = await entries('hub-admin', '/api/v1/audit');
    expect(what(hubWide)).toContainEqual(grant);
    expect(hubWide.find((e) => e.action === 'grant-hub-admin')).toMatchObject({
      organisationId: null,
      actor: `oidc ${bob.issuer}`,
      detail: { hubAdmin: true, by: 'the OpenID Connect admin group' },
    });
    // bob is a viewer of the default organisation: its log has his sign-in, not the grant
    const own = await entries('admin', `/api/v1/organisations/${fx.org}/audit`);
    expect(what(own)).toContainEqual(['sign-in', 'oidc']);
    expect(what(own)).not.toContainEqual(grant);
    expect(what(await entries('outsider', `/api/v1/organisations/${fx.rival}/audit`))).not.toContainEqual(grant);
  });

  it("shows an organisation made by the API; its first admin stays the organisation's own business", async () => {
    const res = await app.request('/api/v1/organisations', {
      method: 'POST',
      headers: { ...fx.headers('hub-admin'), 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'audited', certifyingBody: true, adminEmail: 'first@audited.example' }),
    });
    expect(res.status).toBe(201);
    const made = (await res.json()) as { organisation: { id: number }; admin: { id: number } };
    const id = made.organisation.id;
    const subject = `organisation:${id} audited`;
    const hubWide = await entries('hub-admin', '/api/v1/audit');
    expect(what(hubWide).slice(0, 2)).toEqual([
      ['make-certifying-body', subject],
      ['create-organisation', subject],
    ]);
    expect(hubWide[1]?.organisationId).toBe(id);
    const added = ['add-member', `user:${made.admin.id} first@audited.example`];
    expect(what(hubWide)).not.toContainEqual(added);
    // in its own log, all three; in another organisation's, none
    expect(what(await fx.auth.audit.list(id))).toEqual([
      ['make-certifying-body', subject],
      added,
      ['create-organisation', subject],
    ]);
    const other = what(await entries('admin', `/api/v1/organisations/${fx.org}/audit`));
    expect(other).not.toContainEqual(['create-organisation', subject]);
    expect(other).not.toContainEqual(added);
  });

  it("pages as the organisations' log does: newest first, `limit`, `before`; 400 beyond 500", async () => {
    const all = await entries('hub-admin', '/api/v1/audit');
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const [first, second] = [all[0]?.id, all[1]?.id];
    expect((await entries('hub-admin', '/api/v1/audit?limit=1')).map((e) => e.id)).toEqual([first]);
    expect((await entries('hub-admin', `/api/v1/audit?limit=1&before=${first}`)).map((e) => e.id)).toEqual([second]);
    const tooMany = await get('hub-admin', '/api/v1/audit?limit=501');
    expect([tooMany.status, ((await tooMany.json()) as { error: string }).error]).toEqual([
      400,
      'limit must be at most 500',
    ]);
  });

  it('the page /audit: the same entries for a hub admin, linked from /organisations', async () => {
    const organisations = await (await get('hub-admin', '/organisations')).text();
    expect(organisations).toContain('<a href="/audit">The hub\'s audit log</a>');
    expect(await (await get('admin', '/organisations')).text()).not.toContain('href="/audit"');
    const res = await get('hub-admin', '/audit');
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('<h1>Audit log of the hub</h1>');
    expect(text).toContain('<td>grant-hub-admin</td>');
    expect(text).toMatch(/<td>create-organisation<\/td><td>organisation:\d+ audited<\/td>/);
  });

  const refused: [Who, number][] = [
    ['admin', 403],
    ['outsider', 403],
    ['viewer', 403],
    ['token-all', 403],
    ['anonymous', 401],
  ];
  it.each(refused)('refuses %s (%i): the API and the page', async (who, status) => {
    const api = await get(who, '/api/v1/audit');
    expect(api.status).toBe(status);
    expect(JSON.stringify(await api.json())).not.toContain('grant-hub-admin');
    const page = await get(who, '/audit');
    if (who === 'anonymous') {
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toMatch(/^\/sign-in\?/);
    } else expect(page.status).toBe(403);
    expect(await page.text()).not.toContain('grant-hub-admin');
  });
});
