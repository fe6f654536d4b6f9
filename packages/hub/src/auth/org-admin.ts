/**
 * What an org admin does, for the API and the pages alike: add a member (a new user gets a one-time sign-in link,
 * shown once), change a role, remove a member (never the last admin), make and revoke API tokens. Each is checked
 * (`allow`) and written to the audit log here.
 */
import type { Context } from 'hono';
import { ApiError } from '../api/api-error.js';
import type { Member } from './accounts.js';
import { isRole, type UserActor } from './actor.js';
import { type ApiToken, scopesOf } from './api-tokens.js';
import type { HubAuth } from './hub-auth.js';
import { actorOf, allow, clientAddress } from './request-auth.js';

/** The signed-in user (a session), or 401; a token is refused here (403). */
export function signedInUser(c: Context): UserActor {
  const a = actorOf(c);
  if (a.kind === 'user') return a;
  if (a.kind === 'token') throw new ApiError(403, 'accounts are managed by a signed-in person, not by an API token');
  throw new ApiError(401, 'sign in first');
}

/** A new user's sign-in link lives a day (the admin hands it over). */
export const NEW_MEMBER_LINK_MINUTES = 24 * 60;

export const signInLinkPath = (secret: string) => `/sign-in/link?token=${encodeURIComponent(secret)}`;

export class OrgAdmin {
  constructor(private readonly auth: HubAuth) {}

  private address(c: Context): string {
    return clientAddress(c, this.auth.trustProxy);
  }

  /** Checks that the actor may do `action` in `org` (404 for another organisation's). */
  check(c: Context, action: 'manage-members' | 'manage-tokens' | 'read-audit', org: number): UserActor {
    allow(c, action, org, `organisation ${org}`);
    return signedInUser(c);
  }

  async addMember(
    c: Context,
    org: number,
    email: unknown,
    role: unknown,
  ): Promise<{ member: Member; signInLink?: string }> {
    const admin = this.check(c, 'manage-members', org);
    if (!isRole(role)) throw new ApiError(400, 'role must be admin, certifier, engineer or viewer');
    let user = typeof email === 'string' ? await this.auth.accounts.userByEmail(email) : undefined;
    let secret: string | undefined;
    if (!user) {
      user = await this.auth.accounts.createUser(String(email ?? ''));
      secret = await this.auth.accounts.createSignInLink(user.id, NEW_MEMBER_LINK_MINUTES);
    }
    const id = user.id;
    if ((await this.auth.accounts.members(org)).some((m) => m.id === id))
      throw new ApiError(409, `${user.email} is a member already: change the role instead`);
    await this.auth.accounts.setMembership(id, org, role);
    await this.auth.audit.record({
      actor: admin,
      organisationId: org,
      action: 'add-member',
      subject: `user:${id} ${user.email}`,
      detail: { role, newUser: secret !== undefined },
      address: this.address(c),
    });
    const member = (await this.auth.accounts.members(org)).find((m) => m.id === id) as Member;
    return { member, ...(secret ? { signInLink: signInLinkPath(secret) } : {}) };
  }

  async changeRole(c: Context, org: number, userId: number, role: unknown): Promise<Member> {
    const admin = this.check(c, 'manage-members', org);
    if (!isRole(role)) throw new ApiError(400, 'role must be admin, certifier, engineer or viewer');
    const members = await this.auth.accounts.members(org);
    const m = members.find((x) => x.id === userId);
    if (!m) throw new ApiError(404, `there is no member ${userId}`);
    if (m.role === 'admin' && role !== 'admin' && members.filter((x) => x.role === 'admin').length === 1)
      throw new ApiError(409, 'the last admin of an organisation stays admin');
    await this.auth.accounts.setMembership(userId, org, role);
    await this.auth.audit.record({
      actor: admin,
      organisationId: org,
      action: 'change-role',
      subject: `user:${userId} ${m.email}`,
      detail: { from: m.role, to: role },
      address: this.address(c),
    });
    return { ...m, role };
  }

  async removeMember(c: Context, org: number, userId: number): Promise<void> {
    const admin = this.check(c, 'manage-members', org);
    const m = (await this.auth.accounts.members(org)).find((x) => x.id === userId);
    if (!m) throw new ApiError(404, `there is no member ${userId}`);
    await this.auth.accounts.removeMembership(userId, org);
    await this.auth.audit.record({
      actor: admin,
      organisationId: org,
      action: 'remove-member',
      subject: `user:${userId} ${m.email}`,
      address: this.address(c),
    });
  }

  async createToken(
    c: Context,
    org: number,
    name: unknown,
    scopes: unknown,
    days: unknown,
  ): Promise<{ token: ApiToken; secret: string }> {
    const admin = this.check(c, 'manage-tokens', org);
    const made = await this.auth.tokens.create({
      organisationId: org,
      name: typeof name === 'string' ? name : '',
      scopes: scopesOf(scopes),
      days:
        typeof days === 'number' ? days : typeof days === 'string' && /^\d+$/.test(days) ? Number(days) : Number.NaN,
      createdBy: admin.userId,
    });
    await this.auth.audit.record({
      actor: admin,
      organisationId: org,
      action: 'create-token',
      subject: `token:${made.token.id} ${made.token.name}`,
      detail: { scopes: [...made.token.scopes], expiresAt: made.token.expiresAt },
      address: this.address(c),
    });
    return made;
  }

  async revokeToken(c: Context, org: number, id: number): Promise<ApiToken> {
    const admin = this.check(c, 'manage-tokens', org);
    const token = await this.auth.tokens.revoke(org, id);
    if (!token) throw new ApiError(404, `there is no token ${id}`);
    await this.auth.audit.record({
      actor: admin,
      organisationId: org,
      action: 'revoke-token',
      subject: `token:${token.id} ${token.name}`,
      address: this.address(c),
    });
    return token;
  }
}
