import {
  type ClientConfig,
  ConfigError,
  createClient,
  type ErpClient,
  type ErpClientError,
  ErpError,
  type Exchange,
  type FeedEvent,
  isErpClientError,
} from '@erpcert/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, serveChild, stopChild } from './testing/serve-child.js';

// End-to-end: @erpcert/client against `erpcert serve` (the reference server) as a separate process, speaking HTTP only.
const USER = 'e2e-user';
const PASSWORD = 'e2e-Password-1';

/** `erpcert serve` with the test's credentials and a small seed (testing/serve-child.ts starts and stops it). */
const serve = (extra: string[] = []): Promise<Served> =>
  serveChild(['--seed-size', '30', '--user', USER, '--password', PASSWORD, ...extra]);
const stop = stopChild;

let plain: Served | undefined;
let quirky: Served | undefined;
const clients: ErpClient[] = [];

function client(on: Served, config: Partial<ClientConfig> = {}): ErpClient {
  const c = createClient({ baseUrl: on.url, auth: { user: USER, password: PASSWORD }, compcode: 1, ...config });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  [plain, quirky] = await Promise.all([serve(), serve(['--quirks'])]);
}, 120_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await Promise.all([stop(plain), stop(quirky)]);
}, 30_000);

describe.each([
  ['the reference server', () => plain!],
  ['the reference server with --quirks', () => quirky!],
])('client against %s', (_name, server) => {
  it('reads the same records as XML and as JSON', async () => {
    const c = client(server());
    const xml = await c.rest.list('CUVc', { sort: 'Code', limit: 5 });
    const json = await c.rest.list('CUVc', { sort: 'Code', limit: 5 }, { format: 'json' });
    expect(xml.records).toHaveLength(5);
    expect(json.records).toEqual(xml.records);
    expect([xml.format, json.format]).toEqual(['xml', 'json']);
    expect(xml.sequenceHeader).toBe(xml.sequence);
  });

  it('creates with a form (UTF-8 text survives), reads back by key and updates with PATCH', async () => {
    const c = client(server());
    const code = `E2E${Date.now() % 1_000_000}${server() === plain ? 'P' : 'Q'}`;
    const created = await c.rest.createForm('CUVc', { Code: code, Name: 'Müller & Søn “ä”' });
    expect(created.records[0]).toMatchObject({ Code: code, Name: 'Müller & Søn “ä”' });
    expect((await c.rest.get('CUVc', code)).records[0]!.Name).toBe('Müller & Søn “ä”');
    await c.rest.update('CUVc', code, { Name: 'Renamed Õun' });
    const read = await c.rest.get('CUVc', code, { format: 'json' });
    expect(read.records.map((r) => [r.Code, r.Name])).toEqual([[code, 'Renamed Õun']]);
  });

  it('throws ErpError with code and field for a validation error, in both formats', async () => {
    const c = client(server());
    for (const format of ['xml', 'json'] as const) {
      const err = await c.rest
        .createForm('IVVc', { CustCode: 'NO-SUCH-CUSTOMER' }, [], { format })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ErpError);
      expect(err).toMatchObject({ field: 'CustCode', operation: 'createForm', register: 'IVVc' });
      expect((err as ErpError).code).toMatch(/^\d+$/);
    }
  });

  it('logs in on the portal and walks an invoice list page by page', async () => {
    const c = client(server());
    const login = await c.portal.login();
    expect(login.fields.apiversion).toBe('1.0.1');
    const serials: unknown[] = [];
    let count: number | undefined;
    for await (const page of c.portal.listPages('IVVc', {}, { perpage: 2 })) {
      count ??= page.count;
      serials.push(...page.records.map((r) => r.SerNr));
    }
    expect(serials.length).toBe(count);
    expect(new Set(serials).size).toBe(serials.length);
  });

  it('uploads an attachment and gets the same bytes back', async () => {
    const c = client(server());
    const invoice = (await c.portal.list('IVVc', { page: 1, perpage: 1 })).records[0]!.SerNr as string;
    const bytes = Buffer.from([0, 1, 2, 0x7f, 0x80, 0xfe, 0xff]);
    const up = await c.portal.doupload({ regname: 'IVVc', id: invoice }, { filename: 'bytes.bin', content: bytes });
    expect(up.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const list = await c.portal.getattachlist({ regname: 'IVVc', id: invoice });
    expect(list.attachments.map((a) => a.uuid)).toContain(up.uuid);
    const file = await c.portal.getfile({ regname: 'IVVc', id: invoice, file: up.uuid! });
    expect(file.content).toEqual(bytes);
    await c.portal.deleteattachment({ regname: 'IVVc', id: invoice, file: up.uuid! });
  });
});

