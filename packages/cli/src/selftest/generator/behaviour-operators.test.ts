/** What each operator of the behaviour family does to a request or an answer, on hand-made exchanges. */
import { describe, expect, it } from 'vitest';
import type { ProxyRequest, ProxyResponse } from '../proxy.js';
import { behaviourMutants } from './behaviour-mutants.js';

const byId = new Map(behaviourMutants().map((m) => [m.id, m]));
const mutant = (id: string) => {
  const m = byId.get(id);
  expect(m, id).toBeDefined();
  return m!;
};
const get = (url: string, headers: Record<string, string> = {}): ProxyRequest => ({
  method: 'GET',
  url,
  headers,
  body: Buffer.alloc(0),
});
const post = (url: string, body: unknown, type = 'application/json'): ProxyRequest => ({
  method: 'POST',
  url,
  headers: { 'content-type': type },
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
});
const json = (v: unknown, status = 200): ProxyResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(v)),
});
const xml = (body: string): ProxyResponse => ({
  status: 200,
  headers: { 'content-type': 'application/xml' },
  body: Buffer.from(body),
});
const query = (r: ProxyRequest | ProxyResponse) => new URL(`http://h${(r as ProxyRequest).url}`).searchParams;
/** A recording stand-in for the proxy's upstream. */
function upstream(answer: (r: ProxyRequest) => ProxyResponse) {
  const sent: ProxyRequest[] = [];
  return {
    sent,
    forward: async (r: ProxyRequest) => {
      sent.push(r);
      return answer(r);
    },
  };
}
const OK = xml('<data><res errstr=""/></data>');

describe('parameter-ignored', () => {
  it('drops the parameter from its operation only, and only the values of its form', () => {
    const limit = mutant('behaviour:parameter-ignored:REST.QUERY.LIMIT:list.limit');
    expect(query(limit.request!(get('/api/1/CUVc?limit=5&sort=Code'))).has('limit')).toBe(false);
    const portal = get('/WebErpAPI.hal?register=IVVc&limit=5');
    expect(limit.request!(portal)).toBe(portal);
    const exact = mutant('behaviour:parameter-ignored:REST.QUERY.RANGE_EXACT:list.range');
    expect(query(exact.request!(get('/api/1/CUVc?sort=Code&range=C1'))).has('range')).toBe(false);
    const fromTo = get('/api/1/CUVc?sort=Code&range=C1:C9');
    expect(exact.request!(fromTo)).toBe(fromTo);
  });
  it('drops every filter, and a JSON body member', () => {
    const filter = mutant('behaviour:parameter-ignored:REST.QUERY.FILTER_EXACT:list.filter.*');
    const out = query(filter.request!(get('/api/1/CUVc?filter.Code=A&filter.Name=B&limit=2')));
    expect([...out.keys()]).toEqual(['limit']);
    const row = mutant('behaviour:parameter-ignored:PORTAL.TRIGGER.ROWINDEX:windowactions.rowindex');
    const sent = post('/WebErpAPI.hal?action=windowactions', { vcname: 'IVVc', fieldname: 'Quant', rowindex: 1 });
    expect(JSON.parse((row.request!(sent) as ProxyRequest).body.toString())).toEqual({
      vcname: 'IVVc',
      fieldname: 'Quant',
    });
  });
  it('on a register of its rule only', () => {
    const m = mutant('behaviour:parameter-ignored:PORTAL.LIST.KANBAN_PARAMS:list.maxsize:Kanban');
    expect(query(m.request!(get('/WebErpAPI.hal?register=Kanban&maxsize=2'))).has('maxsize')).toBe(false);
    const other = get('/WebErpAPI.hal?register=IVVc&maxsize=2');
    expect(m.request!(other)).toBe(other);
  });
  it('leaves a rule undecided where the docs show no answer that could FAIL it (the Kanban response, rule 14)', () => {
    const m = mutant('behaviour:parameter-ignored:PORTAL.LIST.KANBAN_PARAMS:list.maxsize:Kanban');
    expect(m.breaks).toEqual([]);
    expect(m.undecided).toEqual(['PORTAL.LIST.KANBAN_PARAMS']);
    // every other parameter breaks its rule
    expect(mutant('behaviour:parameter-ignored:PORTAL.LIST.ORDER:list.order').breaks).toEqual(['PORTAL.LIST.ORDER']);
  });
});

