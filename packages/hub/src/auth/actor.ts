/**
 * Who is asking (issue 26): a signed-in user with a role in each organisation it belongs to, an API token of one
 * organisation with its scopes, or nobody. Every route asks {@link can} (permissions.ts) with the organisation of
 * the object it touches; what it may not read is answered 404, as if it did not exist.
 */
import type { RoleName } from '../store/schema.js';

/** A member's role in one organisation. */
export type Role = RoleName;
export const ROLES: readonly Role[] = ['admin', 'certifier', 'engineer', 'viewer'];

/** What an API token may do. */
export type Scope = 'publish' | 'read' | 'run';
export const SCOPES: readonly Scope[] = ['publish', 'read', 'run'];

export interface Membership {
  readonly organisationId: number;
  readonly organisationSlug: string;
  readonly organisationName: string;
  readonly role: Role;
}

export interface UserActor {
  readonly kind: 'user';
  readonly userId: number;
  readonly email: string;
  readonly memberships: readonly Membership[];
  /** The session the request came with (a cookie); its CSRF token is bound to it. */
  readonly sessionId: number;
  /**
   * An operator of the whole hub (users.hub_admin): makes organisations and certifying bodies. No role in any
   * organisation comes with it ({@link can} ignores it). An API token is never one.
   */
  readonly hubAdmin: boolean;
}

export interface TokenActor {
  readonly kind: 'token';
  readonly tokenId: number;
  readonly name: string;
  readonly organisationId: number;
  readonly scopes: readonly Scope[];
}

export interface AnonymousActor {
  readonly kind: 'anonymous';
}

export type Actor = UserActor | TokenActor | AnonymousActor;

export const ANONYMOUS: AnonymousActor = { kind: 'anonymous' };

/** How the audit log names an actor: an id and an email or token name, never a secret. */
export function actorLabel(a: Actor): string {
  if (a.kind === 'user') return `user:${a.userId} ${a.email}`;
  if (a.kind === 'token') return `token:${a.tokenId} ${a.name}`;
  return 'anonymous';
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

export function isScope(v: unknown): v is Scope {
  return typeof v === 'string' && (SCOPES as readonly string[]).includes(v);
}
