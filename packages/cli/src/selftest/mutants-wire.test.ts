// Each mutant's transform on a sample exchange: what it changes, and what it leaves alone (no server, no suite run).
import { describe, expect, it } from 'vitest';
import { type MutantContext, mutants } from './mutants.js';
import type { Mutant, ProxyRequest, ProxyResponse } from './proxy.js';

const ctx: MutantContext = { user: 'erpcert', password: 'erpcert', usercode: 'ADMIN', limitedUsercode: 'JD' };
const mutant = (id: string): Mutant => {
  const m = mutants(ctx).find((x) => x.id === id);
  if (!m) throw new Error(`no mutant ${id}`);
  return m;
};
const req = (url: string, extra: Partial<ProxyRequest> = {}): ProxyRequest => ({
  method: 'GET',
  url,
  headers: {},
  body: Buffer.alloc(0),
  ...extra,
});
const res = (body: string, type = 'application/xml', headers: Record<string, string> = {}): ProxyResponse => ({
  status: 200,
  headers: { 'content-type': type, ...headers },
  body: Buffer.from(body),
});
const json = (doc: unknown, headers: Record<string, string> = {}) =>
  res(JSON.stringify(doc), 'application/json', headers);
const bodyOf = (x: ProxyRequest | ProxyResponse) => x.body.toString('utf8');
const isAnswer = (x: ProxyRequest | ProxyResponse): x is ProxyResponse => 'status' in x;
const portal = (query: string) => `/WebErpAPI.hal?${query}`;

const cuvc = (extra: Record<string, unknown> = {}) => ({
  data: {
    '@register': 'CUVc',
    '@sequence': '7',
    '@systemversion': '1.0',
    CUVc: [
      { '@register': 'CUVc', '@sequence': '5', '@url': '/api/1/CUVc/C1', Code: 'C1', Name: '', rows: [], ...extra },
    ],
  },
});

describe('the catalogue', () => {
  it('holds at least 60 mutants with distinct ids, each breaking a rule of a family', () => {
    const all = mutants(ctx);
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    for (const m of all) {
      expect(
        m.breaks.length > 0 || (m.undecided?.length ?? 0) > 0 || (m.harmless === true && m.select !== undefined),
        m.id,
      ).toBe(true);
      for (const r of [...m.breaks, ...(m.alsoBreaks ?? []), ...(m.undecided ?? [])])
        expect(r, m.id).toMatch(/^(REST|PORTAL)\.[A-Z]+\./);
    }
  });
});

