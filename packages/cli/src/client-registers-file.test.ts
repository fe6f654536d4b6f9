import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@erpcert/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, json, records, type Served, serveChild, serveExit, stopChild } from './testing/serve-child.js';

// issue 21 "Done when": `erpcert serve --registers` with a small custom register, written and read back over the
// wire by @erpcert/client; a bad file exits 2 with the line named.
const USER = 'team-app';
const PASSWORD = 'team-App-pass-1';
const JSON_ACCEPT = { accept: 'application/json' };
const FORM_UTF8 = 'application/x-www-form-urlencoded; charset=UTF-8';

describe('erpcert serve --registers FILE', () => {
  let dir: string;
  let team: Served | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'erpcert-registers-'));
  });
  const closers: (() => void)[] = [];
  afterAll(async () => {
    for (const close of closers) close();
    await stopChild(team);
    rmSync(dir, { recursive: true, force: true });
  });

  it("adds a team's register and field: written and read back over the wire", async () => {
    const file = join(dir, 'team.yaml');
    writeFileSync(
      file,
      [
        'evidence: our staging ERP',
        'registers:',
        '  - name: TicketVc',
        '    meaning: support tickets',
        '    key: [SerNr]',
        '    fields: [SerNr, CustCode, Subject, Status]',
        '    rowFields: [Note]',
        '    filters: [CustCode, Status]',
        '    errors: [{ field: Subject, empty: true, code: 1058 }]',
        '    records:',
        '      - { SerNr: 5, CustCode: C0001, Subject: Printer jam, Status: open }',
        'fields:',
        '  - { register: CUVc, part: header, fields: [LoyaltyLevel] }',
        '',
      ].join('\n'),
    );
    team = await serveChild(['--user', USER, '--password', PASSWORD, '--registers', file]);
    const c = createClient({ baseUrl: team.url, auth: { user: USER, password: PASSWORD }, compcode: 1 });
    closers.push(() => c.close());
    const send = (path: string, pairs: [string, string][]) =>
      c.request({ method: 'POST', path, headers: { ...JSON_ACCEPT, 'content-type': FORM_UTF8 }, body: form(pairs) });
    expect(
      records(await c.request({ method: 'GET', path: '/api/1/TicketVc/5', headers: JSON_ACCEPT }), 'TicketVc')[0],
    ).toMatchObject({ Subject: 'Printer jam', Status: 'open' });
    const made = records(
      await send('/api/1/TicketVc', [
        ['set_field.CustCode', 'C0002'],
        ['set_field.Subject', 'Scanner offline'],
        ['set_field.Status', 'open'],
        ['set_row_field.0.Note', 'called back'],
      ]),
      'TicketVc',
    )[0]!;
    expect(made).toMatchObject({ Subject: 'Scanner offline' });
    expect(String(made.SerNr)).toMatch(/^\d+$/); // numbered by the server (SerNr is the key)
    expect(made.SerNr).not.toBe('5');
    expect(made.rows![0]).toMatchObject({ Note: 'called back' });
    const found = records(
      await c.request({ method: 'GET', path: '/api/1/TicketVc?filter.CustCode=C0002', headers: JSON_ACCEPT }),
      'TicketVc',
    );
    expect(found.map((r) => r.SerNr)).toEqual([made.SerNr]);
    expect(json(await send('/api/1/TicketVc', [['set_field.CustCode', 'C0002']])).error).toMatchObject({
      '@code': '1058',
      '@field': 'Subject',
    });
    const customer = records(
      await send('/api/1/CUVc', [
        ['set_field.Code', 'TEAM1'],
        ['set_field.Name', 'Team customer'],
        ['set_field.LoyaltyLevel', 'gold'],
      ]),
      'CUVc',
    )[0]!;
    expect(customer.LoyaltyLevel).toBe('gold');
  }, 60_000);

  it.each([
    [
      'a key outside the fields',
      'evidence: x\nregisters:\n  - name: TVc\n    meaning: m\n    key: [SerNr]\n    fields: [Code]\n',
      5,
    ],
    ['fields of an unknown register', 'evidence: x\nfields:\n  - { register: NopeVc, part: header, fields: [A] }\n', 3],
  ])(
    'refuses a file with %s: exit 2, the line named, nothing served',
    async (_name, text, line) => {
      const file = join(dir, `bad-${line}.yaml`);
      writeFileSync(file, text);
      const { code, stderr } = await serveExit(['--registers', file]);
      expect(code).toBe(2);
      expect(stderr).toContain(`--registers: ${file}:${line}: `);
      expect(stderr).not.toMatch(/listening/);
    },
    60_000,
  );
});
