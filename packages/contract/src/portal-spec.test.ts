import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type EndpointRow, readPortalDoc } from '../scripts/portal-doc-tables.js';
import { GLOBAL_PARAMETERS } from '../scripts/portal-spec-build.js';
import { renderPortalSpecs } from '../scripts/portal-spec-render.js';
import type { PortalOperations } from './index.js';
import { docsDir, specsDir } from './paths.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions walk arbitrary OpenAPI JSON; vitest reports a wrong path
type J = Record<string, any>;
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;

const doc = readPortalDoc(docsDir);
const SPEC_FILE = join(specsDir, 'portal-action.openapi.yaml');
const raw = parse(readFileSync(SPEC_FILE, 'utf8')) as J;
let api: J;
let ops: { key: string; method: string; op: J }[];
const byId = (id: string) => ops.find((o) => o.op.operationId === id);
const params = (op: J): J[] => op.parameters as J[];
const param = (op: J, name: string): J | undefined => params(op).find((p) => p.name === name);
const dispatchOf = (op: J): Record<string, string> => op['x-erpcert-dispatch'];
/** Values a parameter or property schema admits: const, enum, or the union over anyOf. */
const allowed = (s: J): unknown[] =>
  s.const !== undefined ? [s.const] : s.enum ? s.enum : s.anyOf ? s.anyOf.flatMap(allowed) : [];

beforeAll(async () => {
  api = (await SwaggerParser.validate(structuredClone(raw) as never)) as J;
  ops = Object.entries(api.paths as J).flatMap(([key, item]) =>
    Object.entries(item as J).map(([method, op]) => ({ key, method, op: op as J })),
  );
});

