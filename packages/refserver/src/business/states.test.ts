import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../app-types.js';
import { loadFixture } from '../testing/fixtures.js';
import { call, jsonRecords, testApp } from '../testing/test-client.js';

// issue 9 "The reference server": a register with states stores a state of its set from creation, whatever the
// write left out; one test per enumerated field.
let app: App;
beforeEach(() => {
  app = testApp();
  loadFixture(app.store);
});
afterEach(() => app.close());

const JSON_ACCEPT = { accept: 'application/json' };

async function createJson(register: string, record: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call(app, 'POST', `/api/1/${register}`, { json: { data: { [register]: [record] } } });
  expect(res.text).not.toMatch(/<error/);
  const stored = app.store.registry.get(register)!;
  const key = stored.key.map((k) => String((record[k] as string | undefined) ?? '')).join('/');
  const url = key.replace(/\//g, '') === '' ? undefined : `/api/1/${register}/${key}`;
  const read = await call(app, 'GET', url ?? `/api/1/${register}?sort=SerNr`, { headers: JSON_ACCEPT });
  const records = jsonRecords(read.text, register);
  return records[records.length - 1]!;
}

describe('enumerated fields get a value of their set from creation (issue 9)', () => {
  it.each(['IVVc', 'ORVc', 'VIVc', 'IPVc', 'GCVc', 'Bud1Vc', 'WorkedHoursVc', 'AbsenceVc'])(
    '%s: a JSON POST without OKFlag stores 0 (draft), never empty',
    async (register) => {
      const schema = app.store.registry.get(register)!;
      const fields: Record<string, string> = {};
      if (register === 'Bud1Vc') Object.assign(fields, { AccNumber: '3000', StartDate: '2025-01-01' });
      const got = await createJson(register, fields);
      expect(schema.fields).toContain('OKFlag');
      expect(got.OKFlag).toBe('0');
    },
  );

  it('a JSON POST with OKFlag 1 keeps it', async () => {
    const got = await createJson('IVVc', { CustCode: 'C1', OKFlag: '1' });
    expect(got.OKFlag).toBe('1');
  });

  it('a JSON POST row without stp stores 1 (a normal row); given row types are kept', async () => {
    const got = await createJson('IVVc', {
      CustCode: 'C1',
      rows: [
        { ArtCode: 'I1', Quant: '1' },
        { stp: '2', Spec: 'text' },
      ],
    });
    expect((got.rows as Record<string, string>[]).map((r) => r.stp)).toEqual(['1', '2']);
  });

  it('a row a PATCH appends without stp stores 1', async () => {
    const made = await createJson('IVVc', { CustCode: 'C1' });
    await call(app, 'PATCH', `/api/1/IVVc/${made.SerNr}`, { form: [['set_row_field.0.Spec', 'note']] });
    const back = jsonRecords(
      (await call(app, 'GET', `/api/1/IVVc/${made.SerNr}`, { headers: JSON_ACCEPT })).text,
      'IVVc',
    );
    expect(back[0]!.rows![0]!.stp).toBe('1');
  });

  it('IPVc receipt rows (observed stp) store 1 without stp', async () => {
    const got = await createJson('IPVc', { rows: [{ InvoiceNr: '1', RecVal: '5.00' }] });
    expect((got.rows as Record<string, string>[])[0]!.stp).toBe('1');
  });

  it.each([
    [{ CUType: '1', VEType: '0' }, '0'],
    [{ CUType: '0', VEType: '1' }, '1'],
    [{ CUType: '1', VEType: '1' }, '2'],
    [{}, '0'],
  ] as const)('CUVc %j without CustType stores CustType %s (0 customer, 1 vendor, 2 both)', async (flags, want) => {
    const got = await createJson('CUVc', { Code: `T${want}${Object.keys(flags).length}`, Name: 'x', ...flags });
    expect(got.CustType).toBe(want);
  });

  it('ErpSignSessVc: Status and the rows SignStatus store 0 (waiting) without a value', async () => {
    const made = await call(app, 'POST', '/api/1/ErpSignSessVc', {
      json: { data: { ErpSignSessVc: [{ Comment: 'x', rows: [{ Signer: 'JD' }] }] } },
      headers: JSON_ACCEPT,
    });
    const rec = jsonRecords(made.text, 'ErpSignSessVc')[0]!;
    expect(rec).toMatchObject({ Status: '0', OKFlag: '0' });
    expect(rec.rows![0]).toMatchObject({ stp: '1', SignStatus: '0' });
  });
});
