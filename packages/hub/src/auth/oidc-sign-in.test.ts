/**
 * The OpenID Connect seam with accounts (oidc-sign-in.ts): a verified identity makes its user with exactly the
 * memberships its groups give (in organisations that exist), opens a session and goes back; the same subject again is
 * the same user; no email, an unverified email or a disabled user get a refusal, no session and no user.
 */
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthFixture, seedAuth } from '../testing/auth-fixture.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import type { OidcIdentity } from './oidc/oidc-identity.js';
import { oidcSignIn } from './oidc-sign-in.js';
import { authenticate } from './request-auth.js';
import { SESSION_COOKIE } from './sessions.js';

const identity = (over: Partial<OidcIdentity> = {}): OidcIdentity => ({
  issuer: 'https://id.example.com',
  subject: 'sub-alice',
  email: 'alice@acme.example',
  emailVerified: true,
  name: 'Alice',
  groups: ['erpcert:default:engineer', 'erpcert:nowhere:admin'],
  memberships: [
    { organisation: 'default', role: 'engineer' },
    { organisation: 'nowhere', role: 'admin' },
  ],
  admin: false,
  adminGroupSet: false,
  ...over,
});

describe('oidcSignIn', () => {
  let t: TestStore;
  let fx: AuthFixture;
  /** The callback as oidc-routes.ts calls it: the identity in, the seam's answer out. */
  const callback = async (id: OidcIdentity) => {
    const app = new Hono();
    app.use('*', authenticate(fx.auth));
    app.get('/cb', (c) => oidcSignIn(fx.auth)(c, id, { returnTo: '/runs/1' }));
    return app.request('/cb');
  };
  beforeAll(async () => {
    t = await freshStore('sqlite');
    fx = await seedAuth(t.store);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('makes the user with the memberships of organisations that exist, opens a session and goes back', async () => {
    const res = await callback(identity());
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/runs/1');
    const secret = /erpcert_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+;.*HttpOnly`));
    const session = await fx.auth.sessions.resolve(secret);
    const user = await fx.auth.accounts.userByEmail('alice@acme.example');
    expect(session?.userId).toBe(user?.id);
    expect((await fx.auth.accounts.memberships(user?.id ?? -1)).map((m) => [m.organisationSlug, m.role])).toEqual([
      ['default', 'engineer'],
    ]);
    expect(await fx.auth.audit.raw()).toContain('"subject":"oidc"');
    // the same subject again, its groups changed: the same user, its memberships now exactly these
    const again = await callback(
      identity({ email: 'alice@new.example', memberships: [{ organisation: 'rival', role: 'viewer' }] }),
    );
    expect(again.status).toBe(303);
    expect((await fx.auth.accounts.userByEmail('alice@new.example'))?.id).toBe(user?.id);
    expect((await fx.auth.accounts.memberships(user?.id ?? -1)).map((m) => [m.organisationSlug, m.role])).toEqual([
      ['rival', 'viewer'],
    ]);
  });

  const refused: [string, Partial<OidcIdentity>, RegExp][] = [
    ['no email', { subject: 'sub-none', email: undefined }, /sent no email address/],
    [
      'an email the provider did not verify',
      { subject: 'sub-unverified', email: 'viewer@example.com', emailVerified: false },
      /has not verified the email address/,
    ],
  ];
  it.each(refused)('refuses an identity with %s: no session, no user made or taken over', async (_n, over, message) => {
    const res = await callback(identity(over));
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(message);
    expect(res.headers.get('set-cookie')).toBeNull();
    // the existing viewer@example.com was not linked to this subject
    const viewer = await fx.auth.accounts.userByEmail('viewer@example.com');
    expect(viewer?.id).toBe(fx.users.viewer.id);
    expect(
      await t.store.db
        .selectFrom('users')
        .select('id')
        .where('oidc_subject', '=', over.subject as string)
        .execute(),
    ).toEqual([]);
  });

  it('gives the hub admin flag with the admin group and takes it away without it, audited; without an admin group it stays', async () => {
    const bob = (over: Partial<OidcIdentity>) =>
      callback(identity({ subject: 'sub-bob', email: 'bob@acme.example', ...over }));
    const flag = async () => (await fx.auth.accounts.userByEmail('bob@acme.example'))?.hubAdmin;
    const audited = async () =>
      (await t.store.db.selectFrom('audit_log').select(['action', 'subject', 'organisation_id']).execute()).filter(
        (e) => e.action.endsWith('hub-admin'),
      );
    expect((await bob({ adminGroupSet: true, admin: true })).status).toBe(303);
    expect(await flag()).toBe(true);
    // the session of a sign-in with the group carries it
    const again = await bob({ adminGroupSet: true, admin: true });
    const secret = /erpcert_session=([^;]+)/.exec(again.headers.get('set-cookie') ?? '')?.[1] ?? '';
    expect((await fx.auth.sessions.resolve(secret))?.hubAdmin).toBe(true);
    // no admin group configured: the provider says nothing about it, the flag stays
    expect((await bob({ adminGroupSet: false, admin: false })).status).toBe(303);
    expect(await flag()).toBe(true);
    // the group configured, the user no longer in it: taken away
    expect((await bob({ adminGroupSet: true, admin: false })).status).toBe(303);
    expect(await flag()).toBe(false);
    const user = await fx.auth.accounts.userByEmail('bob@acme.example');
    // one entry per change (the second sign-in with the group changed nothing), hub-wide (no organisation)
    expect(await audited()).toEqual([
      { action: 'grant-hub-admin', subject: `user:${user?.id} bob@acme.example`, organisation_id: null },
      { action: 'revoke-hub-admin', subject: `user:${user?.id} bob@acme.example`, organisation_id: null },
    ]);
  });

  it('refuses a disabled user: no session', async () => {
    await fx.auth.accounts.setDisabled(fx.users.certifier.id, true);
    const res = await callback(identity({ subject: 'sub-certifier', email: fx.users.certifier.email }));
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/This account is disabled/);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});
