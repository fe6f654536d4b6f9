/**
 * From the groups a provider says a user is in to memberships on the hub: (organisation, role) pairs, one role per
 * organisation (the strongest when several groups name the same one), and whether the user is an admin of the hub.
 * Two ways, both on by default and usable together: the pattern `<prefix><organisation>:<role>` (`erpcert:acme:engineer`)
 * and an explicit map from a group value (an LDAP DN, an Entra object id, ...) to `"<organisation>:<role>"`.
 * A group that maps to nothing is ignored: it is someone else's group, not an error.
 */

export const ROLES = ['admin', 'certifier', 'engineer', 'viewer'] as const;
export type OrgRole = (typeof ROLES)[number];

export interface Membership {
  /** The organisation's slug. */
  readonly organisation: string;
  readonly role: OrgRole;
}

export interface GroupMapping {
  /** `''`: the pattern is off. */
  readonly prefix: string;
  readonly explicit: ReadonlyMap<string, readonly Membership[]>;
  /** `''`: no group makes a hub admin. */
  readonly adminGroup: string;
}

export interface MappedGroups {
  readonly memberships: readonly Membership[];
  readonly admin: boolean;
}

/** An organisation slug: lower-case letters, digits and inner hyphens, at most 63 characters. */
export const ORG_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A group map that is not what --oidc-group-map expects. */
export class GroupMapError extends Error {
  override readonly name = 'GroupMapError';
}

const isRole = (s: string): s is OrgRole => (ROLES as readonly string[]).includes(s);

/** `"acme:engineer"` -> a membership, or undefined when it is not one. */
export function parseMembership(text: string): Membership | undefined {
  const colon = text.lastIndexOf(':');
  if (colon < 0) return undefined;
  const organisation = text.slice(0, colon);
  const role = text.slice(colon + 1);
  return ORG_SLUG.test(organisation) && isRole(role) ? { organisation, role } : undefined;
}

/** The explicit map as JSON `{ "<group>": "<org>:<role>" | ["<org>:<role>", ...] }`; undefined: none. */
export function parseGroupMap(doc: unknown): ReadonlyMap<string, readonly Membership[]> {
  const map = new Map<string, readonly Membership[]>();
  if (doc === undefined) return map;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new GroupMapError('must be a JSON object: { "<group>": "<organisation>:<role>" or a list of them }');
  for (const [group, value] of Object.entries(doc)) {
    if (group === '') throw new GroupMapError('a group name is empty');
    const texts: unknown[] = Array.isArray(value) ? value : [value];
    if (texts.length === 0) throw new GroupMapError(`group ${JSON.stringify(group)} maps to an empty list`);
    const memberships = texts.map((t) => {
      const m = typeof t === 'string' ? parseMembership(t) : undefined;
      if (!m)
        throw new GroupMapError(
          `group ${JSON.stringify(group)}: ${JSON.stringify(t)} is not "<organisation>:<role>" ` +
            `(organisation: lower-case letters, digits, hyphens; role: ${ROLES.join(', ')})`,
        );
      return m;
    });
    map.set(group, memberships);
  }
  return map;
}

/** The memberships and admin flag the groups give. */
export function mapGroups(groups: readonly string[], mapping: GroupMapping): MappedGroups {
  const best = new Map<string, OrgRole>();
  const grant = (m: Membership) => {
    const had = best.get(m.organisation);
    if (had === undefined || ROLES.indexOf(m.role) < ROLES.indexOf(had)) best.set(m.organisation, m.role);
  };
  for (const g of groups) {
    for (const m of mapping.explicit.get(g) ?? []) grant(m);
    if (mapping.prefix !== '' && g.startsWith(mapping.prefix)) {
      const m = parseMembership(g.slice(mapping.prefix.length));
      if (m) grant(m);
    }
  }
  const memberships = [...best]
    .map(([organisation, role]) => ({ organisation, role }))
    .sort((a, b) => a.organisation.localeCompare(b.organisation));
  return { memberships, admin: mapping.adminGroup !== '' && groups.includes(mapping.adminGroup) };
}

/** The groups claim as a list of strings: an array (non-strings dropped), one string, or nothing. */
export function groupsOf(claims: Readonly<Record<string, unknown>>, claim: string): string[] {
  let value: unknown = claims[claim];
  // a nested claim (`realm_access.roles`) when no claim has the dotted name itself
  if (value === undefined && claim.includes('.')) {
    value = claim.split('.').reduce<unknown>((at, key) => {
      return typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined;
    }, claims);
  }
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}