describe('REST response mutants', () => {
  it.each<[string, string, ProxyResponse, (out: ProxyResponse) => void]>([
    [
      'json-empty-null',
      '/api/1/CUVc?compcode=1',
      json(cuvc()),
      (out) => expect(JSON.parse(bodyOf(out)).data.CUVc[0].Name).toBeNull(),
    ],
    [
      'record-sequence-missing',
      '/api/1/CUVc?compcode=1',
      json(cuvc()),
      (out) => {
        const doc = JSON.parse(bodyOf(out));
        expect(doc.data.CUVc[0]).not.toHaveProperty('@sequence');
        expect(doc.data['@sequence']).toBe('7');
      },
    ],
    [
      'record-sequence-missing',
      '/api/1/CUVc?compcode=1',
      res(
        '<data register="CUVc" sequence="7"><CUVc register="CUVc" sequence="5" url="/api/1/CUVc/C1"><Code>C1</Code></CUVc></data>',
      ),
      (out) =>
        expect(bodyOf(out)).toBe(
          '<data register="CUVc" sequence="7"><CUVc register="CUVc" url="/api/1/CUVc/C1"><Code>C1</Code></CUVc></data>',
        ),
    ],
    [
      'rows-missing',
      '/api/1/CUVc?compcode=1',
      json(cuvc()),
      (out) => expect(JSON.parse(bodyOf(out)).data.CUVc[0]).not.toHaveProperty('rows'),
    ],
    [
      'systemversion-missing',
      '/api/1/CUVc?compcode=1',
      json(cuvc()),
      (out) => expect(JSON.parse(bodyOf(out)).data).not.toHaveProperty('@systemversion'),
    ],
    [
      'sequence-header-missing',
      '/api/1/CUVc?compcode=1',
      json(cuvc(), { sequence: '7' }),
      (out) => expect(out.headers).not.toHaveProperty('sequence'),
    ],
    [
      'range-open-exclusive',
      '/api/1/CUVc?compcode=1&sort=Code&range=C1:',
      json({ data: { '@register': 'CUVc', CUVc: [{ Code: 'C1' }, { Code: 'C2' }] } }),
      (out) => expect(JSON.parse(bodyOf(out)).data.CUVc).toEqual([{ Code: 'C2' }]),
    ],
  ])('%s on %s', (id, url, given, check) => {
    check(mutant(id).response!(req(url), given));
  });

  it('systemversion-missing keeps the JSON valid when @systemversion is the last member', () => {
    const given = json({ data: { '@register': 'CUVc', '@sequence': '7', '@systemversion': '1.0' } });
    const out = mutant('systemversion-missing').response!(req('/api/1/CUVc?compcode=1'), given);
    expect(JSON.parse(bodyOf(out))).toEqual({ data: { '@register': 'CUVc', '@sequence': '7' } });
  });

  it('systemversion-missing drops the XML attribute of <data> only', () => {
    const given = res('<data register="CUVc" sequence="7" systemversion="1.0"><CUVc register="CUVc"/></data>');
    const out = mutant('systemversion-missing').response!(req('/api/1/CUVc?compcode=1'), given);
    expect(bodyOf(out)).toBe('<data register="CUVc" sequence="7"><CUVc register="CUVc"/></data>');
  });

  it('rows-missing leaves projected reads (fields=...) alone', () => {
    const given = json(cuvc());
    expect(mutant('rows-missing').response!(req('/api/1/CUVc?fields=Code'), given)).toBe(given);
  });

  it('response mutants of REST leave portal answers alone', () => {
    const given = json(cuvc(), { sequence: '7' });
    for (const id of ['json-empty-null', 'rows-missing', 'systemversion-missing', 'sequence-header-missing'])
      expect(mutant(id).response!(req(portal('action=login')), given), id).toBe(given);
  });
});

describe('REST envelope mutants of one register', () => {
  const xml = (register: string) =>
    res(
      `<data register="${register}" sequence="41" systemversion="1.0"><${register} register="${register}" sequence="7"/></data>`,
    );

  it('opvc-xml-envelope-sequence-empty empties data@sequence of OPVc lists only, XML only', () => {
    const m = mutant('opvc-xml-envelope-sequence-empty');
    expect(bodyOf(m.response!(req('/api/1/OPVc?compcode=1&limit=25'), xml('OPVc')))).toContain(
      '<data register="OPVc" sequence="" systemversion="1.0"><OPVc register="OPVc" sequence="7"/>',
    );
    for (const [url, given] of [
      ['/api/1/IVVc?compcode=1', xml('IVVc')],
      ['/api/1/OPVc?compcode=1', json({ data: { '@register': 'OPVc', '@sequence': '41', OPVc: [] } })],
    ] as const)
      expect(m.response!(req(url), given), url).toBe(given);
  });

  it('ipvc-json-records-not-objects gives IPVc records as strings, other registers untouched', () => {
    const m = mutant('ipvc-json-records-not-objects');
    const doc = (register: string) => ({ data: { '@register': register, [register]: [{ SerNr: '10001' }] } });
    const out = JSON.parse(bodyOf(m.response!(req('/api/1/IPVc?compcode=1'), json(doc('IPVc')))));
    expect(out.data.IPVc).toEqual(['10001']);
    const other = json(doc('IVVc'));
    expect(m.response!(req('/api/1/IVVc?compcode=1'), other)).toBe(other);
  });
});

