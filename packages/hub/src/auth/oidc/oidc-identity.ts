/**
 * The identity a completed sign-in hands over: what the provider vouched for in a verified ID token (and its
 * UserInfo, for the claims the ID token left out), and the memberships its groups map to.
 */
import type { Context } from 'hono';
import { groupsOf, type Membership, mapGroups } from './group-mapping.js';
import type { OidcSettings } from './oidc-settings.js';

export interface OidcIdentity {
  /** The `iss` of the ID token (the configured issuer: openid-client checks it). */
  readonly issuer: string;
  /** The `sub`: with the issuer, the user's stable key (an email can change hands). */
  readonly subject: string;
  readonly email: string | undefined;
  /** The provider's `email_verified`; false when absent. */
  readonly emailVerified: boolean;
  /** `name`, else `preferred_username`. */
  readonly name: string | undefined;
  /** The groups claim as the provider sent it. */
  readonly groups: readonly string[];
  /** What the groups give: one role per organisation. */
  readonly memberships: readonly Membership[];
  /** A member of the admin group. */
  readonly admin: boolean;
  /**
   * Whether an admin group is configured: only then does a sign-in decide the hub admin flag (given with the group,
   * taken away without it); without one the provider says nothing about it.
   */
  readonly adminGroupSet: boolean;
}

/** What happens once the identity is verified (by default auth/oidc-sign-in.ts: the user, the session), and the answer. */
export type OnSignedIn = (
  c: Context,
  identity: OidcIdentity,
  after: { readonly returnTo: string },
) => Response | Promise<Response>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The identity of verified claims (the ID token's over UserInfo's: the ID token is signed). */
export function identityOf(
  settings: OidcSettings,
  idToken: Readonly<Record<string, unknown>>,
  userInfo: Readonly<Record<string, unknown>> = {},
): OidcIdentity {
  const claims = { ...userInfo, ...idToken };
  const groups = groupsOf(claims, settings.groupsClaim);
  const { memberships, admin } = mapGroups(groups, settings.mapping);
  return {
    issuer: String(idToken.iss),
    subject: String(idToken.sub),
    email: text(claims.email),
    emailVerified: claims.email_verified === true,
    name: text(claims.name) ?? text(claims.preferred_username),
    groups,
    memberships,
    admin,
    adminGroupSet: settings.mapping.adminGroup !== '',
  };
}

/** Whether an ID token lacks a claim the identity is made of, so that UserInfo is worth asking. */
export function lacksClaims(settings: OidcSettings, idToken: Readonly<Record<string, unknown>>): boolean {
  return (
    groupsOf(idToken, settings.groupsClaim).length === 0 ||
    text(idToken.email) === undefined ||
    (text(idToken.name) ?? text(idToken.preferred_username)) === undefined
  );
}
