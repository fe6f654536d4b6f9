/**
 * What a hub admin (an operator of the whole hub, users.hub_admin) does, for the API and the pages alike: list every
 * organisation, make one (with its first admin: an email given, a new user getting a one-time sign-in link shown
 * once, or the hub admin; all of it in one transaction), and make an organisation a certifying body or stop it being
 * one. Each is checked here (`hubAdminOf`: nobody 401; an API token, or a person who is no hub admin, 403, whatever
 * role it has in any organisation) and written to the audit log here.
 */
import type { Context } from 'hono';
import { ApiError } from '../api/api-error.js';
import {
  AccountError,
  type Accounts,
  normalEmail,
  ORGANISATION_SLUG,
  type OrganisationEntry,
  SLUG_RULE,
} from './accounts.js';
import type { UserActor } from './actor.js';
import type { HubAuth } from './hub-auth.js';
import { NEW_MEMBER_LINK_MINUTES, signInLinkPath } from './org-admin.js';
import { managesOrganisations } from './permissions.js';
import { actorOf, clientAddress } from './request-auth.js';

const NOT_HUB_ADMIN =
  'only a hub admin makes organisations and certifying bodies (an organisation admin manages its own members)';

/** The signed-in hub admin, or the refusal: nobody 401, a token or anyone else 403. */
export function hubAdminOf(c: Context): UserActor {
  const a = actorOf(c);
  if (a.kind === 'anonymous') throw new ApiError(401, 'sign in first');
  if (a.kind === 'token') throw new ApiError(403, `an API token is never a hub admin: ${NOT_HUB_ADMIN}`);
  if (!managesOrganisations(a)) throw new ApiError(403, NOT_HUB_ADMIN);
  return a;
}

/** A new organisation as asked (JSON or a form, already read into fields). */
export interface NewOrganisation {
  readonly slug: unknown;
  readonly name: unknown;
  readonly certifyingBody?: unknown;
  /** The first admin's email; absent or empty: the hub admin itself. */
  readonly adminEmail?: unknown;
}

export interface MadeOrganisation {
  readonly organisation: OrganisationEntry;
  readonly admin: { readonly id: number; readonly email: string };
  /** A new first admin's one-time sign-in link (a path): shown this once. */
  readonly signInLink?: string;
}

/** The request's fields checked before anything is written: 400 naming the field that is wrong. */
function checked(input: NewOrganisation): { slug: string; name: string; certifyingBody: boolean; email?: string } {
  if (typeof input.slug !== 'string' || !ORGANISATION_SLUG.test(input.slug))
    throw new ApiError(400, `slug: an organisation slug is ${SLUG_RULE}`);
  const name = input.name === undefined || input.name === null ? input.slug : input.name;
  if (typeof name !== 'string' || name.trim().length === 0 || name.trim().length > 200)
    throw new ApiError(400, 'name: an organisation name has 1 to 200 characters');
  const flag = input.certifyingBody ?? false;
  if (typeof flag !== 'boolean') throw new ApiError(400, 'certifyingBody: true or false');
  const raw = input.adminEmail;
  if (raw === undefined || raw === null || raw === '')
    return { slug: input.slug, name: name.trim(), certifyingBody: flag };
  let email: string;
  try {
    email = normalEmail(raw);
  } catch {
    throw new ApiError(400, 'adminEmail: give the email address of the first admin (or none: you become it)');
  }
  return { slug: input.slug, name: name.trim(), certifyingBody: flag, email };
}

/**
 * One step of making an organisation: an {@link AccountError}, or a unique index refusing a row another request made
 * at the same moment, becomes the refusal naming `field` (thrown inside the transaction: nothing stays).
 */
async function step<T>(field: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AccountError) throw new ApiError(err.status, `${field}: ${err.message}; nothing was made`);
    if (uniqueViolation(err))
      throw new ApiError(409, `${field}: made by another request at the same moment; nothing was made, try again`);
    throw err;
  }
}