describe('REST request mutants', () => {
  it('updates-after-ignored drops updates_after', () => {
    const out = mutant('updates-after-ignored').request!(req('/api/1/CUVc?compcode=1&updates_after=10'));
    expect((out as ProxyRequest).url).toBe('/api/1/CUVc?compcode=1');
  });

  it('patch-changes-nothing turns a PATCH into a GET of the same record', () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const out = mutant('patch-changes-nothing').request!(
      req('/api/1/CUVc/C1?compcode=1', { method: 'PATCH', headers, body: Buffer.from('set_field.Name=x') }),
    ) as ProxyRequest;
    expect([out.method, out.url, bodyOf(out)]).toEqual(['GET', '/api/1/CUVc/C1?compcode=1', '']);
    // no header key left without a value: node refuses to send one (the proxy would answer 502)
    expect(out.headers).toStrictEqual({ accept: 'application/json' });
  });

  it('json-post-drops-records keeps the first record only', () => {
    const body = JSON.stringify({ data: { CUVc: [{ Code: 'A' }, { Code: 'B' }] } });
    const headers = { 'content-type': 'application/json' };
    const out = mutant('json-post-drops-records').request!(
      req('/api/1/CUVc?compcode=1', { method: 'POST', headers, body: Buffer.from(body) }),
    ) as ProxyRequest;
    expect(JSON.parse(bodyOf(out))).toEqual({ data: { CUVc: [{ Code: 'A' }] } });
    const one = req('/api/1/CUVc', { method: 'POST', headers, body: Buffer.from('{"data":{"CUVc":[{"Code":"A"}]}}') });
    expect(mutant('json-post-drops-records').request!(one)).toBe(one);
  });

  it('form-rows-reversed numbers the rows backwards', () => {
    const body = 'set_field.CustCode=C1&set_row_field.0.Spec=a&set_row_field.1.Spec=b&set_row_field.2.Spec=c';
    const out = mutant('form-rows-reversed').request!(
      req('/api/1/IVVc', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: Buffer.from(body),
      }),
    ) as ProxyRequest;
    expect(bodyOf(out)).toBe(
      'set_field.CustCode=C1&set_row_field.2.Spec=a&set_row_field.1.Spec=b&set_row_field.0.Spec=c',
    );
  });

  it('company-ignored reads company 1 whatever the company code, and needs --other-compcode', () => {
    const m = mutant('company-ignored');
    expect(m.needs).toEqual(['other-compcode']);
    expect((m.request!(req('/api/2/CUVc?compcode=2&limit=1')) as ProxyRequest).url).toBe(
      '/api/1/CUVc?compcode=1&limit=1',
    );
    expect((m.request!(req(portal('action=pastespecial&compno=2'))) as ProxyRequest).url).toBe(
      portal('action=pastespecial&compno=1'),
    );
    const first = req('/api/1/CUVc?compcode=1');
    expect(m.request!(first)).toBe(first);
  });

  it('a read-only register mutant answers a POST as created without the server', () => {
    const out = mutant('serbalvc-accepts-write').request!(
      req('/api/1/SerBalVc', { method: 'POST', body: Buffer.from('set_field.SerialNr=S1&set_field.Location=L') }),
    );
    expect(isAnswer(out)).toBe(true);
    expect(JSON.parse(bodyOf(out)).data.SerBalVc[0]).toMatchObject({ SerialNr: 'S1', '@url': '/api/1/SerBalVc/S1/L' });
  });
});

