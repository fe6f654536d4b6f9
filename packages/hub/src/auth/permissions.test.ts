import { describe, expect, it } from 'vitest';
import { type Actor, ANONYMOUS, actorLabel, type Role, type Scope } from './actor.js';
import { ACTIONS, type Action, can, managesOrganisations, organisationsWhere } from './permissions.js';

const ORG = 7;
const OTHER = 8;

const member = (role: Role, organisationId = ORG): Actor => ({
  kind: 'user',
  userId: 3,
  email: 'a@example.com',
  sessionId: 1,
  hubAdmin: false,
  memberships: [{ organisationId, organisationSlug: 'o', organisationName: 'O', role }],
});
const hubAdmin = (): Actor => ({
  kind: 'user',
  userId: 4,
  email: 'op@example.com',
  sessionId: 3,
  hubAdmin: true,
  memberships: [],
});
const token = (...scopes: Scope[]): Actor => ({ kind: 'token', tokenId: 5, name: 'ci', organisationId: ORG, scopes });

// the expected answers, written out by hand: one row per actor, the actions it may do in ORG
const TABLE: readonly [string, Actor, readonly Action[]][] = [
  ['viewer', member('viewer'), ['read']],
  ['engineer', member('engineer'), ['read', 'publish', 'manage-runs', 'save-target', 'run']],
  ['certifier', member('certifier'), ['read', 'review']],
  [
    'admin',
    member('admin'),
    [
      'read',
      'publish',
      'manage-runs',
      'save-target',
      'run',
      'register-key',
      'manage-members',
      'manage-tokens',
      'read-audit',
    ],
  ],
  ['admin of another organisation', member('admin', OTHER), []],
  // a hub admin makes organisations; it gets no role in one by being a hub admin
  ['hub admin of no organisation', hubAdmin(), []],
  ['token read', token('read'), ['read']],
  ['token publish', token('publish'), ['publish']],
  ['token run', token('run'), ['run']],
  ['token publish+read', token('publish', 'read'), ['read', 'publish']],
  ['token without scopes', token(), []],
  ['no account', ANONYMOUS, []],
];

describe('can', () => {
  it.each(TABLE)('%s may do exactly its actions in its organisation', (_name, actor, allowed) => {
    for (const action of ACTIONS) expect([action, can(actor, action, ORG)]).toEqual([action, allowed.includes(action)]);
  });

  it.each(TABLE)('%s may do nothing in an organisation it does not belong to', (_name, actor) => {
    for (const action of ACTIONS) expect(can(actor, action, 99)).toBe(false);
  });

  it('takes the role of each organisation separately', () => {
    const both: Actor = {
      kind: 'user',
      userId: 1,
      email: 'b@example.com',
      sessionId: 2,
      hubAdmin: false,
      memberships: [
        { organisationId: ORG, organisationSlug: 'a', organisationName: 'A', role: 'viewer' },
        { organisationId: OTHER, organisationSlug: 'b', organisationName: 'B', role: 'engineer' },
      ],
    };
    expect(can(both, 'publish', ORG)).toBe(false);
    expect(can(both, 'publish', OTHER)).toBe(true);
    expect(organisationsWhere(both, 'read')).toEqual([ORG, OTHER]);
    expect(organisationsWhere(both, 'publish')).toEqual([OTHER]);
    expect(organisationsWhere(token('publish'), 'read')).toEqual([]);
    expect(organisationsWhere(ANONYMOUS, 'read')).toEqual([]);
  });

  it('names actors for the audit log by id and email or token name', () => {
    expect(actorLabel(member('viewer'))).toBe('user:3 a@example.com');
    expect(actorLabel(token('read'))).toBe('token:5 ci');
    expect(actorLabel(ANONYMOUS)).toBe('anonymous');
  });
});

describe('managesOrganisations', () => {
  it('is true for a signed-in hub admin only: never an org admin, another role, a token or nobody', () => {
    const everyScope = token('publish', 'read', 'run');
    const answers = [
      ...(['admin', 'certifier', 'engineer', 'viewer'] as const).map((r) => [r, managesOrganisations(member(r))]),
      ['token', managesOrganisations(everyScope)],
      ['anonymous', managesOrganisations(ANONYMOUS)],
      ['hub admin', managesOrganisations(hubAdmin())],
    ];
    expect(answers).toEqual([
      ['admin', false],
      ['certifier', false],
      ['engineer', false],
      ['viewer', false],
      ['token', false],
      ['anonymous', false],
      ['hub admin', true],
    ]);
  });
});