/** A unique index refused the row: PostgreSQL's 23505, SQLite's SQLITE_CONSTRAINT_UNIQUE. */
function uniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * The first admin of a new organisation: the hub admin (no email), the user with that email, or a new user with a
 * one-time sign-in link. A disabled account is refused: the organisation would have no admin who can sign in.
 */
async function firstAdmin(
  accounts: Accounts,
  op: UserActor,
  email: string | undefined,
): Promise<{ first: { id: number; email: string }; secret?: string }> {
  if (email === undefined) return { first: { id: op.userId, email: op.email } };
  const known = await accounts.userByEmail(email);
  if (known?.disabled)
    throw new AccountError(`the account ${known.email} is disabled: the first admin must be able to sign in`, 409);
  if (known) return { first: known };
  const made = await accounts.createUser(email);
  return { first: made, secret: await accounts.createSignInLink(made.id, NEW_MEMBER_LINK_MINUTES) };
}

export class HubAdmin {
  constructor(private readonly auth: HubAuth) {}

  private address(c: Context): string {
    return clientAddress(c, this.auth.trustProxy);
  }

  /** Every organisation, with whether it is a certifying body. */
  async list(c: Context): Promise<OrganisationEntry[]> {
    hubAdminOf(c);
    return this.auth.accounts.allOrganisations();
  }

  /**
   * Makes the organisation, its first admin (a new user with a one-time sign-in link, or an existing one, or the hub
   * admin), the membership, the certifying body and their audit entries in one transaction: when any step fails,
   * nothing of it stays (no organisation without an admin), and the refusal names the step.
   */
  async create(c: Context, input: NewOrganisation): Promise<MadeOrganisation> {
    const op = hubAdminOf(c);
    const want = checked(input);
    const address = this.address(c);
    if (await this.auth.accounts.organisationBySlug(want.slug))
      throw new ApiError(409, `slug: an organisation ${want.slug} exists already`);
    return this.auth.accounts.transaction(async (accounts, trx) => {
      const audit = this.auth.audit.within(trx);
      // made by another request since the check above: refused, as the unique slug would
      const org = await step('slug', () => accounts.createOrganisation(want.slug, want.name));
      const { first, secret } = await step('adminEmail', () => firstAdmin(accounts, op, want.email));
      await accounts.setMembership(first.id, org.id, 'admin');
      if (want.certifyingBody) await accounts.setCertifyingBody(org.id, true);
      const subject = `organisation:${org.id} ${org.slug}`;
      await audit.record({
        actor: op,
        organisationId: org.id,
        action: 'create-organisation',
        subject,
        detail: { name: want.name, certifyingBody: want.certifyingBody },
        address,
      });
      await audit.record({
        actor: op,
        organisationId: org.id,
        action: 'add-member',
        subject: `user:${first.id} ${first.email}`,
        detail: { role: 'admin', newUser: secret !== undefined },
        address,
      });
      if (want.certifyingBody)
        await audit.record({
          actor: op,
          organisationId: org.id,
          action: 'make-certifying-body',
          subject,
          detail: { certifyingBody: true },
          address,
        });
      const organisation = (await accounts.organisationEntry(org.id)) as OrganisationEntry;
      return {
        organisation,
        admin: { id: first.id, email: first.email },
        ...(secret ? { signInLink: signInLinkPath(secret) } : {}),
      };
    });
  }

  /** Makes organisation `id` a certifying body (`on`) or stops it being one; audited when it changes. */
  async setCertifyingBody(c: Context, id: number, on: unknown): Promise<OrganisationEntry> {
    const op = hubAdminOf(c);
    if (typeof on !== 'boolean') throw new ApiError(400, 'certifyingBody: true or false');
    const before = await this.auth.accounts.organisationEntry(id);
    if (!before) throw new ApiError(404, `there is no organisation ${id}`);
    if (before.certifyingBody === on) return before;
    await this.auth.accounts.setCertifyingBody(id, on);
    await this.auth.audit.record({
      actor: op,
      organisationId: id,
      action: 'make-certifying-body',
      subject: `organisation:${id} ${before.slug}`,
      detail: { certifyingBody: on },
      address: this.address(c),
    });
    return { ...before, certifyingBody: on };
  }
}