describe('portal mutants', () => {
  it.each<[string, string]>([
    ['list-dates-refused', 'register=IVVc&sd=2025-01-01&ed=2025-02-01'],
    ['posttext-refused', 'action=posttext&register=EPOrderDocVc&id=1'],
    ['deactivate-refused', 'action=deactivate'],
    ['trigger-encrypted-refused', 'action=windowactions&encrypted=true'],
    ['getportalusers-refused', 'action=action&register=getportalusers'],
    ['getemployeeinfo-refused', 'action=action&register=getemployeeinfo&empcode=E1'],
    ['getcomments-refused', 'action=action&register=getcomments'],
    ['getrecordlinks-refused', 'action=action&register=getrecordlinks'],
    ['document-orvc-refused', 'action=document&register=ORVc&id=1'],
  ])('%s answers a refusal (non-empty errstr) to %s', (id, query) => {
    const out = mutant(id).request!(req(portal(query)));
    expect(isAnswer(out)).toBe(true);
    expect(bodyOf(out)).toMatch(/<res errstr="[^"]+"\/>/);
  });

  it.each<[string, string]>([
    ['delete-does-nothing', 'action=delete&register=IVVc&id=1'],
    ['attachment-delete-does-nothing', 'action=action&register=deleteattachment&uuid=u'],
    ['sendemail-without-address', 'action=action&register=sendemail&regname=IVVc&id=1'],
    ['copy-does-nothing', 'action=action&register=copyrecord&regname=IVVc&id=1'],
  ])('%s answers success without the server to %s', (id, query) => {
    const out = mutant(id).request!(req(portal(query)));
    expect(isAnswer(out) && bodyOf(out)).toContain('<res errstr=""/>');
  });

  it('copy-does-nothing leaves the copy of other registers alone', () => {
    const other = req(portal('action=action&register=copyrecord&regname=ORVc&id=1'));
    expect(mutant('copy-does-nothing').request!(other)).toBe(other);
  });

  it('refusals leave other actions alone', () => {
    const other = req(portal('action=login'));
    for (const id of ['posttext-refused', 'delete-does-nothing', 'list-dates-refused', 'getcomments-refused'])
      expect(mutant(id).request!(other), id).toBe(other);
    const invoice = req(portal('action=document&register=IVVc&id=1'));
    expect(mutant('document-orvc-refused').request!(invoice)).toBe(invoice);
    // the list without a search (how the suite tells a record that has left the open items) is left alone
    const unsearched = req(portal('action=list&register=ARVc&page=1'));
    expect(mutant('list-search-finds-nothing').request!(unsearched)).toBe(unsearched);
  });

  it.each<[string, string, Partial<ProxyRequest>, string]>([
    ['list-order-ignored', 'register=IVVc&order=descending', {}, 'register=IVVc&order=ascending'],
    ['list-search-ignored', 'register=ARVc&search=abc&page=1', {}, 'register=ARVc&page=1'],
    [
      'list-search-finds-nothing',
      'register=ARVc&search=10000011&page=1',
      {},
      'register=ARVc&search=10000011-ERPCERT-NO-MATCH&page=1',
    ],
    [
      'lookup-first-term-only',
      'action=pastespecial&register=INVc&id=steel+lamp',
      {},
      'action=pastespecial&register=INVc&id=steel',
    ],
    [
      'unok-without-permission',
      'action=action&register=unokrecord&usercode=JD',
      {},
      'action=action&register=unokrecord&usercode=ADMIN',
    ],
    ['report-access-ignored', 'action=report&usercode=JD', {}, 'action=report&usercode=ADMIN'],
  ])('%s rewrites %s', (id, from, extra, to) => {
    expect((mutant(id).request!(req(portal(from), extra)) as ProxyRequest).url).toBe(portal(to));
  });

  it('lookup-vevc-all-contacts asks AllCUVc (the register the docs name) and names the results VEVc', () => {
    const m = mutant('lookup-vevc-all-contacts');
    const sent = m.request!(req(portal('action=pastespecial&register=VEVc&id=a'))) as ProxyRequest;
    expect(sent.url).toBe(portal('action=pastespecial&register=AllCUVc&id=a'));
    const out = m.response!(sent, res('<data><AllCUVc><Code>C1</Code></AllCUVc></data>'));
    expect(bodyOf(out)).toBe('<data><VEVc><Code>C1</Code></VEVc></data>');
  });

  it('lookup-case-sensitive drops results whose words do not start with the term as typed', () => {
    const body =
      '<data><INVc><Code>A1</Code><Name>Steel Lamp</Name></INVc><INVc><Code>A2</Code><Name>steel pipe</Name></INVc></data>';
    const out = mutant('lookup-case-sensitive').response!(
      req(portal('action=pastespecial&register=INVc&id=steel')),
      res(body),
    );
    expect(bodyOf(out)).toBe('<data><INVc><Code>A2</Code><Name>steel pipe</Name></INVc></data>');
  });

  it.each<[string, string, string, RegExp, RegExp]>([
    [
      'lookup-invc-without-uprice1',
      'action=pastespecial&register=INVc&id=a',
      '<data><INVc><Code>A</Code><UPrice1>1.00</UPrice1></INVc></data>',
      /<INVc><Code>A<\/Code><\/INVc>/,
      /UPrice1/,
    ],
    [
      'login-attributes-missing',
      'action=login',
      '<data><res errstr="" dateformat="YYYY-MM-DD" dec_separator="." apiversion="1"/></data>',
      /apiversion="1"/,
      /dateformat|dec_separator/,
    ],
    [
      'login-without-version',
      'action=login',
      '<data><res errstr="" dateformat="D" apiversion="1.0.1" version="1.0"/></data>',
      /apiversion="" version=""/,
      /1\.0/,
    ],
    [
      'approval-shape',
      'action=action&register=checkapprovalstatus&regname=IVVc&id=1',
      '<data><DummyVc><approvalstatus>1</approvalstatus><message>m</message><cancancel>0</cancancel></DummyVc></data>',
      /<approvalstatus>1<\/approvalstatus>/,
      /cancancel|message/,
    ],
    [
      'document-not-pdf',
      'action=document&register=IVVc&id=1',
      '<data><file><name>a.pdf</name><base64>JVBERi0x</base64></file></data>',
      /<name>a\.pdf<\/name>/,
      /JVBERi0x/,
    ],
    [
      'hasusernewapi-yes',
      'action=action&register=hasusernewapi&usercode=ADMIN',
      '<data><res errstr="" hasapi="1"/></data>',
      /hasapi="yes"/,
      /hasapi="1"/,
    ],
    [
      'convert-newdata-names-no-record',
      'action=action&register=createslinvoicefromorder&id=1',
      '<data><res errstr="" newdata="100"/></data>',
      /newdata="1009"/,
      /newdata="100"/,
    ],
  ])('%s', (id, query, body, kept, gone) => {
    const out = bodyOf(mutant(id).response!(req(portal(query)), res(body)));
    expect(out).toMatch(kept);
    expect(out).not.toMatch(gone);
  });

  it('report-filters-without-fields and aef-without-rules cut the JSON member', () => {
    const filters = json({ reports: [{ reportwindow: 'W', repname: 'R', fields: [{ name: 'sd' }] }] });
    const f = mutant('report-filters-without-fields').response!(
      req(portal('action=action&register=getreportfilters')),
      filters,
    );
    expect(JSON.parse(bodyOf(f))).toEqual({ reports: [{ reportwindow: 'W', repname: 'R' }] });
    const aef = json({ activeFields: {}, rules: [] });
    const a = mutant('aef-without-rules').response!(req(portal('action=activeeditfields&vcname=CUVc')), aef);
    expect(JSON.parse(bodyOf(a))).toEqual({ activeFields: {} });
  });
});

