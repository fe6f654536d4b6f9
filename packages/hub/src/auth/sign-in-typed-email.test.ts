/**
 * A password typed into the email field of a sign-in (the API's and the page's) reaches neither the audit log nor
 * the throttle's table: the entry says "anonymous (not an email address)" and the count is kept under a key that is
 * not the text, and still counts. An address (or an account's own email, even one of an unusual shape) is kept as
 * typed, so an admin sees who was tried.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { TEST_PASSWORD, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { type HubAuth, hubAuth } from './hub-auth.js';
import { looksLikeAddress, NOT_AN_ADDRESS, typedEmail } from './typed-email.js';

const PLANTED = 'PLANTED-Pa55word-7f3a-typed-in-the-email-field';
const PLANTED_WITH_AT = 'planted-p@ssw0rd!-4be1';

describe('what the email field held, in the audit log and the throttle', () => {
  let t: TestStore;
  let auth: HubAuth;
  let app: ReturnType<typeof createHubApp>;
  let org: number;
  let clock = new Date('2026-11-27T09:00:00.000Z');

  beforeAll(async () => {
    t = await freshStore('sqlite');
    auth = hubAuth(t.store.db, { now: () => clock, scrypt: TEST_SCRYPT });
    org = (await auth.accounts.createOrganisation('typed', 'Typed')).id;
    // an account whose email is not of the usual shape (a host without a dot): still an account's email
    const ops = await auth.accounts.createUser('ops@localhost', TEST_PASSWORD);
    await auth.accounts.setMembership(ops.id, org, 'admin');
    app = createHubApp({ store: t.store, auth, log: () => {} });
  });
  afterAll(async () => {
    await t?.dispose();
  });
  // each test starts after the throttle's window of the one before
  beforeEach(() => {
    clock = new Date(clock.getTime() + 60 * 60_000);
  });

  const api = (email: string, password = 'wrong password here') =>
    app.request('/api/v1/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
  const page = (email: string, password = 'wrong password here') =>
    app.request('/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }),
    });
  const attempts = async () => JSON.stringify(await t.store.db.selectFrom('sign_in_attempts').selectAll().execute());
  const lastActor = async () =>
    (await t.store.db.selectFrom('audit_log').select('actor').orderBy('id', 'desc').executeTakeFirstOrThrow()).actor;

  it.each([
    ['the API', api],
    ['the sign-in page', page],
  ] as const)(
    'through %s: a password in the email field is "not an email address", and stored nowhere',
    async (_via, send) => {
      for (const planted of [PLANTED, PLANTED_WITH_AT, `  ${PLANTED.toUpperCase()}  `]) {
        const res = await send(planted);
        expect(res.status).toBe(401);
        expect(await lastActor()).toBe(NOT_AN_ADDRESS);
      }
      const stored = `${await auth.audit.raw()}${await attempts()}`.toLowerCase();
      for (const planted of [PLANTED, PLANTED_WITH_AT]) expect(stored.includes(planted.toLowerCase())).toBe(false);
      expect(stored).toContain('not-an-address:');
    },
  );

  it('still counts repeated failures of one such value: the fourth is slowed down (429)', async () => {
    const value = 'another-Pa55word-typed-there';
    for (let i = 0; i < 3; i++) expect((await api(value)).status).toBe(401);
    const slowed = await api(value);
    expect(slowed.status).toBe(429);
    expect(await lastActor()).toBe(NOT_AN_ADDRESS);
    expect((await attempts()).includes(value.toLowerCase())).toBe(false);
  });

  it("keeps an address, and an account's own email of an unusual shape, as typed", async () => {
    expect((await api('Nobody@Example.com')).status).toBe(401);
    expect(await lastActor()).toBe('anonymous (as nobody@example.com)');
    expect((await page('ops@localhost')).status).toBe(401);
    expect(await lastActor()).toBe('anonymous (as ops@localhost)');
    // the account's admin sees the failed sign-in in its organisation's log
    const [entry] = await auth.audit.list(org, { limit: 1 });
    expect(entry).toMatchObject({ action: 'sign-in-failed', actor: 'anonymous (as ops@localhost)' });
    expect(await attempts()).toContain('"email":"ops@localhost"');
    expect((await api('ops@localhost', TEST_PASSWORD)).status).toBe(201);
  });
});

describe("the throttle's table", () => {
  it('forgets attempts older than its window and lock: what was typed before is not kept for ever', async () => {
    const t = await freshStore('sqlite');
    try {
      let now = new Date('2026-11-27T09:00:00.000Z');
      const auth = hubAuth(t.store.db, { now: () => now, scrypt: TEST_SCRYPT });
      const kept = async () =>
        (await t.store.db.selectFrom('sign_in_attempts').select('email').execute()).map((r) => r.email).sort();
      await auth.throttle.recordAttempt('old@example.com', '10.0.0.1', false);
      now = new Date(now.getTime() + 14 * 60_000);
      await auth.throttle.recordAttempt('recent@example.com', '10.0.0.1', false);
      expect(await kept()).toEqual(['old@example.com', 'recent@example.com']);
      now = new Date(now.getTime() + 2 * 60_000);
      await auth.throttle.recordAttempt('now@example.com', '10.0.0.1', false);
      expect(await kept()).toEqual(['now@example.com', 'recent@example.com']);
    } finally {
      await t.dispose();
    }
  });
});

describe('looksLikeAddress', () => {
  it.each([
    ['viewer@example.com', true],
    ['first.last+tag@mail.example.co.uk', true],
    ['a@b.io', true],
    ['hunter2', false],
    ['p@ssw0rd', false],
    ['p@ssw0rd!', false],
    ['two@@example.com', false],
    ['with space@example.com', false],
    ['<a@example.com>', false],
    ['a@example.c0m', false],
    ['a@-example.com', false],
    [`${'x'.repeat(65)}@example.com`, false],
    // every part within its limit, the whole longer than 254 characters
    [`x@${Array(5).fill('d'.repeat(60)).join('.')}.com`, false],
  ])('%s: %s', (typed, want) => {
    expect(looksLikeAddress(typedEmail(typed))).toBe(want);
  });

  it('reads the field trimmed and in lower case, bounded; anything but a string as nothing', () => {
    expect(typedEmail('  Viewer@Example.COM ')).toBe('viewer@example.com');
    expect(typedEmail('y'.repeat(1000))).toHaveLength(320);
    expect(typedEmail(42)).toBe('');
  });
});
