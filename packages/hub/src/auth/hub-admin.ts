/**
 * What a hub admin (an operator of the whole hub, users.hub_admin) does, for the API and the pages alike: list every
 * organisation, make one (with its first admin: an email given, a new user getting a one-time sign-in link shown
 * once, or the hub admin), and make an organisation a certifying body or stop it being one. Each is checked here
 * (`hubAdminOf`: nobody 401; an API token, or a person who is no hub admin, 403, whatever role it has in any
 * organisation) and written to the audit log here.
 */
import type { Context } from 'hono';
import { ApiError } from '../api/api-error.js';
import {
  AccountError,
  normalEmail,
  ORGANISATION_SLUG,
  type OrganisationEntry,
  SLUG_RULE,
  type User,
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

  async create(c: Context, input: NewOrganisation): Promise<MadeOrganisation> {
    const op = hubAdminOf(c);
    const want = checked(input);
    const { accounts, audit } = this.auth;
    if (await accounts.organisationBySlug(want.slug))
      throw new ApiError(409, `slug: an organisation ${want.slug} exists already`);
    let admin: User | undefined;
    let secret: string | undefined;
    if (want.email !== undefined) admin = await accounts.userByEmail(want.email);
    let org: { id: number; slug: string };
    try {
      org = await accounts.createOrganisation(want.slug, want.name);
    } catch (err) {
      // made by another request since the check above
      if (err instanceof AccountError) throw new ApiError(err.status, err.message);
      throw err;
    }
    if (want.email !== undefined && !admin) {
      admin = await accounts.createUser(want.email);
      secret = await accounts.createSignInLink(admin.id, NEW_MEMBER_LINK_MINUTES);
    }
    const first = admin ?? { id: op.userId, email: op.email };
    await accounts.setMembership(first.id, org.id, 'admin');
    if (want.certifyingBody) await accounts.setCertifyingBody(org.id, true);
    const address = this.address(c);
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
