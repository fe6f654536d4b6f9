/**
 * Organisations, users and memberships: what the org admin manages, what `erpcert hub --init-admin` creates, and
 * the seam for OpenID Connect (branch i26-oidc): {@link Accounts.upsertVerifiedIdentity} takes an identity the
 * provider vouched for and makes or updates its user and memberships; the caller then opens a session.
 */
import type { Kysely } from 'kysely';
import { Certification } from '../certification/certification-store.js';
import type { Database } from '../store/schema.js';
import { isRole, type Membership, type Role } from './actor.js';
import { hashPassword, passwordProblem, type ScryptCost } from './password.js';
import { LINK_PREFIX, newSecret, secretHash } from './secret-token.js';

export class AccountError extends Error {
  override readonly name = 'AccountError';
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
  }
}

export interface User {
  readonly id: number;
  readonly email: string;
  readonly name: string | null;
  readonly disabled: boolean;
  readonly hasPassword: boolean;
  /** An operator of the whole hub: makes organisations and certifying bodies (users.hub_admin, 0006). */
  readonly hubAdmin: boolean;
}

export interface Member extends User {
  readonly role: Role;
}

export interface Organisation {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
}

/** An organisation as the hub admin lists it: whether it is a certifying body too. */
export interface OrganisationEntry extends Organisation {
  readonly certifyingBody: boolean;
}

/** An organisation's slug (the CLI's --organisation and --certifying-body take the same). */
export const ORGANISATION_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const SLUG_RULE = 'lower-case letters, digits and dashes, starting with a letter or digit, at most 63';

/** An identity an OpenID Connect provider vouched for (its groups already mapped to memberships). */
export interface VerifiedIdentity {
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly name?: string;
  /** organisation slug -> role; the user's memberships become exactly these (in organisations that exist). */
  readonly memberships: Readonly<Record<string, Role>>;
  /**
   * Whether the provider says this user is a hub admin (its admin group): the flag becomes exactly this. Undefined:
   * the provider says nothing about it (no admin group configured), and the flag stays as it is.
   */
  readonly hubAdmin?: boolean;
}

/** What {@link Accounts.upsertVerifiedIdentity} did: the user, and the hub admin flag if it changed. */
export interface UpsertedIdentity {
  readonly userId: number;
  readonly hubAdminChanged?: { readonly from: boolean; readonly to: boolean };
}

/** A sign-in link lives this long by default. */
export const LINK_MINUTES = 15;

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}$/;

export function normalEmail(raw: unknown): string {
  if (typeof raw !== 'string' || !EMAIL.test(raw.trim())) throw new AccountError('give an email address');
  return raw.trim().toLowerCase();
}