describe('decoy-used', () => {
  it('takes the lookup text from search when one is sent', () => {
    const m = mutant('behaviour:decoy-used:PORTAL.LOOKUP.ID_IS_SEARCH:pastespecial.search');
    expect(query(m.request!(get('/WebErpAPI.hal?action=pastespecial&register=CUVc&id=ab&search=zz'))).get('id')).toBe(
      'zz',
    );
    const plain = get('/WebErpAPI.hal?action=pastespecial&register=CUVc&id=ab');
    expect(m.request!(plain)).toBe(plain);
  });
  it('files JSON records under their @register instead of the URL register', () => {
    const m = mutant('behaviour:decoy-used:REST.WRITE.JSON_REGISTER_FROM_URL:create-json.@register');
    const sent = post('/api/1/CUVc', { data: { CUVc: [{ '@register': 'INVc', Code: 'X' }] } });
    expect((m.request!(sent) as ProxyRequest).url).toBe('/api/1/INVc');
  });
});

describe('accepted-refused', () => {
  it('refuses a JSON POST with @register in its records with the error shape, and lets one without through', () => {
    const m = mutant('behaviour:accepted-refused:REST.WRITE.JSON_AT_REGISTER_OPTIONAL:create-json');
    const withRegister = post('/api/1/CUVc', { data: { CUVc: [{ '@register': 'CUVc', Code: 'X' }] } });
    const refused = m.request!({ ...withRegister, headers: { ...withRegister.headers, accept: 'application/json' } });
    expect(refused).toMatchObject({ status: 400 });
    expect(JSON.parse((refused as ProxyResponse).body.toString()).error['@code']).toBe('1011');
    const without = post('/api/1/CUVc', { data: { CUVc: [{ Code: 'X' }] } });
    expect(m.request!(without)).toBe(without);
  });
  it('answers a portal refusal in errstr, a field trigger with the JSON failure', () => {
    const del = mutant('behaviour:accepted-refused:PORTAL.ROWS.DELETEROW_REGISTERS:deleterow');
    const out = del.request!(get('/WebErpAPI.hal?action=deleterow&register=IVVc&id=1:1')) as ProxyResponse;
    expect(out.body.toString()).toMatch(/<res errstr="[^"]+"\/>/);
    const wa = mutant('behaviour:accepted-refused:PORTAL.TRIGGER.REGISTERS:windowactions');
    const res = wa.request!(post('/WebErpAPI.hal?action=windowactions', { vcname: 'IVVc', fieldname: '__new' }));
    expect(JSON.parse((res as ProxyResponse).body.toString())).toMatchObject({ success: false });
  });
});

describe('feed-forgets', () => {
  it('leaves the record with the highest sequence out of updates_after, and answers 204 for a lone deletion', () => {
    const up = mutant('behaviour:feed-forgets:REST.SEQ.UPDATES_AFTER:updates_after');
    const feed = json({
      data: {
        '@register': 'CUVc',
        CUVc: [
          { Code: 'A', '@sequence': '12' },
          { Code: 'B', '@sequence': '15' },
          { Code: 'C', '@sequence': '13' },
        ],
      },
    });
    const out = JSON.parse(up.response!(get('/api/1/CUVc?updates_after=10'), feed).body.toString());
    expect(out.data.CUVc.map((r: { Code: string }) => r.Code)).toEqual(['A', 'C']);
    const del = mutant('behaviour:feed-forgets:REST.SEQ.DELETES_AFTER:deletes_after');
    const one = xml('<data register="CUVc" sequence="20"><CUVc sequence="19"><Code>A</Code></CUVc></data>');
    expect(del.response!(get('/api/1/CUVc?deletes_after=10'), one)).toMatchObject({ status: 204 });
    expect(del.response!(get('/api/1/CUVc?limit=1'), one)).toBe(one);
  });
});

