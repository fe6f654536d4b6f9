/**
 * The mutants of issue 28 (mutants-causes.ts) break what they say, through the proxy in front of the reference
 * server; what the suite makes of them (the right rule FAILs, the followers with causedBy) is causes.e2e.test.ts's.
 */
import { type RunningServer, startServer } from '@erpcert/refserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { causeMutants } from './mutants-causes.js';
import { type Mutant, startProxy } from './proxy.js';

const basic = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;
const json = { authorization: basic, accept: 'application/json' };
const form = { ...json, 'content-type': 'application/x-www-form-urlencoded' };
const mutant = (id: string): Mutant => causeMutants().find((m) => m.id === id)!;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 20, log: () => {} });
});
afterAll(async () => {
  await server.close();
});

/** Sends one request straight to the server, or through a proxy running `id`. */
async function send(id: string | undefined, path: string, init: RequestInit = {}) {
  const proxy = id ? await startProxy(server.url, mutant(id)) : undefined;
  try {
    const res = await fetch(`${proxy?.url ?? server.url}${path}`, init);
    return { status: res.status, body: await res.text(), hits: proxy?.hits };
  } finally {
    await proxy?.close();
  }
}

/** A customer and three items of the reference server's demo data. */
async function basis() {
  const cu = JSON.parse((await send(undefined, '/api/1/CUVc?compcode=1&limit=1', { headers: json })).body);
  const items = JSON.parse((await send(undefined, '/api/1/INVc?compcode=1&limit=3', { headers: json })).body);
  return { customer: cu.data.CUVc[0].Code as string, items: items.data.INVc.map((r: { Code: string }) => r.Code) };
}

/** An invoice with rows `specs` (form POST, straight or through `via`); its SerNr and the Spec of its rows. */
async function invoice(specs: string[], header: Record<string, string> = {}, via?: string) {
  const b = await basis();
  const body = new URLSearchParams({ 'set_field.CustCode': b.customer, ...header });
  specs.forEach((s, i) => {
    body.set(`set_row_field.${i}.ArtCode`, b.items[i % b.items.length]);
    body.set(`set_row_field.${i}.Quant`, '1');
    body.set(`set_row_field.${i}.Spec`, s);
  });
  const res = await send(via, '/api/1/IVVc?compcode=1', { method: 'POST', headers: form, body: body.toString() });
  const serNr = JSON.parse(res.body).data.IVVc[0].SerNr as string;
  return { serNr, rows: await rowsOf(serNr) };
}

async function read(serNr: string) {
  const res = await send(undefined, `/api/1/IVVc?compcode=1&filter.SerNr=${serNr}`, { headers: json });
  return JSON.parse(res.body).data.IVVc[0] as { OKFlag: string; rows: { Spec: string }[] };
}
const rowsOf = async (serNr: string) => (await read(serNr)).rows.map((r) => r.Spec);

describe('the mutants of issue 28', () => {
  it('lookup-search-decoy searches the search parameter when one is sent, id otherwise', async () => {
    const b = await basis();
    const path = `/WebErpAPI.hal?action=pastespecial&register=INVc&id=${encodeURIComponent(b.items[0])}`;
    const plain = await send('lookup-search-decoy', path, { headers: { authorization: basic } });
    const decoy = await send('lookup-search-decoy', `${path}&search=zq9x`, { headers: { authorization: basic } });
    expect(plain.body).toContain(`<Code>${b.items[0]}</Code>`);
    expect(decoy.body).not.toContain('<Code>');
    expect([plain.hits!.requests, decoy.hits!.requests]).toEqual([0, 1]);
  });

  it('deleterow-one-more removes the row after the listed one, or the one before when the last is listed', async () => {
    const a = await invoice(['r1', 'r2', 'r3', 'r4']);
    const del = (id: string) =>
      send('deleterow-one-more', `/WebErpAPI.hal?action=deleterow&register=IVVc&id=${id}`, {
        headers: { authorization: basic },
      });
    expect((await del(`${a.serNr}:2`)).body).toContain('errstr=""');
    expect(await rowsOf(a.serNr)).toEqual(['r1', 'r4']);
    expect((await del(`${a.serNr}:2`)).body).toContain('errstr=""');
    expect(await rowsOf(a.serNr)).toEqual([]);
  });

  it('form-row-index-1-based drops row 0 of a form POST and moves row N to N-1', async () => {
    const a = await invoice(['r1', 'r2', 'r3'], {}, 'form-row-index-1-based');
    expect(a.rows).toEqual(['r2', 'r3']);
  });

  it('unok-leaves-confirmed answers success and leaves the record confirmed; the refusals stay', async () => {
    const unok = (serNr: string, usercode: string) =>
      send(
        'unok-leaves-confirmed',
        `/WebErpAPI.hal?action=action&register=unokrecord&regname=IVVc&id=${serNr}&usercode=${usercode}`,
        { headers: { authorization: basic } },
      );
    const confirmed = await invoice(['c'], { 'set_field.OKFlag': '1' });
    expect((await unok(confirmed.serNr, 'ACC')).body).toContain('errstr=""');
    expect((await read(confirmed.serNr)).OKFlag).toBe('1');
    // a user without the permission, and a draft, are refused as the server refuses them
    expect((await unok(confirmed.serNr, 'JD')).body).toMatch(/errstr="[^"]+"|<error/);
    const draft = await invoice(['d']);
    expect((await unok(draft.serNr, 'ACC')).body).toMatch(/errstr="[^"]+"|<error/);
    expect((await read(draft.serNr)).OKFlag).toBe('0');
  });
});
