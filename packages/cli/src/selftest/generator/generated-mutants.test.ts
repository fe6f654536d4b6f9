import { describe, expect, it } from 'vitest';
import type { ProxyRequest, ProxyResponse } from '../proxy.js';
import { catalogueMutants, requestRegister } from './catalogue-mutants.js';
import { generatedMutants } from './generated-mutants.js';

const req = (url: string, method = 'GET'): ProxyRequest => ({ method, url, headers: {}, body: Buffer.alloc(0) });
const xml = (body: string): ProxyResponse => ({
  status: 200,
  headers: { 'content-type': 'application/xml' },
  body: Buffer.from(body),
});
const json = (v: unknown): ProxyResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(v)),
});
const byId = new Map(generatedMutants().map((m) => [m.id, m]));
const mutant = (id: string) => {
  const m = byId.get(id);
  expect(m, id).toBeDefined();
  return m!;
};

const list =
  '<data count="1" page="1" perpage="20" totalpages="1"><IVVc><SerNr>1</SerNr><InvDate>2026-01-05</InvDate><CustCode>C1</CustCode><Sum4>1.00</Sum4></IVVc></data>';

describe('spec mutants', () => {
  it('break the rule that owns their path', () => {
    expect(mutant('spec:portal-list:data/IVVc/Sum4:remove').breaks).toEqual(['PORTAL.LIST.IVVC_FIELDS']);
    expect(mutant('spec:portal-list:data/@count:not-a-number').breaks).toEqual(['PORTAL.LIST.PAGED_SHAPE']);
    expect(mutant('spec:IVVcEnvelope:data/@register:enum-case').breaks).toEqual(['REST.ENVELOPE.REGISTER']);
    expect(mutant('spec:IVVcEnvelope:data/IVVc/@url:null').breaks).toEqual(['REST.RECORD.URL_FORMAT']);
    expect(mutant('spec:portal-attachments:data/attachment/@date:date-dmy').breaks).toEqual([
      'PORTAL.ATTACH.LIST_SHAPE',
    ]);
  });

  it('leave out what the docs allow: an optional REST field removed, an unconstrained XML text changed', () => {
    expect(byId.has('spec:rest-envelope:data/IVVc/InvDate:remove')).toBe(false);
    expect(byId.has('spec:rest-envelope:data/IVVc/InvDate:empty')).toBe(false);
    expect(byId.has('spec:IVVcEnvelope:data/IVVc/InvDate:number')).toBe(true);
  });

  it('mutate the success form of the operation result only (an empty errstr is the documented success)', () => {
    expect(byId.has('spec:portal-result:data/res/@errstr:remove')).toBe(true);
    expect(byId.has('spec:portal-result:data/res/@errstr:empty')).toBe(false);
    expect(byId.has('spec:portal-result:error:remove')).toBe(false);
    expect(byId.has('spec:portal-result:error/@code:rename')).toBe(false);
  });

  it('edit the answers of their body only', () => {
    const m = mutant('spec:portal-list:data/IVVc/Sum4:remove');
    const listReq = req('/WebErpAPI.hal?register=IVVc&page=1');
    expect(m.response!(listReq, xml(list)).body.toString()).not.toContain('Sum4');
    const lookup = xml('<data><INVc><Code>A</Code><Name>B</Name><UPrice1>1</UPrice1></INVc></data>');
    expect(m.response!(req('/WebErpAPI.hal?action=pastespecial&register=INVc&id=A'), lookup)).toBe(lookup);
    const env = json({ data: { '@register': 'IVVc', '@sequence': '1', '@systemversion': '1', IVVc: [] } });
    const reg = mutant('spec:IVVcEnvelope:data/@register:enum-case');
    expect(JSON.parse(reg.response!(req('/api/1/IVVc'), env).body.toString()).data['@register']).toBe('ivvC');
    expect(reg.response!(req('/api/1/CUVc'), env)).toBe(env);
  });
});

