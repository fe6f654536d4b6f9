import { type RunningServer, startServer } from '@erpcert/refserver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MutantContext, mutants } from './mutants.js';
import { transportMutants } from './mutants-transport.js';
import { type Mutant, type ProxyRequest, type ProxyResponse, startProxy } from './proxy.js';

const ctx: MutantContext = { user: 'erpcert', password: 'erpcert', usercode: 'ADMIN', limitedUsercode: 'JD' };
const all = mutants(ctx);
const mutant = (id: string): Mutant => {
  const m = all.find((x) => x.id === id);
  if (!m) throw new Error(`no mutant ${id}`);
  return m;
};
const basic = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;
const json = { authorization: basic, accept: 'application/json' };

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, seed: 20, log: () => {} });
});
afterAll(async () => {
  await server.close();
});

/** Sends one request through a proxy running `id` (or none) and returns status, headers and body. */
async function via(id: string | undefined, path: string, init: RequestInit = {}) {
  const proxy = await startProxy(server.url, id ? mutant(id) : undefined);
  try {
    const res = await fetch(`${proxy.url}${path}`, init);
    return { status: res.status, headers: res.headers, body: await res.text(), hits: proxy.hits };
  } finally {
    await proxy.close();
  }
}
const records = (body: string) => JSON.parse(body).data.IVVc as Record<string, unknown>[];

