import { describe, expect, it } from 'vitest';
import { type GroupMapping, groupsOf, mapGroups, parseGroupMap, parseMembership } from './group-mapping.js';

const pattern: GroupMapping = { prefix: 'erpcert:', explicit: new Map(), adminGroup: 'erpcert:admin' };
const withMap: GroupMapping = {
  ...pattern,
  explicit: parseGroupMap({
    'cn=erp-engineers,ou=groups,dc=acme,dc=com': 'acme:engineer',
    'audit-team': ['certbody:certifier', 'acme:viewer'],
  }),
};

describe('mapGroups', () => {
  const cases: [string, readonly string[], GroupMapping, ReturnType<typeof mapGroups>][] = [
    [
      'the pattern',
      ['erpcert:acme:engineer'],
      pattern,
      { memberships: [{ organisation: 'acme', role: 'engineer' }], admin: false },
    ],
    [
      'groups of others are ignored',
      ['staff', 'erpcert-acme-engineer', 'x:acme:viewer'],
      pattern,
      { memberships: [], admin: false },
    ],
    ['an unknown role maps to nothing', ['erpcert:acme:owner'], pattern, { memberships: [], admin: false }],
    [
      'a bad organisation slug maps to nothing',
      ['erpcert:Acme Corp:viewer', 'erpcert::viewer'],
      pattern,
      { memberships: [], admin: false },
    ],
    [
      'one role per organisation: the strongest',
      ['erpcert:acme:viewer', 'erpcert:acme:certifier', 'erpcert:beta:viewer'],
      pattern,
      {
        memberships: [
          { organisation: 'acme', role: 'certifier' },
          { organisation: 'beta', role: 'viewer' },
        ],
        admin: false,
      },
    ],
    ['the admin group', ['erpcert:admin'], pattern, { memberships: [], admin: true }],
    ['the pattern off', ['erpcert:acme:engineer'], { ...pattern, prefix: '' }, { memberships: [], admin: false }],
    ['no admin group', ['erpcert:admin'], { ...pattern, adminGroup: '' }, { memberships: [], admin: false }],
    [
      'the explicit map, beside the pattern',
      ['cn=erp-engineers,ou=groups,dc=acme,dc=com', 'audit-team', 'erpcert:beta:admin'],
      withMap,
      {
        memberships: [
          { organisation: 'acme', role: 'engineer' },
          { organisation: 'beta', role: 'admin' },
          { organisation: 'certbody', role: 'certifier' },
        ],
        admin: false,
      },
    ],
  ];
  it.each(cases)('%s', (_name, groups, mapping, want) => {
    expect(mapGroups(groups, mapping)).toEqual(want);
  });
});

describe('parseMembership and parseGroupMap', () => {
  it.each([
    ['acme:engineer', { organisation: 'acme', role: 'engineer' }],
    ['a-1:viewer', { organisation: 'a-1', role: 'viewer' }],
    ['acme:', undefined],
    ['-acme:viewer', undefined],
    ['acme', undefined],
    ['ACME:viewer', undefined],
  ])('%s', (text, want) => {
    expect(parseMembership(text)).toEqual(want);
  });

  it.each([
    ['a list', [], /must be a JSON object/],
    ['a string', 'acme:viewer', /must be a JSON object/],
    ['an unknown role', { g: 'acme:owner' }, /group "g": "acme:owner" is not "<organisation>:<role>"/],
    ['a number', { g: 3 }, /group "g": 3 is not/],
    ['an empty list', { g: [] }, /group "g" maps to an empty list/],
    ['an empty group', { '': 'acme:viewer' }, /a group name is empty/],
  ])('refuses %s', (_name, doc, message) => {
    expect(() => parseGroupMap(doc)).toThrow(message);
  });
});

describe('groupsOf', () => {
  it.each([
    ['a list', { groups: ['a', 'b'] }, 'groups', ['a', 'b']],
    ['one string', { groups: 'a' }, 'groups', ['a']],
    ['non-strings dropped', { groups: ['a', 3, null, { x: 1 }] }, 'groups', ['a']],
    ['absent', {}, 'groups', []],
    ['a nested claim', { realm_access: { roles: ['r'] } }, 'realm_access.roles', ['r']],
    ['a dotted name first', { 'https://x.example/groups': ['u'] }, 'https://x.example/groups', ['u']],
  ])('%s', (_name, claims, claim, want) => {
    expect(groupsOf(claims, claim)).toEqual(want);
  });
});