describe('catalogue mutants', () => {
  it('make one mutant per member of a listing rule', () => {
    const ids = catalogueMutants().map((m) => m.id);
    for (const f of ['Code', 'Name', 'RegNr1'])
      expect(ids).toContain(`catalogue:PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS:${f}`);
    for (const r of ['INVc', 'CUVc', 'VEVc', 'AllCUVc', 'UserVc'])
      expect(ids).toContain(`catalogue:PORTAL.LOOKUP.REGISTERS:${r}`);
    for (const v of ['1', '2', '3']) expect(ids).toContain(`catalogue:REST.RECORD.ROW_TYPES:${v}`);
  });

  it('refuse a served register for the rule operations only', () => {
    const m = mutant('catalogue:PORTAL.LOOKUP.REGISTERS:CUVc');
    const refused = m.request!(req('/WebErpAPI.hal?action=pastespecial&register=CUVc&id=a'));
    expect('status' in refused && refused.body.toString()).toContain('errstr="Register CUVc is not supported"');
    const other = req('/WebErpAPI.hal?action=pastespecial&register=INVc&id=a');
    expect(m.request!(other)).toBe(other);
  });

  it('refuse a register a JSON operation names in its body, with the JSON failure', () => {
    const post = (url: string, body: string): ProxyRequest => ({
      method: 'POST',
      url,
      headers: {},
      body: Buffer.from(body),
    });
    const m = mutant('catalogue:PORTAL.TRIGGER.REGISTERS:EmplVc');
    const hit = m.request!(
      post(
        '/WebErpAPI.hal?action=windowactions&portalcc=est',
        JSON.stringify({ vcname: 'EmplVc', fieldname: '__new' }),
      ),
    );
    expect('status' in hit && JSON.parse(hit.body.toString())).toMatchObject({ success: false });
    const other = post('/WebErpAPI.hal?action=windowactions', JSON.stringify({ vcname: 'IVVc', fieldname: '__new' }));
    expect(m.request!(other)).toBe(other);
    const aef = mutant('catalogue:PORTAL.AEF.REGISTERS:CUVc');
    const b64 = Buffer.from(JSON.stringify({ vcname: 'CUVc', id: 'C1' })).toString('base64');
    const refused = aef.request!(post('/WebErpAPI.hal?action=activeeditfields', b64));
    expect('status' in refused && JSON.parse(refused.body.toString())).toMatchObject({ success: false });
  });

  it('drop a lookup result found only through the field that is no longer searched', () => {
    const m = mutant('catalogue:PORTAL.LOOKUP.SEARCH_FIELDS_CONTACTS:RegNr1');
    const body = xml(
      '<data><CUVc><Code>C1</Code><Name>Acme</Name><RegNr1>777</RegNr1></CUVc><CUVc><Code>777X</Code><Name>B</Name><RegNr1>1</RegNr1></CUVc></data>',
    );
    const out = m.response!(req('/WebErpAPI.hal?action=pastespecial&register=CUVc&id=777'), body).body.toString();
    expect(out).not.toContain('Acme');
    expect(out).toContain('777X');
  });

  it('answer a row type outside the set, for its member only', () => {
    const m = mutant('catalogue:REST.RECORD.ROW_TYPES:2');
    const env = json({ data: { '@register': 'IVVc', IVVc: [{ rows: [{ stp: '1' }, { stp: '2' }] }] } });
    const out = JSON.parse(m.response!(req('/api/1/IVVc'), env).body.toString());
    expect(out.data.IVVc[0].rows.map((r: { stp: string }) => r.stp)).toEqual(['1', '29']);
  });

  it('take a member carried in a part of the id away there (insertrow {SerNr}:{afterRow}:{rowType})', () => {
    const m = mutant('catalogue:PORTAL.ROWS.INSERTROW_ROWTYPE:3');
    const hit = m.request!(req('/WebErpAPI.hal?action=insertrow&register=IVVc&id=100:2:3'));
    expect(new URL(`http://h${(hit as ProxyRequest).url}`).searchParams.get('id')).toBe('100:2:1');
    for (const url of [
      '/WebErpAPI.hal?action=insertrow&register=IVVc&id=100:3:1',
      '/WebErpAPI.hal?action=deleterow&register=IVVc&id=100:2:3',
    ]) {
      const other = req(url);
      expect(m.request!(other)).toBe(other);
    }
  });

  it('reads the record register of a sub-action from regname', () => {
    expect(requestRegister(req('/WebErpAPI.hal?action=action&register=sendforapproval&regname=ORVc'))).toBe('ORVc');
    expect(requestRegister(req('/WebErpAPI.hal?action=document&register=IVVc'))).toBe('IVVc');
  });
});

describe('catalogue trigger-field mutants', () => {
  const post = (url: string, body: unknown): ProxyRequest => ({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(body)),
  });
  it('refuse their field as a header trigger of their register only', () => {
    const m = mutant('catalogue:PORTAL.TRIGGER.FIELDS_IVVC:header.CustCode');
    const hit = m.request!(
      post('/WebErpAPI.hal?action=windowactions', { vcname: 'IVVc', fieldname: 'CustCode', rowindex: -1 }),
    );
    expect('status' in hit && JSON.parse(hit.body.toString())).toMatchObject({ success: false });
    for (const body of [
      { vcname: 'ORVc', fieldname: 'CustCode', rowindex: -1 },
      { vcname: 'IVVc', fieldname: 'InvDate', rowindex: -1 },
      { vcname: 'IVVc', fieldname: 'CustCode', rowindex: 0 },
    ]) {
      const other = post('/WebErpAPI.hal?action=windowactions', body);
      expect(m.request!(other)).toBe(other);
    }
  });
});

describe('catalogue trigger-field mutants name the rules of what the trigger does', () => {
  it.each([
    ['catalogue:PORTAL.TRIGGER.FIELDS_IVVC:header.CustCode', 'PORTAL.TRIGGER.IVVC_CUSTCODE_DEFAULTS'],
    ['catalogue:PORTAL.TRIGGER.FIELDS_INVC:header.Width', 'PORTAL.TRIGGER.INVC_VOLUME_FORMULA'],
  ])('%s also breaks %s', (id, rule) => {
    expect(mutant(id).alsoBreaks).toContain(rule);
    expect(mutant(id).alsoBreaks).not.toContain('PORTAL.TRIGGER.IVVC_ADDR0_LOOKUP');
  });
});