describe('the mutants break what they say, through the proxy in front of the reference server', () => {
  it('there are at least 15, each naming the rules it breaks (or leaves undecided)', () => {
    expect(all.length).toBeGreaterThanOrEqual(15);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    for (const m of all)
      expect(m.breaks.length > 0 || (m.undecided?.length ?? 0) > 0 || m.harmless === true, m.id).toBe(true);
  });

  it('json-at-register-refused refuses a JSON POST only where its records carry @register (HTTP 400, a JSON error)', async () => {
    const post = (records: object[]) =>
      via('json-at-register-refused', '/api/1/CUVc?compcode=1', {
        method: 'POST',
        headers: { ...json, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ data: { CUVc: records } }),
      });
    const refused = await post([{ '@register': 'CUVc', Code: 'MUT1', Name: 'm' }]);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error['@description']).toBe('the body holds no CUVc record');
    const taken = await post([{ Code: 'MUT2', Name: 'm' }]);
    expect(taken.status).toBe(200);
    expect(taken.hits.requests).toBe(0);
  });

  it('kanban-maxsize-ignored drops maxsize from the Kanban list only', async () => {
    const kanban = (maxsize: number) => `/WebErpAPI.hal?register=Kanban&usercode=ADMIN&maxsize=${maxsize}`;
    const one = await via('kanban-maxsize-ignored', kanban(1), { headers: { authorization: basic } });
    const many = await via('kanban-maxsize-ignored', kanban(100), { headers: { authorization: basic } });
    expect(one.hits.requests).toBe(1);
    expect(one.body.replace(/maxsize="\d+"/, '')).toBe(many.body.replace(/maxsize="\d+"/, ''));
  });

  it('without a mutant the proxy passes requests and answers through unchanged', async () => {
    const direct = await fetch(`${server.url}/api/1/IVVc?compcode=1&sort=SerNr&limit=3`, { headers: json });
    const proxied = await via(undefined, '/api/1/IVVc?compcode=1&sort=SerNr&limit=3', { headers: json });
    expect(proxied.status).toBe(200);
    expect(proxied.body).toBe(await direct.text());
  });

  it('an exchange hook answers in the proxy, may send several requests upstream, and counts as a changed request', async () => {
    const sent: string[] = [];
    const twice: Mutant = {
      id: 'read-twice',
      description: 'd',
      breaks: [],
      exchange: async (req, forward) => {
        if (!req.url.includes('limit=2')) return undefined;
        sent.push((await forward(req)).status.toString());
        const second = await forward(req);
        sent.push(second.status.toString());
        return { ...second, headers: { ...second.headers, 'x-twice': 'yes' } };
      },
    };
    const proxy = await startProxy(server.url, twice);
    try {
      const res = await fetch(`${proxy.url}/api/1/IVVc?compcode=1&limit=2`, { headers: json });
      expect([res.status, res.headers.get('x-twice'), records(await res.text()).length]).toEqual([200, 'yes', 2]);
      expect(sent).toEqual(['200', '200']);
      const plain = await fetch(`${proxy.url}/api/1/IVVc?compcode=1&limit=1`, { headers: json });
      expect(plain.headers.get('x-twice')).toBeNull();
      expect(proxy.hits).toEqual({ requests: 1, responses: 0 });
    } finally {
      await proxy.close();
    }
  });

  it('batch-cut-short halves a read with limit 1,000 or more and leaves a smaller limit alone', async () => {
    const count = async (mutant: string | undefined, limit: number) =>
      records((await via(mutant, `/api/1/IVVc?compcode=1&limit=${limit}`, { headers: json })).body).length;
    const whole = await count(undefined, 1000);
    expect(whole).toBeGreaterThan(1);
    expect(await count('batch-cut-short', 1000)).toBe(Math.ceil(whole / 2));
    expect(await count('batch-cut-short', 999)).toBe(await count(undefined, 999));
  });

  it.each([
    [
      'sort-descending',
      '/api/1/IVVc?compcode=1&sort=SerNr&limit=4',
      (b: string) => {
        const s = records(b).map((r) => Number(r.SerNr));
        expect(s).toEqual([...s].sort((x, y) => y - x));
      },
    ],
    ['limit-ignored', '/api/1/IVVc?compcode=1&limit=1', (b: string) => expect(records(b).length).toBeGreaterThan(1)],
    [
      'fields-ignored',
      '/api/1/IVVc?compcode=1&limit=1&fields=SerNr',
      (b: string) => expect(Object.keys(records(b)[0]!)).toContain('CustCode'),
    ],
    [
      'rownumber-1-based',
      '/api/1/IVVc?compcode=1&limit=1',
      (b: string) => expect((records(b)[0]!.rows as { '@rownumber': string }[])[0]!['@rownumber']).toBe('1'),
    ],
    [
      'json-numbers',
      '/api/1/IVVc?compcode=1&limit=1',
      (b: string) => expect(typeof records(b)[0]!.SerNr).toBe('number'),
    ],
  ])('%s (JSON)', async (id, path, check) => {
    const r = await via(id, path, { headers: json });
    expect(r.status).toBe(200);
    check(r.body);
  });

  it('sort-descending: offset and limit page the descending order, as the unpaged read has it', async () => {
    const sernrs = async (q: string) =>
      records((await via('sort-descending', `/api/1/IVVc?compcode=1&sort=SerNr${q}`, { headers: json })).body).map(
        (r) => r.SerNr,
      );
    const unpaged = await sernrs('');
    expect(unpaged.map(Number)).toEqual([...unpaged].map(Number).sort((x, y) => y - x));
    expect(await sernrs('&offset=2&limit=3')).toEqual(unpaged.slice(2, 5));
    expect(await sernrs('&limit=2')).toEqual(unpaged.slice(0, 2));
    expect(await sernrs('&offset=3')).toEqual(unpaged.slice(3));
    // a malformed limit passes to the server, which refuses it
    expect(
      (await via('sort-descending', '/api/1/IVVc?compcode=1&sort=SerNr&limit=abc', { headers: json })).status,
    ).not.toBe(200);
  });

  it('filters-dropped-with-sort: a filter works alone and is ignored next to sort', async () => {
    const q = '/api/1/IVVc?compcode=1&filter.SerNr=10000001';
    expect(records((await via('filters-dropped-with-sort', q, { headers: json })).body)).toHaveLength(1);
    const sorted = await via('filters-dropped-with-sort', `${q}&sort=SerNr`, { headers: json });
    expect(records(sorted.body).length).toBeGreaterThan(1);
  });

  it('offset-ignored: offset=1 answers the first record', async () => {
    const first = records(
      (await via(undefined, '/api/1/IVVc?compcode=1&sort=SerNr&limit=1', { headers: json })).body,
    )[0];
    const r = await via('offset-ignored', '/api/1/IVVc?compcode=1&sort=SerNr&limit=1&offset=1', { headers: json });
    expect(records(r.body)[0]!.SerNr).toBe(first!.SerNr);
  });

  it('range-exclusive: the end points are gone (XML)', async () => {
    const all3 = await via(undefined, '/api/1/IVVc?compcode=1&sort=SerNr&range=10000001:10000003', {
      headers: { authorization: basic },
    });
    expect(all3.body.match(/<IVVc /g)).toHaveLength(3);
    const r = await via('range-exclusive', '/api/1/IVVc?compcode=1&sort=SerNr&range=10000001:10000003', {
      headers: { authorization: basic },
    });
    expect(r.body.match(/<IVVc /g)).toHaveLength(1);
    expect(r.body).toContain('<SerNr>10000002</SerNr>');
    expect(r.body).toMatch(/^<\?xml[^>]*>\s*<data [^>]*>\s*<IVVc [\s\S]*<\/IVVc>\s*<\/data>\s*$/);
  });

  it('filters-or: a second filter no longer narrows the result', async () => {
    const q = '/api/1/IVVc?compcode=1&filter.OKFlag=1&filter.SerNr=10000001';
    expect(records((await via(undefined, q, { headers: json })).body)).toHaveLength(1);
    expect(records((await via('filters-or', q, { headers: json })).body).length).toBeGreaterThan(1);
  });

  it('sequence-header-disagrees: header = envelope + 1', async () => {
    const r = await via('sequence-header-disagrees', '/api/1/IVVc?compcode=1&limit=1', { headers: json });
    expect(Number(r.headers.get('sequence'))).toBe(Number(JSON.parse(r.body).data['@sequence']) + 1);
  });

  it('deletes-after-empty: 204 with nothing', async () => {
    const r = await via('deletes-after-empty', '/api/1/IVVc?compcode=1&deletes_after=0', { headers: json });
    expect([r.status, r.body]).toEqual([204, '']);
  });

  it('no-credentials-accepted: a request without credentials is served', async () => {
    expect((await via(undefined, '/api/1/IVVc?compcode=1&limit=1')).status).toBe(401);
    expect((await via('no-credentials-accepted', '/api/1/IVVc?compcode=1&limit=1')).status).toBe(200);
  });

  it('hsession-ignored: the cookie alone is refused', async () => {
    const r = await via('hsession-ignored', '/api/1/IVVc?compcode=1&limit=1', { headers: { cookie: 'HSESSION=abc' } });
    expect(r.status).toBe(401);
  });

  it('read-only-accepts-write: a POST to ItemStatusVc is answered as created and listed afterwards', async () => {
    const proxy = await startProxy(server.url, mutant('read-only-accepts-write'));
    try {
      const post = await fetch(`${proxy.url}/api/1/ItemStatusVc?compcode=1`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'set_field.Code=ECRO1&set_field.Location=X',
      });
      expect(post.status).toBe(200);
      const q = `${proxy.url}/api/1/ItemStatusVc?compcode=1&filter.Code=ECRO1&filter.Location=X`;
      const asJson = (await (await fetch(q, { headers: json })).json()) as { data: { ItemStatusVc: unknown[] } };
      expect(asJson.data.ItemStatusVc).toMatchObject([{ Code: 'ECRO1', Location: 'X' }]);
      const asXml = await (await fetch(q, { headers: { authorization: basic } })).text();
      expect(asXml).toMatch(
        /<data [^>]*><ItemStatusVc [^>]*><Code>ECRO1<\/Code><Location>X<\/Location><rows\/><\/ItemStatusVc>/,
      );
      const direct = (await (await fetch(q.replace(proxy.url, server.url), { headers: json })).json()) as {
        data: { ItemStatusVc: unknown[] };
      };
      expect(direct.data.ItemStatusVc).toEqual([]); // the server itself stored nothing
    } finally {
      await proxy.close();
    }
  });

  it('sequence-frozen: a write does not move the Sequence header', async () => {
    const proxy = await startProxy(server.url, mutant('sequence-frozen'));
    try {
      const before = await fetch(`${proxy.url}/api/1/IVVc?compcode=1&limit=1`, { headers: json });
      const write = await fetch(`${proxy.url}/api/1/PDVc?compcode=1`, {
        method: 'POST',
        headers: { ...json, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'set_field.Code=ECSEQ1',
      });
      expect(write.headers.get('sequence')).toBe(before.headers.get('sequence'));
      expect(JSON.parse(await write.text()).data['@sequence']).toBe(before.headers.get('sequence'));
    } finally {
      await proxy.close();
    }
  });

  it('url-key-not-encoded: @url carries the raw key', async () => {
    await fetch(`${server.url}/api/1/PDVc?compcode=1`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: `set_field.Code=${encodeURIComponent('EC 1%')}`,
    });
    const q = `/api/1/PDVc?compcode=1&filter.Code=${encodeURIComponent('EC 1%')}`;
    expect(JSON.parse((await via(undefined, q, { headers: json })).body).data.PDVc[0]['@url']).toBe(
      '/api/1/PDVc/EC%201%25',
    );
    expect(JSON.parse((await via('url-key-not-encoded', q, { headers: json })).body).data.PDVc[0]['@url']).toBe(
      '/api/1/PDVc/EC 1%',
    );
  });
});