describe('computed-kept', () => {
  it('answers the computed field as the trigger request sent it', () => {
    const m = mutant('behaviour:computed-kept:PORTAL.TRIGGER.INVC_VOLUME_FORMULA:INVc.Width->Volume');
    const req = post('/WebErpAPI.hal?action=windowactions', {
      vcname: 'INVc',
      fieldname: 'Width',
      value: '2',
      values: { header: { Width: '2', Height: '3', Depth: '4', Volume: '1' } },
    });
    const res = json({ success: true, res: true, record: { Width: '2', Height: '3', Depth: '4', Volume: '24' } });
    expect(JSON.parse(m.response!(req, res).body.toString()).record.Volume).toBe('1');
    const other = post('/WebErpAPI.hal?action=windowactions', { vcname: 'INVc', fieldname: 'Height', values: {} });
    expect(m.response!(other, res)).toBe(res);
  });
});

describe('write-does-nothing', () => {
  it('answers a portal write of its register with the documented success where the server would take it', async () => {
    const m = mutant('behaviour:write-does-nothing:PORTAL.ROWS.DELETEROW_REMOVES:deleterow:IVVc');
    const rec = (okFlag: string) => json({ data: { IVVc: [{ SerNr: '5', OKFlag: okFlag, rows: [{}, {}] }] } });
    const draft = upstream(() => rec('0'));
    const out = await m.exchange!(get('/WebErpAPI.hal?action=deleterow&register=IVVc&id=5:2'), draft.forward);
    expect(out!.body.toString()).toContain('<res errstr=""/>');
    expect(draft.sent.map((r) => [r.method, r.url])).toEqual([['GET', '/api/1/IVVc/5']]);
    // a row the record lacks, or a confirmed record: the server answers, with its own refusal
    expect(await m.exchange!(get('/WebErpAPI.hal?action=deleterow&register=IVVc&id=5:3'), draft.forward)).toBe(
      undefined,
    );
    const confirmed = upstream(() => rec('1'));
    expect(await m.exchange!(get('/WebErpAPI.hal?action=deleterow&register=IVVc&id=5:1'), confirmed.forward)).toBe(
      undefined,
    );
    const orvc = upstream(() => rec('0'));
    expect(await m.exchange!(get('/WebErpAPI.hal?action=deleterow&register=ORVc&id=5:1'), orvc.forward)).toBe(
      undefined,
    );
    expect(orvc.sent).toEqual([]);
  });
  it('turns a PATCH into a read of the record, and a POST into an envelope without the record', async () => {
    const patch = mutant('behaviour:write-does-nothing:REST.WRITE.UPDATE_PATCH:update');
    const sent: ProxyRequest = { ...post('/api/1/CUVc/C1', 'set_field.Name=x', 'x'), method: 'PATCH' };
    expect(patch.request!(sent)).toMatchObject({ method: 'GET', url: '/api/1/CUVc/C1' });
    const create = mutant('behaviour:write-does-nothing:REST.WRITE.CREATE_FORM:create-form');
    const up = upstream(() => json({ data: { '@register': 'CUVc', '@sequence': '3', CUVc: [{ Code: 'OLD' }] } }));
    const res = await create.exchange!(
      post('/api/1/CUVc?compcode=1', 'set_field.Code=N', 'application/x-www-form-urlencoded'),
      up.forward,
    );
    expect(up.sent.map((r) => [r.method, r.url])).toEqual([['GET', '/api/1/CUVc?limit=1&compcode=1']]);
    expect(JSON.parse(res!.body.toString()).data.CUVc).toEqual([]);
  });
});