export class Accounts {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
    /** The scrypt cost (tests lower it; the hub uses OWASP's). */
    private readonly cost?: ScryptCost,
  ) {}

  private at(): string {
    return this.now().toISOString();
  }

  /**
   * Runs `work` in one transaction (SQLite and PostgreSQL alike): the accounts and the database it is given write
   * inside it, and everything commits together or, when `work` throws, nothing does. Inside, use only what it is
   * given (on SQLite the transaction holds the one connection: a query through `this` would wait for it forever).
   */
  transaction<T>(work: (accounts: Accounts, trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new Accounts(trx, this.now, this.cost), trx));
  }

  async createOrganisation(slug: string, name: string): Promise<Organisation> {
    if (!ORGANISATION_SLUG.test(slug)) throw new AccountError(`an organisation slug is ${SLUG_RULE}`);
    if (name.length === 0 || name.length > 200) throw new AccountError('an organisation name has 1 to 200 characters');
    const existing = await this.organisationBySlug(slug);
    if (existing) throw new AccountError(`an organisation ${slug} exists already`, 409);
    const row = await this.db
      .insertInto('organisations')
      .values({ slug, name, created_at: this.at() })
      .returning(['id', 'slug', 'name'])
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), slug: row.slug, name: row.name };
  }

  async organisation(id: number): Promise<Organisation | undefined> {
    const r = await this.db.selectFrom('organisations').selectAll().where('id', '=', id).executeTakeFirst();
    return r && { id: Number(r.id), slug: r.slug, name: r.name };
  }

  async organisationBySlug(slug: string): Promise<Organisation | undefined> {
    const r = await this.db.selectFrom('organisations').selectAll().where('slug', '=', slug).executeTakeFirst();
    return r && { id: Number(r.id), slug: r.slug, name: r.name };
  }

  /** Every organisation, oldest first, with whether it is a certifying body (for hub admins). */
  async allOrganisations(): Promise<OrganisationEntry[]> {
    const rows = await this.db
      .selectFrom('organisations as o')
      .leftJoin('certifying_bodies as b', 'b.organisation_id', 'o.id')
      .select(['o.id', 'o.slug', 'o.name', 'b.organisation_id as body'])
      // by id, as a user's memberships are listed (the default organisation first)
      .orderBy('o.id')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), slug: r.slug, name: r.name, certifyingBody: r.body !== null }));
  }

  /** An organisation as the hub admin lists it, or undefined. */
  async organisationEntry(id: number): Promise<OrganisationEntry | undefined> {
    return (await this.allOrganisations()).find((o) => o.id === id);
  }

  /** Makes an organisation a certifying body, or stops it being one (certification's own store does it). */
  async setCertifyingBody(organisationId: number, on: boolean): Promise<void> {
    await new Certification(this.db, this.now).setCertifyingBody(organisationId, on);
  }

  /** Makes a user a hub admin or takes it away; answers whether it was one before. */
  async setHubAdmin(userId: number, on: boolean): Promise<boolean> {
    const before = await this.user(userId);
    if (!before) throw new AccountError(`there is no user ${userId}`, 404);
    await this.db
      .updateTable('users')
      .set({ hub_admin: on ? 1 : 0 })
      .where('id', '=', userId)
      .execute();
    return before.hubAdmin;
  }

  /** Makes a user; a password, when given, must pass {@link passwordProblem}. */
  async createUser(rawEmail: string, password?: string, name?: string): Promise<User> {
    const email = normalEmail(rawEmail);
    if (await this.userByEmail(email)) throw new AccountError(`a user ${email} exists already`, 409);
    let hash: string | null = null;
    if (password !== undefined) {
      const problem = passwordProblem(password);
      if (problem) throw new AccountError(problem);
      hash = await hashPassword(password, this.cost);
    }
    const row = await this.db
      .insertInto('users')
      .values({ email, name: name ?? null, password_hash: hash, created_at: this.at() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await this.user(Number(row.id))) as User;
  }

  async setPassword(userId: number, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw new AccountError(problem);
    const hash = await hashPassword(password, this.cost);
    await this.db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
  }

  async setDisabled(userId: number, disabled: boolean): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ disabled: disabled ? 1 : 0 })
      .where('id', '=', userId)
      .execute();
  }

  async user(id: number): Promise<User | undefined> {
    const r = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toUser(r);
  }

  async userByEmail(email: string): Promise<User | undefined> {
    const r = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return r && toUser(r);
  }

  /** The stored hash (for the sign-in check only). */
  async passwordHash(email: string): Promise<{ readonly userId: number; readonly hash: string | null } | undefined> {
    const r = await this.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'disabled'])
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return r && { userId: Number(r.id), hash: Number(r.disabled) ? null : r.password_hash };
  }

  /** Gives `userId` the role `role` in the organisation (a second call changes the role). */
  async setMembership(userId: number, organisationId: number, role: Role): Promise<void> {
    if (!isRole(role)) throw new AccountError('role must be admin, certifier, engineer or viewer');
    const existing = await this.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', userId)
      .where('organisation_id', '=', organisationId)
      .executeTakeFirst();
    if (existing)
      await this.db
        .updateTable('memberships')
        .set({ role })
        .where('user_id', '=', userId)
        .where('organisation_id', '=', organisationId)
        .execute();
    else
      await this.db
        .insertInto('memberships')
        .values({ user_id: userId, organisation_id: organisationId, role, created_at: this.at() })
        .execute();
  }

  /** Removes a member; the last admin of an organisation stays (someone must manage it). */
  async removeMembership(userId: number, organisationId: number): Promise<void> {
    const members = await this.members(organisationId);
    const m = members.find((x) => x.id === userId);
    if (!m) throw new AccountError(`user ${userId} is not a member`, 404);
    if (m.role === 'admin' && members.filter((x) => x.role === 'admin').length === 1)
      throw new AccountError('the last admin of an organisation cannot be removed', 409);
    await this.db
      .deleteFrom('memberships')
      .where('user_id', '=', userId)
      .where('organisation_id', '=', organisationId)
      .execute();
  }

  async members(organisationId: number): Promise<Member[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .selectAll('users')
      .select('memberships.role')
      .where('memberships.organisation_id', '=', organisationId)
      .orderBy('users.email')
      .execute();
    return rows.map((r) => ({ ...toUser(r), role: r.role }));
  }

  async memberships(userId: number): Promise<Membership[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('organisations', 'organisations.id', 'memberships.organisation_id')
      .select(['organisations.id', 'organisations.slug', 'organisations.name', 'memberships.role'])
      .where('memberships.user_id', '=', userId)
      .orderBy('organisations.id')
      .execute();
    return rows.map((r) => ({
      organisationId: Number(r.id),
      organisationSlug: r.slug,
      organisationName: r.name,
      role: r.role,
    }));
  }

  /** A one-time sign-in link's secret for `userId`: stored hashed, used once, expires in `minutes`. */
  async createSignInLink(userId: number, minutes = LINK_MINUTES): Promise<string> {
    const secret = newSecret(LINK_PREFIX);
    const now = this.now();
    await this.db
      .insertInto('sign_in_links')
      .values({
        token_hash: secretHash(secret),
        user_id: userId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + minutes * 60_000).toISOString(),
      })
      .execute();
    return secret;
  }

  /** Uses a sign-in link: its user, or undefined when unknown, used or expired. Never twice, even at once. */
  async useSignInLink(secret: string): Promise<number | undefined> {
    const at = this.at();
    const used = await this.db
      .updateTable('sign_in_links')
      .set({ used_at: at })
      .where('token_hash', '=', secretHash(secret))
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .returning('user_id')
      .executeTakeFirst();
    if (!used) return undefined;
    const user = await this.user(Number(used.user_id));
    return user && !user.disabled ? user.id : undefined;
  }

  /**
   * The OpenID Connect seam: finds the user by (issuer, subject), else by email (and links it), else creates it;
   * sets its memberships to the identity's (organisations that do not exist are skipped). Returns the user id;
   * the caller opens a session with `Sessions.open(id, 'oidc')`. The hub admin flag becomes the identity's
   * `hubAdmin` when it says (the provider is the source of truth); the answer says when that changed it.
   */
  async upsertVerifiedIdentity(id: VerifiedIdentity): Promise<UpsertedIdentity> {
    const email = normalEmail(id.email);
    let row = await this.db
      .selectFrom('users')
      .select(['id', 'disabled'])
      .where('oidc_issuer', '=', id.issuer)
      .where('oidc_subject', '=', id.subject)
      .executeTakeFirst();
    if (!row)
      row = await this.db.selectFrom('users').select(['id', 'disabled']).where('email', '=', email).executeTakeFirst();
    let userId: number;
    if (row) {
      userId = Number(row.id);
      await this.db
        .updateTable('users')
        .set({ email, oidc_issuer: id.issuer, oidc_subject: id.subject, ...(id.name ? { name: id.name } : {}) })
        .where('id', '=', userId)
        .execute();
    } else {
      const created = await this.db
        .insertInto('users')
        .values({
          email,
          name: id.name ?? null,
          oidc_issuer: id.issuer,
          oidc_subject: id.subject,
          created_at: this.at(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      userId = Number(created.id);
    }
    const wanted = new Map<number, Role>();
    for (const [slug, role] of Object.entries(id.memberships)) {
      const org = await this.organisationBySlug(slug);
      if (org && isRole(role)) wanted.set(org.id, role);
    }
    for (const m of await this.memberships(userId))
      if (!wanted.has(m.organisationId))
        await this.db
          .deleteFrom('memberships')
          .where('user_id', '=', userId)
          .where('organisation_id', '=', m.organisationId)
          .execute();
    for (const [org, role] of wanted) await this.setMembership(userId, org, role);
    if (id.hubAdmin === undefined) return { userId };
    const was = await this.setHubAdmin(userId, id.hubAdmin);
    return was === id.hubAdmin ? { userId } : { userId, hubAdminChanged: { from: was, to: id.hubAdmin } };
  }
}

function toUser(r: {
  id: unknown;
  email: string;
  name: string | null;
  disabled: unknown;
  password_hash: string | null;
  hub_admin: unknown;
}): User {
  return {
    id: Number(r.id),
    email: r.email,
    name: r.name,
    disabled: Number(r.disabled) === 1,
    hasPassword: r.password_hash !== null,
    hubAdmin: Number(r.hub_admin) === 1,
  };
}
