import { validateXml } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import type { App } from '../../app-types.js';
import { errstrOf, parsePortal, portal } from '../testing/portal-client.js';
import { portalTestApps } from '../testing/portal-fixture.js';

const app = portalTestApps();

/** The Code of every result element, in order. */
async function codes(a: App, register: string, id: string, extra: Record<string, string> = {}) {
  const res = await portal(a, { action: 'pastespecial', register, id, ...extra });
  expect((await validateXml(res.text, 'portal-lookup')).valid).toBe(true);
  const list = parsePortal(res.text).data?.[register];
  return (list === undefined ? [] : Array.isArray(list) ? list : [list]).map((r: { Code: string }) => r.Code);
}

describe('action=pastespecial', () => {
  it.each([
    ['INVc', 'wid', ['I1'], 'a prefix of Name'],
    ['INVc', 'WIDGET', ['I1'], 'case-insensitively'],
    ['INVc', 'i', ['I1', 'I2', 'ITEM/1'], 'a prefix of Code, ordered by Code'],
    ['INVc', 'get', [], 'not a substring inside the value'],
    ['INVc', 'i1 wid', ['I1'], 'every term (AND), each in any searched field'],
    ['INVc', 'i2 wid', [], 'nothing when one term matches nothing'],
    ['INVc', '', ['I1', 'I2', 'ITEM/1'], 'everything for an empty search text'],
    ['CUVc', 'a', ['C1'], 'customers only'],
    ['CUVc', '1234', ['C4'], 'RegNr1'],
    ['CUVc', 'beta', [], 'no vendor that is not a customer'],
    ['VEVc', '', ['C2', 'C4'], 'vendors only'],
    ['AllCUVc', 'c', ['C1', 'C2', 'C3', 'C4'], 'all contacts'],
    ['AllCUVc', 'delta oü', [], 'no term inside the value ("oü" is a later word)'],
    ['UserVc', 'jaan', ['JD'], 'UserVc Name'],
    ['UserVc', 'tamm', [], 'a later word of the name is not a prefix'],
  ])('%s id "%s" finds %j (%s)', async (register, id, want) => {
    expect(await codes(app(), register, id)).toEqual(want);
  });

  it('folds non-ASCII letters', async () => {
    const a = app();
    a.store.insert('INVc', 1, { fields: { Code: 'Z1', Name: 'Äpple Öl' }, rows: [] });
    expect(await codes(a, 'INVc', 'äPP')).toEqual(['Z1']);
  });

  it('answers Code, Name and UPrice1 for INVc', async () => {
    const a = app();
    const res = await portal(a, { action: 'pastespecial', register: 'INVc', id: 'I2' });
    expect(parsePortal(res.text).data.INVc).toMatchObject({ Code: 'I2', Name: 'Gadget', UPrice1: '20.00' });
  });

  it('keeps one item group with bfilter, INVc only', async () => {
    const a = app();
    expect(await codes(a, 'INVc', 'i', { bfilter: 'GOODS' })).toEqual(['I1', 'I2']);
    const res = await portal(a, { action: 'pastespecial', register: 'CUVc', id: '', bfilter: 'DOM' });
    expect(errstrOf(res.text)).toBe('bfilter applies to INVc only (the item group), not CUVc');
  });

  it('returns at most 50 results', async () => {
    const a = app();
    a.store.write(() => {
      for (let i = 1; i <= 60; i++)
        a.store.insert('INVc', 1, { fields: { Code: `X${String(i).padStart(3, '0')}`, Name: 'Bulk' }, rows: [] });
    });
    const found = await codes(a, 'INVc', 'x');
    expect(found).toHaveLength(50);
    expect(found[49]).toBe('X050');
  });

  it('searches the company of compno', async () => {
    const a = app();
    expect(await codes(a, 'INVc', 'i', { compno: '2' })).toEqual([]);
  });

  it('refuses a register outside the pastespecial row', async () => {
    const res = await portal(app(), { action: 'pastespecial', register: 'IVVc', id: '1' });
    expect(errstrOf(res.text)).toBe(
      'register "IVVc" is not allowed for pastespecial; allowed: INVc, CUVc, VEVc, AllCUVc, UserVc',
    );
  });
});
