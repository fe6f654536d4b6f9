/**
 * What each role and each token scope may do, in one place: `can(actor, action, organisationId)`.
 *
 * - viewer: reads its organisation's targets, runs, live runs, keys;
 * - engineer: reads, publishes runs, saves targets, starts, cancels and reruns live runs; deletes and relabels
 *   runs, shares them read-only (and revokes the links), submits them for certification (`manage-runs`);
 * - certifier: reads, and reviews the runs submitted for certification (the certification workflow is branch
 *   i26-cert's; this is its permission);
 * - admin: everything an engineer does, plus members, API tokens, signing keys and the audit log. Not `review`:
 *   certifying stays with certifiers (an organisation does not certify its own runs by making itself admin).
 *
 * A token has scopes instead of a role: `read`, `publish`, `run` (start, cancel, rerun). A token never manages
 * members, tokens, keys or targets, and never deletes, relabels, shares or submits a run (`manage-runs`): those need
 * a person. A CI token publishes, nothing more; a share link it could make would let it read what its scope does
 * not. Nobody (no account) may do anything.
 *
 * Above the organisations, a hub admin (an operator of the whole hub) makes organisations and says which are
 * certifying bodies ({@link managesOrganisations}); that gives it no role in any organisation: `can` ignores it.
 */
import type { Actor, Role, Scope } from './actor.js';

export type Action =
  | 'read'
  | 'publish'
  | 'manage-runs'
  | 'save-target'
  | 'run'
  | 'register-key'
  | 'manage-members'
  | 'manage-tokens'
  | 'read-audit'
  | 'review';

export const ACTIONS: readonly Action[] = [
  'read',
  'publish',
  'manage-runs',
  'save-target',
  'run',
  'register-key',
  'manage-members',
  'manage-tokens',
  'read-audit',
  'review',
];

const ENGINEER: readonly Action[] = ['read', 'publish', 'manage-runs', 'save-target', 'run'];

export const ROLE_ACTIONS: Readonly<Record<Role, ReadonlySet<Action>>> = {
  viewer: new Set(['read']),
  engineer: new Set(ENGINEER),
  certifier: new Set(['read', 'review']),
  admin: new Set([...ENGINEER, 'register-key', 'manage-members', 'manage-tokens', 'read-audit']),
};

export const SCOPE_ACTIONS: Readonly<Record<Scope, ReadonlySet<Action>>> = {
  read: new Set(['read']),
  publish: new Set(['publish']),
  run: new Set(['run']),
};

/** Whether `actor` may do `action` on what belongs to `organisationId`. */
export function can(actor: Actor, action: Action, organisationId: number): boolean {
  if (actor.kind === 'user')
    return actor.memberships.some((m) => m.organisationId === organisationId && ROLE_ACTIONS[m.role].has(action));
  if (actor.kind === 'token')
    return actor.organisationId === organisationId && actor.scopes.some((s) => SCOPE_ACTIONS[s].has(action));
  return false;
}

/** The organisations in which `actor` may do `action` (for lists: what it may read). */
export function organisationsWhere(actor: Actor, action: Action): number[] {
  if (actor.kind === 'user')
    return actor.memberships.filter((m) => ROLE_ACTIONS[m.role].has(action)).map((m) => m.organisationId);
  if (actor.kind === 'token') return can(actor, action, actor.organisationId) ? [actor.organisationId] : [];
  return [];
}

/**
 * Whether `actor` may make organisations and make one a certifying body (or stop it being one): a signed-in hub
 * admin only. No role of an organisation, no token and nobody may: an organisation never makes itself a certifying
 * body.
 */
export function managesOrganisations(actor: Actor): boolean {
  return actor.kind === 'user' && actor.hubAdmin;
}
