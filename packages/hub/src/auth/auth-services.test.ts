import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { hubAuth } from './hub-auth.js';
import { hashPassword, OWASP_SCRYPT, verifyPassword } from './password.js';
import { secretHash } from './secret-token.js';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

describe('passwords', () => {
  it("hash with scrypt at OWASP's cost by default, salted, and verify only the same password", async () => {
    const owasp = await hashPassword(PASSWORD);
    expect(owasp.split('$').slice(0, 4)).toEqual(['scrypt', String(OWASP_SCRYPT.N), '8', '1']);
    expect(await verifyPassword(PASSWORD, owasp)).toBe(true);
    // the rest at a low cost: the machine is shared
    const a = await hashPassword(PASSWORD, FAST);
    const b = await hashPassword(PASSWORD, FAST);
    expect(a).not.toBe(b);
    expect(a).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, a)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'scrypt$garbage')).toBe(false);
  }, 60_000);
});

describe('accounts, sessions, links, tokens, throttle, audit', () => {
  let t: TestStore;
  let clock = new Date('2026-11-27T10:00:00.000Z');
  const tick = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  let auth: ReturnType<typeof hubAuth>;
  beforeAll(async () => {
    t = await freshStore('sqlite');
    auth = hubAuth(t.store.db, { now: () => clock, scrypt: FAST });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('a session ends when idle too long, after its maximum age, on sign-out, and everywhere at once', async () => {
    const u = await auth.accounts.createUser('Ada@Example.com', PASSWORD);
    expect(u.email).toBe('ada@example.com');
    const org = await auth.accounts.createOrganisation('acme', 'Acme');
    await auth.accounts.setMembership(u.id, org.id, 'engineer');
    const s = await auth.sessions.open(u.id, 'password');
    // only the hash is stored
    const rows = await t.store.db.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toEqual([secretHash(s.secret)]);
    const actor = await auth.sessions.resolve(s.secret);
    expect(actor?.memberships.map((m) => [m.organisationSlug, m.role])).toEqual([['acme', 'engineer']]);
    tick(119 * 60_000);
    expect(await auth.sessions.resolve(s.secret)).toBeDefined();
    tick(119 * 60_000);
    expect(await auth.sessions.resolve(s.secret)).toBeDefined();
    tick(121 * 60_000);
    expect(await auth.sessions.resolve(s.secret)).toBeUndefined();

    const long = await auth.sessions.open(u.id, 'password');
    for (let i = 0; i < 7; i++) tick(100 * 60_000);
    for (let i = 0; i < 7; i++) {
      tick(100 * 60_000);
      if (i < 4) await auth.sessions.resolve(long.secret);
    }
    expect(await auth.sessions.resolve(long.secret)).toBeUndefined();

    const one = await auth.sessions.open(u.id, 'password');
    const two = await auth.sessions.open(u.id, 'password');
    await auth.sessions.close(one.secret);
    expect(await auth.sessions.resolve(one.secret)).toBeUndefined();
    expect(await auth.sessions.resolve(two.secret)).toBeDefined();
    await auth.sessions.open(u.id, 'password');
    expect(await auth.sessions.closeAll(u.id)).toBe(2);
    expect(await auth.sessions.resolve(two.secret)).toBeUndefined();

    const three = await auth.sessions.open(u.id, 'password');
    await auth.accounts.setDisabled(u.id, true);
    expect(await auth.sessions.resolve(three.secret)).toBeUndefined();
    await auth.accounts.setDisabled(u.id, false);
  });

  it('a sign-in link works once, and not after its expiry', async () => {
    const u = await auth.accounts.createUser('link@example.com');
    const link = await auth.accounts.createSignInLink(u.id, 15);
    const raw = await t.store.db.selectFrom('sign_in_links').selectAll().execute();
    expect(JSON.stringify(raw)).not.toContain(link);
    expect(await auth.accounts.useSignInLink(link)).toBe(u.id);
    expect(await auth.accounts.useSignInLink(link)).toBeUndefined();
    const late = await auth.accounts.createSignInLink(u.id, 15);
    tick(16 * 60_000);
    expect(await auth.accounts.useSignInLink(late)).toBeUndefined();
    expect(await auth.accounts.useSignInLink('ehl_nothing')).toBeUndefined();
  });

  it('an API token opens its organisation with its scopes until revoked or expired', async () => {
    const org = await auth.accounts.createOrganisation('ci-org', 'CI');
    const { token, secret } = await auth.tokens.create({
      organisationId: org.id,
      name: 'ci',
      scopes: ['publish', 'read'],
      days: 2,
      createdBy: null,
    });
    expect(JSON.stringify(await t.store.db.selectFrom('api_tokens').selectAll().execute())).not.toContain(secret);
    expect(await auth.tokens.resolve(secret)).toEqual({
      kind: 'token',
      tokenId: token.id,
      name: 'ci',
      organisationId: org.id,
      scopes: ['publish', 'read'],
    });
    // another organisation cannot revoke it
    expect(await auth.tokens.revoke(org.id + 100, token.id)).toBeUndefined();
    expect(await auth.tokens.resolve(secret)).toBeDefined();
    expect((await auth.tokens.revoke(org.id, token.id))?.revokedAt).not.toBeNull();
    expect(await auth.tokens.resolve(secret)).toBeUndefined();
    const short = await auth.tokens.create({
      organisationId: org.id,
      name: 'x',
      scopes: ['run'],
      days: 1,
      createdBy: null,
    });
    tick(86_400_000 + 1);
    expect(await auth.tokens.resolve(short.secret)).toBeUndefined();
    await expect(
      auth.tokens.create({ organisationId: org.id, name: 'y', scopes: ['admin' as 'read'], days: 1, createdBy: null }),
    ).rejects.toThrow(/scopes/);
  });

  it('failed sign-ins are slowed down per account, then locked, and an address is locked later', async () => {
    const email = 'victim@example.com';
    const fail = (addr = '10.0.0.1') => auth.throttle.recordAttempt(email, addr, false);
    for (let i = 0; i < 3; i++) {
      expect((await auth.throttle.check(email, '10.0.0.1')).allowed).toBe(true);
      await fail();
    }
    // three failures: the next waits 1 s after the last, then 2 s, 4 s ...
    expect(await auth.throttle.check(email, '10.0.0.1')).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
      locked: false,
    });
    tick(1000);
    expect((await auth.throttle.check(email, '10.0.0.1')).allowed).toBe(true);
    await fail();
    expect(await auth.throttle.check(email, '10.0.0.9')).toEqual({
      allowed: false,
      retryAfterSeconds: 2,
      locked: false,
    });
    for (let i = 4; i < 10; i++) {
      tick(2 ** (i - 3) * 1000);
      expect((await auth.throttle.check(email, '10.0.0.1')).allowed).toBe(true);
      await fail();
    }
    expect(await auth.throttle.check(email, '10.0.0.1')).toEqual({
      allowed: false,
      retryAfterSeconds: 15 * 60,
      locked: true,
    });
    tick(15 * 60_000);
    expect((await auth.throttle.check(email, '10.0.0.1')).allowed).toBe(true);

    // one address trying many accounts
    for (let i = 0; i < 100; i++) await auth.throttle.recordAttempt(`u${i}@example.com`, '10.9.9.9', false);
    const verdict = await auth.throttle.check('fresh@example.com', '10.9.9.9');
    expect(verdict.allowed).toBe(false);
    expect((await auth.throttle.check('fresh@example.com', '10.9.9.8')).allowed).toBe(true);
  });

  it('makes or updates a user from a verified OpenID Connect identity, its memberships from the groups', async () => {
    const vendor = await auth.accounts.createOrganisation('oidc-vendor', 'Vendor');
    const other = await auth.accounts.createOrganisation('oidc-other', 'Other');
    const id = {
      issuer: 'https://idp.example.com',
      subject: 'sub-1',
      email: 'Oidc@Example.com',
      memberships: { 'oidc-vendor': 'engineer', 'no-such-org': 'admin' },
    } as const;
    const { userId } = await auth.accounts.upsertVerifiedIdentity(id);
    expect((await auth.accounts.user(userId))?.email).toBe('oidc@example.com');
    expect((await auth.accounts.memberships(userId)).map((m) => [m.organisationSlug, m.role])).toEqual([
      ['oidc-vendor', 'engineer'],
    ]);
    // the same subject again: the same user, memberships now exactly the identity's
    const again = await auth.accounts.upsertVerifiedIdentity({
      ...id,
      email: 'renamed@example.com',
      memberships: { 'oidc-other': 'viewer' },
    });
    expect(again).toEqual({ userId });
    expect((await auth.accounts.user(userId))?.email).toBe('renamed@example.com');
    expect((await auth.accounts.memberships(userId)).map((m) => [m.organisationId, m.role])).toEqual([
      [other.id, 'viewer'],
    ]);
    expect(vendor.id).not.toBe(other.id);
    // the session it opens resolves to that user
    const s = await auth.sessions.open(userId, 'oidc');
    expect((await auth.sessions.resolve(s.secret))?.userId).toBe(userId);
  });

  it('the audit log redacts secret-named details and secret-looking values', async () => {
    const session = await auth.sessions.open((await auth.accounts.createUser('audit@example.com')).id, 'link');
    await auth.audit.record({
      actor: 'anonymous',
      organisationId: 1,
      action: 'save-target',
      subject: `target ${session.secret}`,
      detail: { password: 'hunter2hunter2', url: 'https://erp.example.com', note: `x ${session.secret}` },
    });
    const raw = await auth.audit.raw();
    expect(raw).not.toContain('hunter2hunter2');
    expect(raw).not.toContain(session.secret);
    expect(raw).toContain('https://erp.example.com');
    const [entry] = await auth.audit.list(1);
    expect(entry?.detail).toEqual({ password: '[redacted]', url: 'https://erp.example.com', note: 'x [redacted]' });
  });
});