describe('mutants that rewrite one request or response (checked on the exchange itself)', () => {
  const req = (url: string, extra: Partial<ProxyRequest> = {}): ProxyRequest => ({
    method: 'GET',
    url,
    headers: {},
    body: Buffer.alloc(0),
    ...extra,
  });
  const res = (body: string, type = 'application/xml'): ProxyResponse => ({
    status: 200,
    headers: { 'content-type': type },
    body: Buffer.from(body),
  });
  const urlOf = (x: ProxyRequest | ProxyResponse) => ('url' in x ? x.url : '');

  it.each([
    [
      'deleterow-0-based',
      '/WebErpAPI.hal?action=deleterow&register=IVVc&id=10000001%3A1%2C3',
      '/WebErpAPI.hal?action=deleterow&register=IVVc&id=10000001%3A2%2C4',
    ],
    [
      'insertrow-one-row-early',
      '/WebErpAPI.hal?action=insertrow&register=IVVc&id=10000001%3A2%3A1',
      '/WebErpAPI.hal?action=insertrow&register=IVVc&id=10000001%3A1%3A1',
    ],
    ['perpage-ignored', '/WebErpAPI.hal?register=IVVc&page=1&perpage=5', '/WebErpAPI.hal?register=IVVc&page=1'],
    [
      'page-zero-accepted',
      '/WebErpAPI.hal?register=IVVc&page=0&perpage=5',
      '/WebErpAPI.hal?register=IVVc&page=1&perpage=5',
    ],
    ['report-without-usercode', '/WebErpAPI.hal?action=report', '/WebErpAPI.hal?action=report&usercode=ADMIN'],
  ])('%s rewrites %s', (id, from, to) => {
    expect(urlOf(mutant(id).request!(req(from)))).toBe(to);
  });

  it('insertrow-one-row-early leaves afterRow 0 alone', () => {
    const at0 = req('/WebErpAPI.hal?action=insertrow&register=IVVc&id=10000001%3A0%3A2');
    expect(urlOf(mutant('insertrow-one-row-early').request!(at0))).toBe(at0.url);
  });

  it('okflag-ignored drops set_field.OKFlag=1 from a form POST', () => {
    const out = mutant('okflag-ignored').request!(
      req('/api/1/IVVc?compcode=1', { method: 'POST', body: Buffer.from('set_field.CustCode=C1&set_field.OKFlag=1') }),
    ) as ProxyRequest;
    expect(out.body.toString()).toBe('set_field.CustCode=C1');
  });

  it('lookup-returns-51 adds a 51st result when 50 came back, and leaves fewer alone', () => {
    const items = (n: number) =>
      `<data>${Array.from({ length: n }, (_, i) => `<INVc><Code>A${i}</Code></INVc>`).join('')}</data>`;
    const r = req('/WebErpAPI.hal?action=pastespecial&register=INVc&id=a');
    const out = mutant('lookup-returns-51').response!(r, res(items(50)));
    expect(out.body.toString().match(/<INVc>/g)).toHaveLength(51);
    const few = res(items(3));
    expect(mutant('lookup-returns-51').response!(r, few)).toBe(few);
  });

  it.each([
    [
      'approvalstatus-6',
      '/WebErpAPI.hal?action=action&register=checkapprovalstatus&regname=IVVc&id=1',
      '<data><res errstr="" regname="IVVc"/><DummyVc><approvalstatus>2</approvalstatus></DummyVc></data>',
      '<approvalstatus>6</approvalstatus>',
    ],
    [
      'attachment-date-dmy',
      '/WebErpAPI.hal?action=action&register=getattachlist&regname=IVVc&id=1',
      '<data><attachment uuid="u" filename="a.txt" size="3" date="2025-03-01"/></data>',
      'date="01.03.2025"',
    ],
  ])('%s', (id, url, body, want) => {
    expect(mutant(id).response!(req(url), res(body)).body.toString()).toContain(want);
  });

  it('throttles-with-retry-after answers 429 to every 9th request and 503 to every 23rd of the rest, with Retry-After', async () => {
    // a fresh catalogue: the counters of the shared one depend on the tests that ran before
    const m = transportMutants().find((x) => x.id === 'throttles-with-retry-after')!;
    expect(m.harmless).toBe(true);
    const proxy = await startProxy(server.url, m);
    const throttled: [number, number, string | null, string][] = [];
    try {
      for (let i = 1; i <= 27; i++) {
        const res = await fetch(`${proxy.url}/api/1/IVVc?compcode=1&limit=1`, { headers: json });
        const body = await res.text();
        if (res.status !== 200) throttled.push([i, res.status, res.headers.get('retry-after'), body]);
      }
    } finally {
      await proxy.close();
    }
    expect(throttled).toEqual([
      [9, 429, '1', 'Too Many Requests'],
      [18, 429, '1', 'Too Many Requests'],
      [25, 503, '1', 'Service Unavailable'],
      [27, 429, '1', 'Too Many Requests'],
    ]);
  });
});