describe('write-spills', () => {
  const threeRows = () =>
    upstream((r) =>
      r.method === 'GET' && r.url.startsWith('/api/')
        ? json({ data: { IVVc: [{ SerNr: '7', rows: [{}, {}, {}] }] } })
        : OK,
    );
  it.each([
    ['one-more', '7:2', '7:2,1'],
    ['one-more', '7:1', '7:1,2'],
    ['one-more', '7:3', '7:3,2'],
    ['one-more', '7:1,2,3', undefined],
    ['neighbour', '7:2,3', '7:1,2'],
    ['neighbour', '7:1', '7:2'],
    ['neighbour', '7:1,2,3', undefined],
  ])('deleterow %s turns rows %s of a record of 3 rows into %s', async (variant, id, want) => {
    // the neighbour instead of the listed rows is a numbering of the rows (behaviours.yaml neighbourBreaks)
    const rule = variant === 'neighbour' ? 'PORTAL.ROWS.DELETEROW_ROWS_1_BASED' : 'PORTAL.ROWS.DELETEROW_REMOVES';
    const m = mutant(`behaviour:write-spills:${rule}:deleterow:${variant}:IVVc`);
    const up = threeRows();
    const out = await m.exchange!(get(`/WebErpAPI.hal?action=deleterow&register=IVVc&id=${id}`), up.forward);
    const sent = up.sent.filter((r) => r.url.includes('.hal'));
    if (want === undefined) expect([out, sent]).toEqual([undefined, []]);
    else expect(sent.map((r) => query(r).get('id'))).toEqual([want]);
  });
  it('insertrow neighbour inserts after the next row, where there is one', async () => {
    const m = mutant('behaviour:write-spills:PORTAL.ROWS.INSERTROW_POSITION:insertrow:neighbour:IVVc');
    const up = threeRows();
    await m.exchange!(get('/WebErpAPI.hal?action=insertrow&register=IVVc&id=7:2:1'), up.forward);
    expect(await m.exchange!(get('/WebErpAPI.hal?action=insertrow&register=IVVc&id=7:3:1'), up.forward)).toBe(
      undefined,
    );
    expect(up.sent.filter((r) => r.url.includes('.hal')).map((r) => query(r).get('id'))).toEqual(['7:3:1']);
  });
  it('a PATCH also goes to the next record in key order that is not confirmed', async () => {
    const m = mutant('behaviour:write-spills:REST.WRITE.UPDATE_PATCH:update:one-more');
    const up = upstream((r) =>
      r.method === 'GET'
        ? json({
            data: {
              IVVc: [
                { SerNr: '1', OKFlag: '0' },
                { SerNr: '2', OKFlag: '1' },
                { SerNr: '3', OKFlag: '0' },
              ],
            },
          })
        : json({ data: { IVVc: [] } }),
    );
    const sent: ProxyRequest = { ...post('/api/1/IVVc/1', 'set_field.Addr0=x', 'x'), method: 'PATCH' };
    await m.exchange!(sent, up.forward);
    expect(up.sent.filter((r) => r.method === 'PATCH').map((r) => r.url)).toEqual(['/api/1/IVVc/1', '/api/1/IVVc/3']);
  });
});

describe('transition-lost', () => {
  const unok = get('/WebErpAPI.hal?action=action&register=unokrecord&regname=IVVc&id=42&usercode=ADMIN', {
    authorization: 'Basic eDp5',
  });
  it('not-made: a successful unokrecord is set back before it is answered', async () => {
    const m = mutant('behaviour:transition-lost:PORTAL.UNOK.TO_DRAFT:unokrecord:not-made:IVVc');
    const up = upstream(() => OK);
    expect(await m.exchange!(unok, up.forward)).toBe(OK);
    const undo = up.sent[1]!;
    expect([undo.method, undo.url, undo.body.toString(), undo.headers.authorization]).toEqual([
      'PATCH',
      '/api/1/IVVc/42',
      'set_field.OKFlag=1',
      'Basic eDp5',
    ]);
  });
  it('undone: the next read first sets it back, once, in a fresh copy per run', async () => {
    const m = mutant('behaviour:transition-lost:PORTAL.UNOK.TO_DRAFT:unokrecord:undone:IVVc').fresh!();
    const up = upstream(() => OK);
    await m.exchange!(unok, up.forward);
    expect(up.sent).toHaveLength(1);
    expect(await m.exchange!(get('/api/1/IVVc/42', { authorization: 'Basic eDp5' }), up.forward)).toBeUndefined();
    expect(up.sent.map((r) => r.method)).toEqual(['GET', 'PATCH']);
    await m.exchange!(get('/api/1/IVVc/42'), up.forward);
    expect(up.sent).toHaveLength(2);
  });
  it('not-made on POST: set_field.OKFlag=1 is dropped for the rule registers', () => {
    const m = mutant('behaviour:transition-lost:REST.STATE.OKFLAG_CONFIRM_ON_POST:create-form:not-made:IVVc');
    const form = 'set_field.CustCode=C1&set_field.OKFlag=1';
    const out = m.request!(post('/api/1/IVVc', form, 'application/x-www-form-urlencoded')) as ProxyRequest;
    expect(out.body.toString()).toBe('set_field.CustCode=C1');
    const cuvc = post('/api/1/CUVc', form, 'application/x-www-form-urlencoded');
    expect(m.request!(cuvc)).toBe(cuvc);
  });
});
