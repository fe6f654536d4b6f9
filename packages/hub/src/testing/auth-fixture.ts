/**
 * One fixture of accounts for the hub's tests: the default organisation (where the sample runs are published)
 * with a user of each role, a rival organisation with its own admin, a hub admin who belongs to no organisation, and API tokens of the default organisation
 * for each scope (and one with all three). Sessions are opened directly (no password round trip): each user's
 * `headers` carry its cookie and CSRF token, each token's its bearer header.
 */
import type { Role, Scope } from '../auth/actor.js';
import { type HubAuth, hubAuth } from '../auth/hub-auth.js';
import { csrfTokenOf, SESSION_COOKIE } from '../auth/sessions.js';
import type { HubStore } from '../store/hub-store.js';
import { DEFAULT_ORGANISATION_ID } from '../store/migrations/0003-accounts.js';

/** A low scrypt cost for tests (the machine is shared); the hub itself uses OWASP's. */
export const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 } as const;
export const TEST_PASSWORD = 'a long test password 1';

/** The people of the fixture: a member of each role, the rival's admin, and a hub admin of no organisation. */
export type Person = Role | 'outsider' | 'hub-admin';
export type Who = Person | `token-${Scope}` | 'token-all' | 'anonymous';

export interface FixtureUser {
  readonly id: number;
  readonly email: string;
  readonly session: string;
  readonly csrf: string;
}

export interface AuthFixture {
  readonly auth: HubAuth;
  readonly org: number;
  readonly rival: number;
  readonly users: Readonly<Record<Person, FixtureUser>>;
  readonly tokens: Readonly<Record<Scope | 'all', string>>;
  /** The request headers of `who`: a cookie and X-CSRF-Token, a bearer token, or nothing. */
  headers(who: Who): Record<string, string>;
}

export async function seedAuth(
  store: HubStore,
  auth: HubAuth = hubAuth(store.db, { scrypt: TEST_SCRYPT }),
): Promise<AuthFixture> {
  const org = DEFAULT_ORGANISATION_ID;
  const rival = (await auth.accounts.createOrganisation('rival', 'Rival vendor')).id;
  const user = async (name: string, role: Role, organisationId: number): Promise<FixtureUser> => {
    const email = `${name}@example.com`;
    const u = await auth.accounts.createUser(email, TEST_PASSWORD);
    await auth.accounts.setMembership(u.id, organisationId, role);
    const { secret } = await auth.sessions.open(u.id, 'password');
    return { id: u.id, email, session: secret, csrf: csrfTokenOf(secret) };
  };
  // an operator of the hub: makes organisations and certifying bodies, a member of none
  const hubAdmin = async (): Promise<FixtureUser> => {
    const email = 'hub-admin@example.com';
    const u = await auth.accounts.createUser(email, TEST_PASSWORD);
    await auth.accounts.setHubAdmin(u.id, true);
    const { secret } = await auth.sessions.open(u.id, 'password');
    return { id: u.id, email, session: secret, csrf: csrfTokenOf(secret) };
  };
  const users = {
    admin: await user('admin', 'admin', org),
    certifier: await user('certifier', 'certifier', org),
    engineer: await user('engineer', 'engineer', org),
    viewer: await user('viewer', 'viewer', org),
    outsider: await user('outsider', 'admin', rival),
    'hub-admin': await hubAdmin(),
  };
  const token = async (scopes: Scope[], name: string) =>
    (await auth.tokens.create({ organisationId: org, name, scopes, days: 30, createdBy: users.admin.id })).secret;
  const tokens = {
    publish: await token(['publish'], 'ci publish'),
    read: await token(['read'], 'reader'),
    run: await token(['run'], 'runner'),
    all: await token(['publish', 'read', 'run'], 'everything'),
  };
  return {
    auth,
    org,
    rival,
    users,
    tokens,
    headers(who): Record<string, string> {
      if (who === 'anonymous') return {};
      if (who.startsWith('token-')) return { authorization: `Bearer ${tokens[who.slice(6) as Scope | 'all']}` };
      const u = users[who as Person];
      return { cookie: `${SESSION_COOKIE}=${u.session}`, 'x-csrf-token': u.csrf };
    },
  };
}
