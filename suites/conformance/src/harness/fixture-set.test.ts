import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureFiles, readFixtureAccounts } from './fixture-accounts.js';
import {
  DEFAULT_FIXTURE_PREFIX,
  fixtureCode,
  fixtureCodes,
  fixturePrefixProblem,
  isFixtureCode,
  LOOKUP_ITEMS,
} from './fixture-scheme.js';
import { ensureFixtureSet, fixtureSkipReason } from './fixture-set.js';
import type { RuleContext } from './rule-test.js';

const dir = mkdtempSync(join(tmpdir(), 'erpcert-fixtures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Item = Record<string, string>;

/**
 * An INVc register in memory behind the three client calls the fixture set uses: list (filter.Code, or
 * sort=Code&range=from: unless `noRange`), a JSON POST that refuses an existing code (the whole POST), PATCH.
 */
function fakeTarget(opts: { noRange?: boolean } = {}) {
  const items = new Map<string, Item>();
  const posts: string[][] = [];
  const patches: [string, Item][] = [];
  const tick = () => new Promise((r) => setTimeout(r, 2));
  const client = {
    rest: {
      async list(_register: string, query: Record<string, string | number>) {
        await tick();
        let records = [...items.values()];
        if (query['filter.Code'] !== undefined) records = records.filter((r) => r.Code === query['filter.Code']);
        else if (query.range !== undefined) {
          if (opts.noRange) records = [];
          const from = String(query.range).replace(/:$/, '');
          records = records.filter((r) => r.Code! >= from).sort((a, b) => (a.Code! < b.Code! ? -1 : 1));
        }
        return { records: records.slice(0, Number(query.limit ?? 1e9)).map((r) => ({ ...r })) };
      },
      async createJson(_register: string, records: Item[]) {
        await tick();
        if (records.some((r) => items.has(r.Code!))) throw new Error('1058 duplicate Code');
        posts.push(records.map((r) => r.Code!));
        for (const r of records) items.set(r.Code!, { Terminated: '0', ...r });
        return { records };
      },
      async update(_register: string, key: string[], fields: Item) {
        await tick();
        patches.push([key[0]!, fields]);
        Object.assign(items.get(key[0]!)!, fields);
        return { records: [] };
      },
    },
  };
  return { items, posts, patches, client };
}

function ctxFor(
  client: unknown,
  folder: string,
  profile: 'full' | 'readonly' = 'full',
  prefix = DEFAULT_FIXTURE_PREFIX,
): RuleContext {
  return {
    name: '[PORTAL.LOOKUP.CAP50] t',
    profile,
    signal: new AbortController().signal,
    target: { baseUrl: 'http://x', runTag: 'ECAB12', ledger: join(folder, 'ledger.jsonl'), fixturePrefix: prefix },
    client,
  } as unknown as RuleContext;
}

/** A fresh run folder. */
const folder = () => mkdtempSync(join(dir, 'run-'));

describe('the fixture scheme', () => {
  it('names the lookup items <prefix>LK01..LK55 and recognises them by the prefix', () => {
    const codes = fixtureCodes('ERPCERT-FX-', LOOKUP_ITEMS);
    expect(codes).toHaveLength(55);
    expect(codes[0]).toBe('ERPCERT-FX-LK01');
    expect(codes[54]).toBe('ERPCERT-FX-LK55');
    expect(fixtureCode('TEAMB-', LOOKUP_ITEMS, 7)).toBe('TEAMB-LK07');
    expect(isFixtureCode('ERPCERT-FX-LK01')).toBe(true);
    expect(isFixtureCode('ECAB120001', 'ERPCERT-FX-')).toBe(false);
  });

  it.each([
    ['ERPCERT-FX-', undefined],
    ['TEAMB-FX-', undefined],
    ['fx-', 'upper-case'],
    ['ABC', '4 to 16'],
    ['HAS SPACE', '4 to 16'],
    ['ECAB12-', 'run tag'],
  ])('prefix %s: %s', (prefix, problem) => {
    const got = fixturePrefixProblem(prefix);
    if (problem === undefined) expect(got).toBeUndefined();
    else expect(got).toContain(problem);
  });
});

describe('ensureFixtureSet', () => {
  it('creates the set once, with one POST, when two workers of a run ask at the same time', async () => {
    const t = fakeTarget();
    const f = folder();
    const [a, b] = await Promise.all([
      ensureFixtureSet(ctxFor(t.client, f), LOOKUP_ITEMS),
      ensureFixtureSet(ctxFor(t.client, f), LOOKUP_ITEMS),
    ]);
    expect(t.posts).toHaveLength(1);
    expect(t.posts[0]).toHaveLength(55);
    expect(t.items.size).toBe(55);
    expect([a.created, b.created].sort()).toEqual([0, 55]);
    for (const x of [a, b]) expect(x).toMatchObject({ present: 55, missing: [], repaired: 0 });
    expect(readFixtureAccounts(fixtureFiles(join(f, 'ledger.jsonl')).accounts)).toHaveLength(2);
  });

  it('a later run creates nothing and puts back a name, a price and Terminated that a person changed', async () => {
    const t = fakeTarget();
    await ensureFixtureSet(ctxFor(t.client, folder()), LOOKUP_ITEMS);
    const name = t.items.get('ERPCERT-FX-LK03')!.Name;
    Object.assign(t.items.get('ERPCERT-FX-LK03')!, { Name: 'renamed' });
    Object.assign(t.items.get('ERPCERT-FX-LK04')!, { UPrice1: '99' });
    Object.assign(t.items.get('ERPCERT-FX-LK05')!, { Terminated: '1' });
    Object.assign(t.items.get('ERPCERT-FX-LK06')!, { UPrice1: '10.00' }); // the same price, written otherwise
    const again = await ensureFixtureSet(ctxFor(t.client, folder()), LOOKUP_ITEMS);
    expect(again).toMatchObject({ created: 0, repaired: 3, present: 55 });
    expect(t.posts).toHaveLength(1);
    expect(t.items.get('ERPCERT-FX-LK03')!.Name).toBe(name);
    expect(t.items.get('ERPCERT-FX-LK04')!.UPrice1).toBe('10');
    expect(t.items.get('ERPCERT-FX-LK05')!.Terminated).toBe('0');
    expect(t.patches.map(([code]) => code)).toEqual(['ERPCERT-FX-LK03', 'ERPCERT-FX-LK04', 'ERPCERT-FX-LK05']);
  });

  it('creates only what is missing, and never a code the target already holds (a range read that misses it)', async () => {
    const t = fakeTarget({ noRange: true });
    t.items.set('ERPCERT-FX-LK09', {
      Code: 'ERPCERT-FX-LK09',
      Name: 'ERPCERT-FX-LK erpcert lookup fixture 09',
      UPrice1: '10',
      Terminated: '0',
    });
    const a = await ensureFixtureSet(ctxFor(t.client, folder()), LOOKUP_ITEMS);
    expect(t.items.size).toBe(55);
    expect(t.posts.flat()).not.toContain('ERPCERT-FX-LK09');
    expect(t.posts.flat()).toHaveLength(54);
    expect(a).toMatchObject({ present: 55, created: 54, missing: [] });
  });

  it('readonly: looks up only, writes nothing, and says why a test that needs the set skips', async () => {
    const t = fakeTarget();
    const a = await ensureFixtureSet(ctxFor(t.client, folder(), 'readonly', 'TEAMB-FX-'), LOOKUP_ITEMS);
    expect(t.posts).toEqual([]);
    expect(t.patches).toEqual([]);
    expect(a).toMatchObject({ readonly: true, present: 0, created: 0 });
    expect(a.missing).toHaveLength(55);
    expect(fixtureSkipReason(a, LOOKUP_ITEMS)).toMatch(/^readonly profile: the fixture set TEAMB-FX-LK\.\. \(55 INVc/);
  });

  it('readonly with the set present: uses it as it is', async () => {
    const t = fakeTarget();
    await ensureFixtureSet(ctxFor(t.client, folder()), LOOKUP_ITEMS);
    const a = await ensureFixtureSet(ctxFor(t.client, folder(), 'readonly'), LOOKUP_ITEMS);
    expect(a).toMatchObject({ present: 55, missing: [] });
    expect(fixtureSkipReason(a, LOOKUP_ITEMS)).toBeUndefined();
  });
});

describe('fixtureFiles', () => {
  it('puts the lock and the accounts beside the ledger of a report folder', () => {
    expect(fixtureFiles('/r/ledger.jsonl')).toEqual({ lock: '/r/fixtures.lock', accounts: '/r/fixtures.jsonl' });
    expect(fixtureFiles('/tmp/erpcert-ledger-ECAB12.jsonl')).toEqual({
      lock: '/tmp/erpcert-ledger-ECAB12-fixtures.lock',
      accounts: '/tmp/erpcert-ledger-ECAB12-fixtures.jsonl',
    });
  });
});