describe('transport mutants', () => {
  it('http-500-sometimes answers every 17th request with an HTML 500 page', () => {
    const m = mutant('http-500-sometimes');
    const outs = Array.from({ length: 34 }, () => m.request!(req('/api/1/CUVc')));
    const failed = outs.flatMap((o, i) => (isAnswer(o) ? [i + 1] : []));
    expect(failed).toEqual([17, 34]);
    expect((outs[16] as ProxyResponse).status).toBe(500);
    expect(bodyOf(outs[16]!)).toContain('<html>');
  });

  it('truncated-bodies cuts every REST answer and every portal answer but login in half, whatever the order', () => {
    const m = mutant('truncated-bodies');
    const whole = '<data><CUVc><Code>C1</Code></CUVc></data>';
    const cut = whole.slice(0, Math.floor(whole.length / 2));
    const doc = JSON.stringify({ data: { '@register': 'CUVc', CUVc: [{ Code: 'C1' }] } });
    const answer = (url: string, r: ProxyResponse) => bodyOf(m.response!(req(url), r));
    expect(answer('/api/1/CUVc', res(whole))).toBe(cut);
    expect(answer('/api/1/CUVc', res(whole))).toBe(cut);
    expect(answer('/api/1/', res(whole))).toBe(cut);
    expect(answer('/api/1/CUVc', json(JSON.parse(doc)))).toBe(doc.slice(0, Math.floor(doc.length / 2)));
    expect(answer(portal('register=CUVc&page=1'), res(whole))).toBe(cut);
    expect(answer(portal('action=windowactions&vcname=IVVc'), json(JSON.parse(doc)))).toBe(
      doc.slice(0, Math.floor(doc.length / 2)),
    );
    expect(answer(portal('action=login'), res(whole))).toBe(whole);
    expect(answer('/api/1/CUVc', { ...res(whole), status: 404 })).toBe(whole);
  });
});