describe('client against the reference server with --quirks: Latin-1', () => {
  it('decodes a Latin-1 answer without charset when the request does not ask for UTF-8', async () => {
    const c = client(quirky!);
    const code = `L1${Date.now() % 1_000_000}`;
    await c.rest.createForm('CUVc', { Code: code, Name: 'Müller “Õun”' });
    const latin1 = await c.rest.get('CUVc', code, { headers: { 'Accept-Charset': 'iso-8859-1' } });
    expect(latin1.raw.charset).toBe('latin1');
    expect(latin1.raw.header('content-type')).not.toMatch(/charset/i);
    // README "Quirks" 4: characters beyond Latin-1 become ?
    expect(latin1.records[0]!.Name).toBe('Müller ?Õun?');
  });
});

describe('client against the reference server with --quirks: the rough JSON answers of live servers (issue 10)', () => {
  it('PATCH in JSON: every write lands, malformed answers come back as done, a nested error as ErpError', async () => {
    const c = client(quirky!);
    const code = `QP${Date.now() % 1_000_000}`;
    await c.rest.createForm('CUVc', { Code: code, Name: 'start' });
    const answers = [];
    for (const name of ['one two', 'three+four', 'five']) {
      answers.push(await c.rest.update('CUVc', code, { Name: name }, [], { format: 'json' }));
      expect((await c.rest.get('CUVc', code)).records[0]!.Name).toBe(name);
    }
    expect(answers.some((a) => a.answerMalformed === true)).toBe(true);
    for (let i = 0; i < 2; i++) {
      const err = await c.rest
        .update('CUVc', code, { NoSuchField: '1' }, [], { format: 'json' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).code).toMatch(/^\d+$/);
    }
  });

  it('a JSON validation error with HTTP 200 and a messages array is an ErpError with the messages', async () => {
    const err = await client(quirky!)
      .rest.createForm('IVVc', { CustCode: 'NO-SUCH-CUSTOMER' }, [], { format: 'json' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect((err as ErpError).messages.length).toBeGreaterThan(0);
  });
});

describe('client against the reference server: REST', () => {
  it('reads company 2 the same with the company in the query and in the path', async () => {
    const query = await client(plain!, { compcode: 2 }).rest.list('CUVc', { sort: 'Code', limit: 3 });
    const path = await client(plain!, { compcode: 2, companyIn: 'path' }).rest.list('CUVc', { sort: 'Code', limit: 3 });
    expect(path.raw.exchange.request.url).toContain('/api/2/CUVc');
    expect(query.raw.exchange.request.url).toContain('compcode=2');
    expect(path.records).toEqual(query.records);
  });

  it('gets one record by the key of its @url', async () => {
    const c = client(plain!);
    const [first] = (await c.rest.list('INVc', { sort: 'Code', limit: 1 })).records;
    const key = decodeURIComponent(String(first!['@url']).split('/').pop()!);
    expect((await c.rest.get('INVc', key)).records).toEqual([first]);
  });

  it('pages with offset/limit to the same records as one read', async () => {
    const c = client(plain!);
    const all = await c.rest.list('INVc', { fields: 'Code,Name', sort: 'Code' });
    const paged = [];
    for await (const r of c.rest.records('INVc', { fields: 'Code,Name', sort: 'Code' }, { pageSize: 7 })) paged.push(r);
    expect(paged.length).toBeGreaterThan(7);
    expect(paged).toEqual(all.records);
  });

  it('follows the sequence feed: a JSON create shows up as an update, 204 deletions end the round', async () => {
    const c = client(plain!);
    const since = (await c.rest.list('CUVc', { limit: 1 })).sequenceHeader!;
    const code = `FEED${Date.now() % 1_000_000}`;
    await c.rest.createJson('CUVc', [{ Code: code, Name: 'Feed test' }]);
    const events: FeedEvent<'CUVc'>[] = [];
    for await (const e of c.rest.feed('CUVc', { since })) events.push(e);
    expect(events.filter((e) => e.kind === 'updated').map((e) => e.kind === 'updated' && e.record.Code)).toEqual([
      code,
    ]);
    const end = events.at(-1)!;
    expect(end.kind).toBe('end');
    expect(end.kind === 'end' && BigInt(end.next) > BigInt(since)).toBe(true);
  });

  it('reports updates_after on a register without a sync index as unavailable', async () => {
    const events: FeedEvent[] = [];
    for await (const e of client(plain!).rest.feed('ItemStatusVc', { since: 0, deletes: false })) events.push(e);
    expect(events[0]).toMatchObject({ kind: 'unavailable', query: 'updates_after', status: 404 });
  });

  it('logs in once with Basic and then sends only the HSESSION cookie', async () => {
    const seen: Exchange[] = [];
    const c = client(plain!, { useSession: true, onExchange: (e) => seen.push(e) });
    await c.rest.root();
    await c.rest.list('CUVc', { limit: 1 });
    await c.portal.list('IVVc', { page: 1, perpage: 1 });
    const auth = seen.map((e) => e.request.headers.find((h) => /^(authorization|cookie)$/i.test(h.name))?.value);
    expect(auth).toEqual(['Basic ***', 'HSESSION=***', 'HSESSION=***']);
    expect(c.sessionId).toBeTruthy();
  });

  it('authenticates REST with OAuth 2.0 client credentials; the portal refuses bearer tokens', async () => {
    const c = createClient({
      baseUrl: plain!.url,
      compcode: 1,
      auth: { oauth: { authUrl: plain!.url, clientId: 'erpcert-client', clientSecret: 'erpcert-secret' } },
    });
    clients.push(c);
    expect((await c.rest.list('CUVc', { limit: 2 })).records).toHaveLength(2);
    await expect(c.portal.login()).rejects.toBeInstanceOf(ConfigError);
  });

  it('throws a typed error with status 401 for a wrong password, the password masked', async () => {
    const err = await client(plain!, { auth: { user: USER, password: 'wrong-password' } })
      .rest.list('CUVc')
      .catch((e: unknown) => e);
    expect(isErpClientError(err)).toBe(true);
    expect((err as ErpClientError).status).toBe(401);
    expect(JSON.stringify((err as ErpClientError).exchange)).not.toContain(
      Buffer.from(`${USER}:wrong-password`).toString('base64'),
    );
  });
});

describe('client against the reference server: portal', () => {
  it('answers on /WebExcellentAPI.hal too', async () => {
    const login = await client(plain!, { portalPath: '/WebExcellentAPI.hal' }).portal.login();
    expect(login.raw.exchange.request.url).toContain('/WebExcellentAPI.hal?action=login');
  });

  it('looks items up with pastespecial (at most 50)', async () => {
    const found = await client(plain!).portal.pastespecial({ register: 'INVc', id: 'a' });
    expect(found.records.length).toBeGreaterThan(0);
    expect(found.records.length).toBeLessThanOrEqual(50);
    expect(Object.keys(found.records[0]!)).toEqual(expect.arrayContaining(['Code', 'Name', 'UPrice1']));
  });

  it('throws the errstr of a failed delete as ErpError', async () => {
    const err = await client(plain!)
      .portal.delete({ register: 'IVVc', id: '999999999' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ErpError);
    expect(err).toMatchObject({ source: 'errstr', operation: 'delete', register: 'IVVc' });
  });

  it('generates an invoice document and decodes its base64 PDF', async () => {
    const c = client(plain!);
    const invoice = (await c.portal.list('IVVc', { page: 1, perpage: 1 })).records[0]!.SerNr as string;
    const doc = await c.portal.document({ register: 'IVVc', id: invoice });
    expect(doc.name).not.toBe('');
    expect(doc.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('reads ARVc with the <data page total> shape', async () => {
    const list = await client(plain!).portal.list('ARVc', { page: 1, perpage: 5 });
    expect(list.page).toBe(1);
    expect(list.total).toBeGreaterThanOrEqual(list.records.length);
    expect(list.records.length).toBeGreaterThan(0);
    expect(Object.keys(list.records[0]!)).toContain('DueDate');
  });
});