describe('portal spec: validity and drift', () => {
  it('validates with swagger-parser and is OpenAPI 3.1.0', () => {
    expect(api.openapi).toBe('3.1.0');
    expect(ops.length).toBeGreaterThan(60);
  });

  it('the committed specs are what specs/src/portal-* generate', () => {
    for (const [file, text] of Object.entries(renderPortalSpecs(specsDir))) {
      expect(readFileSync(join(specsDir, file), 'utf8'), `specs/${file} drifted; regenerate it`).toBe(text);
    }
  });

  it('generated types pin the dispatch values (compile-time: pnpm typecheck)', () => {
    type GetFile = PortalOperations['action_getfile']['parameters']['query'];
    const query: GetFile = { action: 'action', register: 'getfile', regname: 'IVVc', id: '1', file: 'u' };
    // @ts-expect-error a list query has no action
    const list: PortalOperations['list_IVVc']['parameters']['query'] = { register: 'IVVc', action: 'x' };
    expect([query.register, list.register]).toEqual(['getfile', 'IVVc']);
  });

  it('operationIds are unique', () => {
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('portal spec: every action, sub-action and list of the docs', () => {
  it('§1: each of the 12 actions selects an operation', () => {
    expect(doc.actions).toHaveLength(12);
    for (const action of doc.actions) {
      const found = ops.filter((o) => dispatchOf(o.op).action === action);
      expect(found.length, action).toBeGreaterThan(0);
      if (action === 'action') expect(found.every((o) => dispatchOf(o.op).register)).toBe(true);
    }
  });

  const subActions = () => [
    ...doc.endpoints.flatMap((r) => r.subActions),
    // operation rule 13 names sub-actions the endpoint table does not list
    ...[...doc.operationRules.get(13)!.matchAll(/\b(get\w+|sign\w+)\b/g)].map((m) => m[1]!),
  ];

  it('§4: every sub-action is its own operation action_<name>', () => {
    const names = subActions();
    expect(names).toEqual(expect.arrayContaining(['getportalusers', 'getadminusers', 'getallusers', 'getfile']));
    expect(names.length).toBeGreaterThanOrEqual(40);
    for (const name of names) {
      const o = byId(`action_${name}`);
      expect(o, name).toBeDefined();
      expect(dispatchOf(o!.op)).toEqual({ action: 'action', register: name });
    }
    const specSubs = ops.filter((o) => dispatchOf(o.op).action === 'action').map((o) => dispatchOf(o.op).register);
    expect(new Set(specSubs)).toEqual(new Set(names));
  });

  it('every list register of "Registers per operation" has a list query, and nothing else does', () => {
    const lists = doc.registersPerOperation.get('list queries')!;
    expect(lists).toHaveLength(12);
    const specLists = ops.filter((o) => !dispatchOf(o.op).action);
    expect(specLists.map((o) => dispatchOf(o.op).register).sort()).toEqual([...lists].sort());
    for (const o of specLists) {
      expect(o.method).toBe('get');
      expect(param(o.op, 'action')).toBeUndefined();
    }
  });

  it('every dispatch value is a required const query parameter and the fragment of the path key', () => {
    for (const { key, op } of ops) {
      const d = dispatchOf(op);
      expect(key).toBe(
        `/WebErpAPI.hal#${Object.entries(d)
          .map(([k, v]) => `${k}=${v}`)
          .join('&')}`,
      );
      for (const [name, value] of Object.entries(d)) {
        expect(param(op, name), `${op.operationId} ${name}`).toMatchObject({
          in: 'query',
          required: true,
          schema: { const: value },
        });
      }
    }
  });

  it('no two operations share their dispatch values', () => {
    const keys = ops.map((o) => JSON.stringify(Object.entries(dispatchOf(o.op)).sort()));
    expect(new Set(keys).size).toBe(keys.length);
  });
});

/** The operations one endpoint-table row describes. */
function opsOfRow(row: EndpointRow) {
  if (row.action === undefined) return ops.filter((o) => !dispatchOf(o.op).action);
  if (row.action !== 'action') return ops.filter((o) => dispatchOf(o.op).action === row.action);
  return ops.filter((o) => row.subActions.includes(dispatchOf(o.op).register ?? ''));
}

describe('portal spec: the endpoint table, row by row', () => {
  it.each(doc.endpoints.map((r) => [r.operation, r] as const))('%s', (_name, row) => {
    const rowOps = opsOfRow(row);
    expect(rowOps.length).toBeGreaterThan(0);
    const listRow = row.action === undefined;
    for (const o of rowOps) {
      expect(o.method.toUpperCase()).toBe(row.method);
      // no parameter the docs do not name: row, globals, dispatch, and Kanban's maxsize (operation rule 8)
      const named = new Set([...row.params.map((p) => p.name), ...GLOBAL_PARAMETERS, ...Object.keys(dispatchOf(o.op))]);
      if (dispatchOf(o.op).register === 'Kanban') named.add('maxsize');
      for (const p of params(o.op)) expect(named, `${o.op.operationId} ${p.name}`).toContain(p.name);
    }
    for (const p of row.params) {
      if (p.name === 'action' || (p.name === 'register' && (p.value || listRow))) continue;
      const carriers = rowOps.filter((o) => param(o.op, p.name));
      expect(carriers.length, `${row.operation}: ${p.name}`).toBeGreaterThan(0);
      for (const o of carriers) {
        const sp = param(o.op, p.name)!;
        const dispatched = dispatchOf(o.op)[p.name];
        if (dispatched !== undefined) {
          expect(p.qualifier, 'a dispatch value the table calls optional').toMatch(/value `true`/);
          continue;
        }
        // a literal value (`regname=QTVc`) is pinned; a format (`{SerNr}:{rows}`) is checked below
        const literal = p.value !== undefined && !p.value.includes('{');
        if (literal) expect(allowed(sp.schema)).toEqual([p.value]);
        const q = p.qualifier ?? '';
        const required = !listRow && !/optional|only/.test(q);
        expect(sp.required === true, `${o.op.operationId} ${p.name} required`).toBe(required);
        // required by inference is marked so; "(required)" in the table is not an inference
        if (required && !/required/.test(q) && !literal) expect(sp['x-erpcert-inferred'], p.name).toBeTruthy();
      }
    }
  });
});

describe('portal spec: registers per operation', () => {
  /** The schema that carries the register for one row of the table. */
  function registerSchema(name: string): J {
    if (name === 'windowactions') {
      return byId('windowactions')!.op.requestBody.content['application/json'].schema.properties.vcname;
    }
    if (name === 'activeeditfields') {
      const body = byId('activeeditfields')!.op.requestBody.content['application/octet-stream'].schema;
      return body.contentSchema.properties.vcname;
    }
    const sub = /\((\w+)\)/.exec(name)?.[1] ?? name;
    const o = byId(sub) ?? byId(`action_${sub}`);
    expect(o, name).toBeDefined();
    const which = dispatchOf(o!.op).register ? 'regname' : 'register';
    return param(o!.op, which)!.schema;
  }

  it.each([...doc.registersPerOperation].filter(([n]) => n !== 'list queries'))('%s', (name, registers) => {
    expect([...allowed(registerSchema(name))].sort()).toEqual([...registers].sort());
  });
});

describe('portal spec: global parameters and security', () => {
  it('compno (integer), usercode (string) and portalcc (est|lat) are on every operation', () => {
    for (const { op } of ops) {
      expect(param(op, 'compno')?.schema.type, op.operationId).toBe('integer');
      expect(param(op, 'usercode')?.schema.type, op.operationId).toBe('string');
      const cc = param(op, 'portalcc');
      expect(cc?.schema.enum, op.operationId).toEqual(['est', 'lat']);
    }
  });

  it('accepts Basic and the HSESSION cookie only (§5: no OAuth here)', () => {
    const schemes = api.components.securitySchemes as J;
    expect(Object.values(schemes).map((s: J) => [s.type, s.scheme ?? s.in, s.name])).toEqual([
      ['http', 'basic', undefined],
      ['apiKey', 'cookie', 'HSESSION'],
    ]);
    expect(api.security).toEqual([{ basic: [] }, { hsession: [] }]);
    expect(ops.every(({ op }) => op.security === undefined)).toBe(true);
  });

  it('names the alternate path of real deployments', () => {
    expect(api['x-erpcert-alternate-paths']).toEqual(['/WebExcellentAPI.hal']);
  });
});

describe('portal spec: not shown, doc references', () => {
  const walk = (node: unknown, visit: (key: string, value: unknown, path: string) => void, path = ''): void => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      visit(k, v, `${path}/${k}`);
      walk(v, visit, `${path}/${k}`);
    }
  };
  const flat = (s: string) => s.replace(/\s+/g, ' ');

  it('every x-erpcert-not-shown quotes the doc verbatim', () => {
    let count = 0;
    walk(raw, (k, v, path) => {
      if (k !== 'x-erpcert-not-shown') return;
      for (const text of Array.isArray(v) ? v : [v]) {
        count++;
        expect(flat(doc.text), path).toContain(flat(text as string));
      }
    });
    expect(count).toBeGreaterThan(30);
  });

  it('every x-erpcert-doc points at a heading of portal-action-api.md', () => {
    walk(raw, (k, v, path) => {
      if (k !== 'x-erpcert-doc') return;
      const [file, anchor] = (v as string).split('#');
      expect(file, path).toBe('portal-action-api.md');
      expect([...doc.headingSlugs], path).toContain(anchor);
    });
  });

  it('each "not shown" sentence of the docs about this API appears in the spec', () => {
    const sentences = doc.text.match(/[^.\n|]*: not shown[^.\n|]*\./g) ?? [];
    const quoted = JSON.stringify(raw);
    for (const s of sentences) {
      const sentence = s.trim().replace(/^- /, '');
      expect(quoted.includes(JSON.stringify(sentence).slice(1, -1)), sentence).toBe(true);
    }
    expect(sentences.length).toBeGreaterThan(10);
  });
});

describe('portal spec: result element shapes (XML) against the shapes table', () => {
  const schemas = () => api.components.schemas as J;
  const isAttr = (s: J) => s?.xml?.attribute === true;
  const attrsOf = (s: J) => Object.keys(s.properties).filter((k) => isAttr(s.properties[k]));
  const elemsOf = (s: J) => Object.keys(s.properties).filter((k) => !isAttr(s.properties[k]));
  const shape = (name: string) => doc.resultShapes.get(name)!;
  /** Attribute names written in a shape cell: `<res errstr="" uuid="<uuid>"/>` -> errstr, uuid. */
  const cellAttrs = (cell: string, element: string) =>
    (new RegExp(`<${element}((?:\\s+\\w+(?:="[^"]*")?)*)\\s*/?>`).exec(cell)?.[1] ?? '')
      .replace(/="[^"]*"/g, '')
      .split(/\s+/)
      .filter(Boolean);

  it.each([
    ['Operation result', 'PortalOperationResult'],
    ['Upload result', 'PortalUploadResult'],
    ['Conversion result', 'PortalConversionResult'],
    ['hasusernewapi', 'PortalHasApiResult'],
    ['Approval status', 'PortalApprovalStatus'],
  ])('%s: <data><res .../></data> with the attributes of the table', (name, schema) => {
    const s = schemas()[schema];
    expect(s.xml.name).toBe('data');
    expect(s.properties.res.xml.name).toBe('res');
    expect(attrsOf(s.properties.res).sort()).toEqual(cellAttrs(shape(name), 'res').sort());
  });

  it('Approval status: DummyVc children as elements, approvalstatus 0-5', () => {
    const children = [.../<DummyVc>(.*)<\/DummyVc>/.exec(shape('Approval status'))![1]!.matchAll(/<(\w+)>/g)];
    const dummy = schemas().PortalApprovalStatus.properties.DummyVc;
    expect(dummy.xml.name).toBe('DummyVc');
    expect(elemsOf(dummy)).toEqual(children.map((m) => m[1]));
    const codes = doc.table('Approval status codes (`approvalstatus`)').map(([code]) => Number(code));
    expect(dummy.properties.approvalstatus.enum).toEqual(codes);
  });

  it('Login result: the listed fields as attributes, supported with its children as elements', () => {
    const cell = shape('Login result `<res>`');
    const res = schemas().PortalLoginResult.properties.res;
    const [before, children] = cell.split('supported (children ');
    const fields = before!
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    expect(attrsOf(res)).toEqual(expect.arrayContaining(fields));
    expect(res.properties.supported.xml.name).toBe('supported');
    expect(elemsOf(res.properties.supported)).toEqual(
      children!
        .split(', each')[0]!
        .split(',')
        .map((f) => f.trim()),
    );
    expect(res['x-erpcert-not-shown']).toBeTruthy();
  });

  it('Document, Attachment list and Lookup result', () => {
    const file = schemas().PortalDocument.properties.file;
    expect(elemsOf(file)).toEqual([...shape('Document').matchAll(/<(name|base64)>/g)].map((m) => m[1]));
    const att = schemas().PortalAttachmentList.properties.attachment;
    expect(att.type).toBe('array');
    expect(att.items.xml.name).toBe('attachment');
    expect(attrsOf(att.items)).toEqual(cellAttrs(shape('Attachment list'), 'attachment'));
    const lookup = schemas().PortalLookupResult.properties;
    expect(Object.keys(lookup).sort()).toEqual([...doc.registersPerOperation.get('pastespecial')!].sort());
    expect(elemsOf(lookup.INVc.items)).toEqual(/For INVc: (.*)\./.exec(shape('Lookup result'))![1]!.split(', '));
    expect(Object.values(lookup as J).every((p: J) => p.maxItems === 50)).toBe(true);
  });

  it('paged lists: data attributes and documented row fields', () => {
    const paged = cellAttrs(shape('Paged list (most registers)'), 'data');
    const arap = cellAttrs(shape('Paged list (ARVc, APVc)'), 'data');
    for (const reg of doc.registersPerOperation.get('list queries')!) {
      const content = byId(`list_${reg}`)!.op.responses['2XX'].content['application/xml'].schema.anyOf[0];
      if (reg === 'Kanban') {
        expect(content.properties).toBeUndefined();
        continue;
      }
      expect(content.xml.name).toBe('data');
      expect(attrsOf(content)).toEqual(['ARVc', 'APVc'].includes(reg) ? arap : paged);
      expect(content.properties[reg].items.xml.name).toBe(reg);
    }
    const ivvc = /IVVc with (.*)$/.exec(shape('Paged list (most registers)'))![1]!.split(', ');
    expect(elemsOf(schemas().PortalListRowIVVc)).toEqual(ivvc);
    for (const reg of ['ARVc', 'APVc']) {
      const fields = shape(`${reg} record fields`)
        .split(', ')
        .map((f) => f.replace(/\s*\(.*\)$/, ''));
      expect(elemsOf(schemas()[`PortalListRow${reg}`])).toEqual(fields);
    }
  });

  it('every XML result also admits the failure shapes (<error> or a non-empty errstr)', () => {
    for (const { op } of ops) {
      const xml = op.responses['2XX'].content['application/xml'];
      if (!xml) continue;
      // an XML success shape comes as anyOf [shape, PortalFailure]; a JSON operation's XML is PortalFailure alone
      const failure = [xml.schema, ...(xml.schema.anyOf ?? [])].find((s: J) =>
        s.anyOf?.some((b: J) => b.xml?.name === 'error'),
      );
      expect(failure, op.operationId).toBeDefined();
    }
  });

  it('every JSON result admits the JSON failure, and also the XML failure (§1, §7 exempt no operation)', () => {
    const jsonOps = ops.filter(({ op }) => op.responses['2XX'].content['application/json']);
    expect(jsonOps.map(({ op }) => op.operationId).sort()).toEqual([
      'action_getreportfilters',
      'activeeditfields',
      'report',
      'windowactions',
      'windowactions_encrypted',
    ]);
    for (const { op } of jsonOps) {
      const content = op.responses['2XX'].content;
      const json = content['application/json'].schema;
      // report's output is not shown: an open schema, which admits the failure too
      if (Object.keys(json).length > 0)
        expect(
          json.anyOf.some((s: J) => s.properties?.success?.const === false),
          op.operationId,
        ).toBe(true);
      expect(
        content['application/xml'].schema.anyOf.some((b: J) => b.xml?.name === 'error'),
        op.operationId,
      ).toBe(true);
      expect(content['application/xml']['x-erpcert-standing'], op.operationId).toBe('inferred');
    }
  });
});

describe('portal spec: bodies and identifiers', () => {
  let ajv: Ajv2020;
  const check = (name: string, value: unknown) => ajv.validate(`spec#/components/schemas/${name}`, value);
  beforeAll(() => {
    ajv = new Ajv2020({ strict: false, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(structuredClone(raw), 'spec');
  });

  it('field-trigger request: every field of the table, rowindex default -1, allowed lists', () => {
    const rows = doc.table('Field-trigger request body (JSON)');
    const s = (api.components.schemas as J).PortalFieldTriggerRequest;
    expect(Object.keys(s.properties)).toEqual(rows.map(([f]) => f));
    expect(s.properties.rowindex.default).toBe(-1);
    const note = (field: string) => rows.find(([f]) => f === field)![2]!;
    const list = (text: string) => /Allowed: ([^.]*)\./.exec(text)![1]!.split(', ');
    expect(s.properties.vcname.anyOf[0].enum).toEqual(list(note('vcname')));
    expect(s.properties.sourceRegister.enum).toEqual(list(note('sourceRegister')));
    expect(check('PortalFieldTriggerRequest', { vcname: 'IVVc', fieldname: 'CustCode', value: 'C1' })).toBe(true);
    expect(check('PortalFieldTriggerRequest', { vcname: 'NoSuchVc', fieldname: 'CustCode' })).toBe(false);
  });

  it('field lists take the documented type codes only', () => {
    const codes = [.../(\d+) [a-z]/g[Symbol.matchAll](/Type codes: (.*)/.exec(doc.text)![1]!)].map((m) => m[1]);
    expect(codes).toEqual(['1', '2', '5', '12', '15']);
    for (const c of codes) expect(check('PortalFieldList', `CustCode:${c},InvDate:2`), c).toBe(true);
    expect(check('PortalFieldList', 'CustCode:3')).toBe(false);
  });

  it('JSON responses carry the fields of their tables', () => {
    const schemas = api.components.schemas as J;
    const fields = doc.table('Field-trigger response body (JSON)').map(([f]) => f);
    expect(Object.keys(schemas.PortalFieldTriggerResponse.properties)).toEqual(fields);
    const active = doc.table('Active edit fields response').map(([f]) => f!);
    const activeFields = active.filter((f) => f.startsWith('activeFields.')).map((f) => f.split('.')[1]);
    expect(Object.keys(schemas.PortalActiveFields.properties)).toEqual(activeFields);
    const rule = /`\{(.*)\}`/.exec(doc.table('Active edit fields response').find(([f]) => f === 'rules')![1]!)![1]!;
    expect(Object.keys(schemas.PortalActiveFieldRule.properties)).toEqual(rule.split(', '));
    const filters = { reports: [{ reportwindow: 'W', repname: 'R', fields: [{ name: 'sd', type: 'date' }] }] };
    expect(check('PortalReportFilters', filters)).toBe(true);
    expect(check('PortalReportFilters', { reports: [{ reportwindow: 'W', fields: [] }] })).toBe(false);
  });

  it('report body needs reportwindow and repname', () => {
    expect(check('PortalReportRequest', { reportwindow: 'W', repname: 'R', lang: 'ENG', spec: {} })).toBe(true);
    expect(check('PortalReportRequest', { reportwindow: 'W' })).toBe(false);
  });

  it.each([
    ['deleterow', '10001:1,3', true],
    ['deleterow', '10001:1', true],
    ['deleterow', '10001:0', false],
    ['deleterow', '10001', false],
    ['deleterow', '10001:1,', false],
    ['insertrow', '10001:0:1', true],
    ['insertrow', '10001:12:3', true],
    ['insertrow', '10001:0:4', false],
    ['insertrow', '10001:-1:1', false],
    ['insertrow', '10001:0', false],
  ])('%s id %s -> %s', (action, id, ok) => {
    expect(new RegExp(param(byId(action)!.op, 'id')!.schema.pattern).test(id)).toBe(ok);
  });

  it('file ids are UUIDs', () => {
    const file = param(byId('action_getfile')!.op, 'file')!;
    expect(file.schema.format).toBe('uuid');
    expect(new RegExp(file.schema.pattern).test('123e4567-e89b-42d3-a456-426614174000')).toBe(true);
    expect(new RegExp(file.schema.pattern).test('not-a-uuid')).toBe(false);
  });
});
