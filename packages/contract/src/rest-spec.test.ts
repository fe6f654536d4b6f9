import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATE_COMMAND, renderRestSpec, restSpecFile } from '../scripts/generate-rest-spec.js';
import { observed, observedFieldsOf } from './observed.js';
import { docsDir, repoRoot } from './paths.js';
import { registers } from './registers.js';
import { headingSlug, parseDocSections } from './rules-markdown.js';
import { loadSpec } from './specs.js';

type Obj = Record<string, unknown>;
const spec = loadSpec('record-rest') as unknown as Obj & {
  paths: Record<string, Obj>;
  components: Record<string, Record<string, Obj>>;
};
const restDoc = readFileSync(join(docsDir, 'record-rest-api.md'), 'utf8');
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Follows a local `$ref` (`#/components/<kind>/<name>`) one step. */
function deref(node: Obj): Obj {
  if (typeof node.$ref !== 'string') return node;
  const [, , kind, name] = node.$ref.split('/');
  const target = spec.components[kind!]?.[name!];
  if (!target) throw new Error(`dangling $ref ${node.$ref}`);
  return target;
}

/** Rows of the markdown table that follows `heading` in the REST doc, as arrays of trimmed cells. */
function tableAfter(heading: string): string[][] {
  const rest = restDoc.split(`${heading}\n`)[1];
  if (!rest) throw new Error(`no heading ${heading}`);
  return rest
    .trimStart()
    .split('\n')
    .filter((_, i, lines) => lines.slice(0, i + 1).every((l) => l.startsWith('|')))
    .slice(2)
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

/** Every value of the extension `key` anywhere in the spec, with its JSON path. */
function extensionValues(key: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push([path, v]);
      walk(v, `${path}/${k}`);
    }
  };
  walk(spec, '#');
  return out;
}

function op(path: string, method: string): Obj {
  const operation = spec.paths[path]?.[method] as Obj | undefined;
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the spec`);
  return operation;
}

function params(operation: Obj, item: Obj = {}): Obj[] {
  return [...((item.parameters as Obj[]) ?? []), ...((operation.parameters as Obj[]) ?? [])].map(deref);
}

/** A generation of the 15,000-line spec takes seconds on a loaded 2-core machine (CI runs packages side by side). */
const GENERATION_TIMEOUT = 60_000;

describe('record-rest.openapi.yaml generation', () => {
  it(
    'matches a fresh generation from specs/src/record-rest.base.yaml and specs/registers.yaml',
    () => {
      const committed = readFileSync(restSpecFile, 'utf8');
      const fresh = renderRestSpec();
      expect(committed === fresh, `specs/record-rest.openapi.yaml is stale: run \`${GENERATE_COMMAND}\``).toBe(true);
    },
    GENERATION_TIMEOUT,
  );

  it(
    'is deterministic',
    () => {
      expect(renderRestSpec()).toBe(renderRestSpec());
    },
    GENERATION_TIMEOUT,
  );
});

describe('registers in the spec', () => {
  it('has the API root, two path items per register and the observed registers, nothing else', () => {
    const observedPaths = observed.registers.flatMap((r) =>
      r.block ? [`/api/1/${r.name}`] : [`/api/1/${r.name}`, `/api/1/${r.name}/{${r.key.join('}/{')}}`],
    );
    expect(Object.keys(spec.paths).sort()).toEqual(
      [
        '/api/1/',
        ...registers.flatMap((r) => [`/api/1/${r.name}`, `/api/1/${r.name}/{${r.key.join('}/{')}}`]),
        ...observedPaths,
      ].sort(),
    );
    expect(op('/api/1/', 'get').operationId).toBe('apiRoot');
  });

  it.each(registers.map((r) => [r.name, r] as const))('%s has its operations and key path', (name, reg) => {
    const collection = spec.paths[`/api/1/${name}`]!;
    const keyPath = `/api/1/${name}/${reg.key.map((k) => `{${k}}`).join('/')}`;
    const record = spec.paths[keyPath]!;
    const methods = (item: Obj) =>
      Object.keys(item).filter((k) => ['get', 'post', 'patch', 'put', 'delete'].includes(k));
    expect(methods(collection)).toEqual(reg.readOnly ? ['get'] : ['get', 'post']);
    expect(methods(record)).toEqual(reg.readOnly ? ['get'] : ['get', 'patch']);
    expect(collection['x-erpcert-read-only']).toBe(reg.readOnly ? true : undefined);
    expect(record['x-erpcert-read-only']).toBe(reg.readOnly ? true : undefined);
    for (const method of methods(record)) {
      const pathParams = params(op(keyPath, method), record).filter((p) => p.in === 'path');
      expect(pathParams.map((p) => p.name)).toEqual([...reg.key]);
      expect(pathParams.every((p) => p.required === true)).toBe(true);
    }
    if (!reg.readOnly) {
      const body = (op(`/api/1/${name}`, 'post').requestBody as Obj).content as Obj;
      expect(Object.keys(body).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      const patchBody = (op(keyPath, 'patch').requestBody as Obj).content as Obj;
      expect(Object.keys(patchBody)).toEqual(['application/x-www-form-urlencoded']);
    }
  });

  it.each(registers.map((r) => [r.name, r] as const))('%s schemas list its main and row fields', (name, reg) => {
    const schemas = spec.components.schemas!;
    const record = schemas[`${name}Record`]!;
    const props = record.properties as Obj;
    for (const f of reg.fields) expect(props, f).toHaveProperty([f]);
    expect(record.additionalProperties).toBeTruthy();
    // rows is not required: with `fields` the docs leave open whether it comes back (base file, RecordBase)
    expect(record.required).toEqual(['@register', '@sequence', '@url']);
    if (reg.rowFields.length > 0) {
      const row = schemas[`${name}Row`]!;
      for (const f of reg.rowFields) expect(row.properties, f).toHaveProperty([f]);
      expect(row.required).toEqual(['@rownumber']);
    } else {
      expect((props.rows as Obj).maxItems).toBe(0);
    }
  });
});

describe('observed fields and registers (specs/observed-fields.yaml, issue 10)', () => {
  const schemas = () => spec.components.schemas!;
  // the observed fields of portal registers (ActVc) are served by the reference server, not in this spec
  it.each(observed.fields.filter((e) => e.documented).map((e) => [`${e.register} ${e.part}`, e] as const))(
    '%s: every observed field is in the record, input and form schemas, marked observed',
    (_, e) => {
      const R = e.register;
      const targets =
        e.part === 'header'
          ? [`${R}Record`, `${R}RecordXml`, `${R}RecordInput`]
          : [`${R}Row`, `${R}RowXml`, `${R}RowInput`];
      for (const name of targets)
        for (const f of e.fields)
          expect((schemas()[name]!.properties as Obj)[f], `${name}.${f}`).toMatchObject({
            type: 'string',
            'x-erpcert-standing': 'observed',
          });
      if (e.part === 'header') {
        const form = schemas()[`${R}Form`]!.properties as Obj;
        for (const f of e.fields) expect(form[`set_field.${f}`], f).toMatchObject({ 'x-erpcert-standing': 'observed' });
        const filters = params(op(`/api/1/${R}`, 'get'), spec.paths[`/api/1/${R}`]!);
        for (const f of e.fields)
          expect(
            filters.find((p) => p.name === `filter.${f}`),
            f,
          ).toMatchObject({ 'x-erpcert-standing': 'observed' });
      }
    },
  );

  it('marks no documented main field observed', () => {
    for (const reg of registers) {
      const props = schemas()[`${reg.name}Record`]!.properties as Obj;
      for (const f of reg.fields) expect((props[f] as Obj)['x-erpcert-standing'], `${reg.name}.${f}`).toBeUndefined();
      expect(observedFieldsOf(reg.name, 'header').filter((f) => reg.fields.includes(f))).toEqual([]);
    }
  });

  it.each(observed.registers.map((r) => [r.name, r] as const))(
    '%s: every operation and its tag are marked observed',
    (name, reg) => {
      const items = Object.entries(spec.paths).filter(
        ([p]) => p === `/api/1/${name}` || p.startsWith(`/api/1/${name}/`),
      );
      expect(items.length).toBe(reg.block ? 1 : 2);
      for (const [, item] of items)
        for (const [method, operation] of Object.entries(item))
          if (['get', 'post', 'patch'].includes(method))
            expect((operation as Obj)['x-erpcert-standing'], `${method} ${name}`).toBe('observed');
      const tag = (spec.tags as Obj[]).find((t) => t.name === name);
      expect(tag?.['x-erpcert-standing']).toBe('observed');
    },
  );

  it('offers a register only the filters and feeds it answers (WSVc: four filters, no feed; RLinkVc: no POST)', () => {
    const names = (path: string) =>
      params(op(path, 'get'), spec.paths[path]!).map((p) => String(p.name ?? (p.$ref as string).split('/').pop()));
    const wsvc = names('/api/1/WSVc');
    expect(wsvc.filter((n) => n.startsWith('filter.')).sort()).toEqual([
      'filter.CustCode',
      'filter.EMCode',
      'filter.SVONr',
      'filter.SerNr',
    ]);
    expect(wsvc).not.toContain('updates_after');
    expect(names('/api/1/PRVc')).toEqual(
      expect.arrayContaining(['updates_after', 'deletes_after', 'filter.Terminated']),
    );
    expect(spec.paths['/api/1/RLinkVc']!.post).toBeUndefined();
    expect(spec.paths['/api/1/SVOVc']!.post).toMatchObject({ 'x-erpcert-standing': 'observed' });
  });

  it('answers VATCodeBlock as an object holding rows, not an array', () => {
    const data = (schemas().VATCodeBlockEnvelope!.properties as Obj).data as Obj;
    expect((data.properties as Obj).VATCodeBlock).toEqual({ $ref: '#/components/schemas/VATCodeBlockBlock' });
    const block = schemas().VATCodeBlockBlock!;
    expect(block.type).toBe('object');
    const rowProps = schemas().VATCodeBlockRow!.properties as Obj;
    for (const f of [
      'VATCode',
      'Comment',
      'ExVatpr',
      'IncVatpr',
      'SalesVATAcc',
      'PurchVATAcc',
      'ValidFrom',
      'ValidUntil',
    ])
      expect(rowProps, f).toHaveProperty([f]);
  });

  it('answers VATCodeBlock in XML too (the default), `<data><VATCodeBlock><rows><row rownumber>`, or an error', () => {
    const response = spec.components.responses!.VATCodeBlockEnvelope!;
    const content = response.content as Record<string, Obj>;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/xml', 'text/xml']);
    for (const type of ['application/xml', 'text/xml'])
      expect(content[type]!.schema, type).toEqual({
        anyOf: [
          { $ref: '#/components/schemas/VATCodeBlockEnvelopeXml' },
          { $ref: '#/components/schemas/ObservedErrorXml' },
        ],
      });
    const attr = (schema: Obj, p: string) => ((schema.properties as Record<string, Obj>)[p]!.xml as Obj)?.attribute;
    const envelope = schemas().VATCodeBlockEnvelopeXml!;
    expect(envelope.xml).toEqual({ name: 'data' });
    for (const a of ['register', 'sequence', 'systemversion']) expect(attr(envelope, a), a).toBe(true);
    expect(envelope.required).toEqual(['register', 'sequence', 'systemversion', 'VATCodeBlock']);
    const block = deref((envelope.properties as Record<string, Obj>).VATCodeBlock!);
    expect(block).toBe(schemas().VATCodeBlockBlockXml);
    expect(block.xml).toEqual({ name: 'VATCodeBlock' });
    // a block is no record: no sequence, no url (so not the rest-envelope XSD kind, whose records carry both)
    expect(Object.keys(block.properties as Obj)).toEqual(['register', 'rows']);
    const rows = (block.properties as Record<string, Obj>).rows!;
    expect(rows.xml).toEqual({ name: 'rows', wrapped: true });
    const row = deref(rows.items as Obj);
    expect(row.xml).toEqual({ name: 'row' });
    expect(attr(row, 'rownumber')).toBe(true);
    expect(row.properties).toHaveProperty(['ValidUntil']);
  });
});

describe('create bodies require the key fields the ERP does not fill in (inferred)', () => {
  const schemas = () => spec.components.schemas!;
  const writable = registers.filter((r) => !r.readOnly);

  it.each([
    ['CUVc', ['Code']],
    ['PLVc', ['PLCode', 'ArtCode']],
    ['DelAddrVc', ['CustCode', 'DelCode']],
    ['Bud1Vc', ['AccNumber', 'StartDate']],
    ['IVVc', []],
    ['COVc', []],
    ['TRVc', []],
  ] as const)('%s requires %j', (name, key) => {
    const s = schemas();
    expect(s[`${name}CreateForm`]!.required ?? []).toEqual(key.map((k) => `set_field.${k}`));
    expect(s[`${name}RecordInput`]!.required ?? []).toEqual([...key]);
    for (const k of key) expect((s[`${name}RecordInput`]!.properties as Obj)[k]).toMatchObject({ minLength: 1 });
    // the update form requires nothing: the key is in the path
    expect(s[`${name}Form`]!.required).toBeUndefined();
  });

  it.each(writable.map((r) => [r.name, r] as const))(
    '%s: only key fields, marked inferred with the reason',
    (name, reg) => {
      const input = schemas()[`${name}RecordInput`]!;
      const required = (input.required ?? []) as string[];
      for (const k of required) expect(reg.key).toContain(k);
      if (!reg.key.includes('SerNr') && name !== 'TRVc') expect(required.length, name).toBeGreaterThan(0);
      if (required.length > 0) {
        expect(input['x-erpcert-standing']).toBe('inferred');
        expect(input['x-erpcert-inferred']).toContain(required.join(', '));
        expect((op(`/api/1/${name}`, 'post').requestBody as Obj).required).toBe(true);
      } else expect((op(`/api/1/${name}`, 'post').requestBody as Obj).required).toBe(false);
    },
  );

  it('the JSON create body holds only the register of the URL (rule 3)', () => {
    const data = (schemas().CUVcCreateJson!.properties as Record<string, Obj>).data!;
    expect(data).toMatchObject({ required: ['CUVc'], additionalProperties: false, 'x-erpcert-standing': 'inferred' });
  });
});

describe('query parameters (record-rest-api.md "Query parameters")', () => {
  const table = tableAfter('### Query parameters');
  const docParams = table.map(([name, type]) => ({ name: name!, type: type! }));

  it('reads the eight parameters of the docs table', () => {
    expect(docParams.map((p) => p.name)).toEqual([
      'fields',
      'sort',
      'range',
      'limit',
      'offset',
      'updates_after',
      'deletes_after',
      'filter.<FieldName>',
    ]);
  });

  it.each(registers.map((r) => [r.name, r] as const))('every one is on the list operation of %s', (name, reg) => {
    const list = params(op(`/api/1/${name}`, 'get'));
    const byName = new Map(list.map((p) => [p.name, p]));
    for (const { name: pname, type } of docParams) {
      const expected = type === 'integer' ? 'integer' : 'string';
      const names = pname === 'filter.<FieldName>' ? reg.fields.map((f) => `filter.${f}`) : [pname];
      for (const n of names) {
        const p = byName.get(n);
        expect(p, n).toBeDefined();
        expect(p!.in).toBe('query');
        expect((p!.schema as Obj).type, n).toBe(expected);
      }
    }
    const compcode = byName.get('compcode');
    // the docs' "required" stays readable; the spec does not require the query parameter, because the company
    // in the path (/api/{company}/...) makes it unnecessary on real deployments
    expect(compcode).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1 },
      example: 1,
      'x-erpcert-documented-required': true,
      'x-erpcert-standing': 'inferred',
    });
    expect(compcode!['x-erpcert-inferred']).toMatch(/minimum: 1.*company in the path/s);
  });

  it('range requires sort, as the docs say', () => {
    expect(spec.components.parameters!.range!['x-erpcert-requires']).toBe('sort');
  });
});

describe('"not shown" in the docs is machine-readable in the spec', () => {
  const notShown = extensionValues('x-erpcert-not-shown');

  it('every x-erpcert-not-shown value is verbatim doc text', () => {
    expect(notShown.length).toBeGreaterThan(0);
    for (const [path, value] of notShown) {
      expect(typeof value, path).toBe('string');
      expect(norm(restDoc), path).toContain(norm(value as string));
    }
  });

  it('every "not shown" sentence of record-rest-api.md is carried by some node', () => {
    const sentences = restDoc
      .split('\n')
      .filter((l) => l.includes('not shown'))
      .flatMap((l) => l.replace(/^\s*(\d+\.|-)\s+/, '').split(/(?<=\.)\s+/))
      .filter((s) => s.includes('not shown'));
    expect(sentences.length).toBeGreaterThanOrEqual(12);
    const carried = notShown.map(([, v]) => norm(String(v)));
    for (const s of sentences)
      expect(
        carried.some((v) => v.includes(norm(s))),
        s,
      ).toBe(true);
  });

  it.each(registers.map((r) => [r.name, r] as const))('%s: GET by key and the PATCH body are marked', (name, reg) => {
    const keyPath = `/api/1/${name}/${reg.key.map((k) => `{${k}}`).join('/')}`;
    expect(op(keyPath, 'get')['x-erpcert-not-shown']).toBe('GET of one record by key: not shown.');
    if (!reg.readOnly) {
      const ok = deref((op(keyPath, 'patch').responses as Record<string, Obj>)['2XX']!);
      expect(ok['x-erpcert-not-shown']).toBe('Response body of PATCH: not shown.');
    }
  });

  it('marks compcode location, auth gaps, status codes and the webhook payload', () => {
    const c = spec.components;
    expect(c.parameters!.compcode!['x-erpcert-not-shown']).toBe('Location of `compcode` (path or query): not shown.');
    expect(c.securitySchemes!.oauth2!['x-erpcert-not-shown']).toBe('Grant type and scopes: not shown.');
    expect(c.securitySchemes!.hsession!['x-erpcert-not-shown']).toBe('Required configuration: not shown.');
    expect(c.responses!.ObservedError!['x-erpcert-not-shown']).toMatch(/^HTTP status codes/);
    const webhook = (spec.webhooks as Record<string, Obj>).dataChange!.post as Obj;
    expect(webhook['x-erpcert-not-shown']).toMatch(/^Webhook payload fields/);
  });

  it('every x-erpcert-doc cites a section that exists in the doc', () => {
    const heads = new Set(parseDocSections(restDoc).map((s) => headingSlug(s.heading)));
    const cites = extensionValues('x-erpcert-doc');
    expect(cites.length).toBeGreaterThan(0);
    for (const [path, value] of cites) {
      const [file, anchor] = String(value).split('#');
      expect(file, path).toBe('record-rest-api.md');
      expect(heads.has(anchor!), `${path}: #${anchor}`).toBe(true);
    }
  });

  it('describes error shapes under default and beside the envelope in 2XX (errors with HTTP 200), as observed', () => {
    const errorRefs = new Set(['#/components/schemas/ObservedErrorJson', '#/components/schemas/ObservedErrorXml']);
    for (const [path, item] of Object.entries(spec.paths))
      for (const [method, operation] of Object.entries(item)) {
        if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
        const responses = (operation as Obj).responses as Obj;
        // a settings block (VATCodeBlock) is one record: no change feed, so no 204 of deletes_after
        const block = observed.registers.some((r) => r.block && path === `/api/1/${r.name}`);
        const list = method === 'get' && /^\/api\/1\/[A-Za-z0-9]+$/.test(path) && !block;
        expect(Object.keys(responses), `${method} ${path}`).toEqual(
          list ? ['204', '2XX', 'default'] : ['2XX', 'default'],
        );
        expect(deref(responses.default as Obj)['x-erpcert-standing'], `${method} ${path}`).toBe('observed');
        if (list) expect(deref(responses['204'] as Obj)['x-erpcert-standing'], path).toBe('observed');
        const ok = deref(responses['2XX'] as Obj);
        for (const [type, media] of Object.entries((ok.content ?? {}) as Record<string, Obj>)) {
          const schema = media.schema as Obj;
          // PATCH's body is not shown (an open schema); every envelope admits the observed error shape
          if (Object.keys(schema).length === 0) continue;
          const refs = (schema.anyOf as Obj[]).map((s) => s.$ref);
          expect(
            refs.filter((r) => errorRefs.has(r as string)),
            `${method} ${path} ${type}`,
          ).toHaveLength(1);
        }
      }
  });
});

describe('XML form (inferred from the @ = attribute convention)', () => {
  it.each(registers.map((r) => [r.name, r] as const))('%s maps @ members to attributes', (name, reg) => {
    const s = spec.components.schemas!;
    const envelope = s[`${name}EnvelopeXml`]!;
    const record = s[`${name}RecordXml`]!;
    const attr = (schema: Obj, p: string) => ((schema.properties as Record<string, Obj>)[p]!.xml as Obj)?.attribute;
    expect(envelope.xml).toEqual({ name: 'data' });
    for (const a of ['register', 'sequence', 'systemversion']) expect(attr(envelope, a), a).toBe(true);
    expect(envelope['x-erpcert-standing']).toBe('inferred');
    expect(deref((envelope.properties as Record<string, Obj>)[name]!.items as Obj)).toBe(record);
    expect(record.xml).toEqual({ name });
    for (const a of ['register', 'sequence', 'url']) expect(attr(record, a), a).toBe(true);
    expect(attr(record, reg.fields[0]!)).toBeUndefined();
    const rows = (record.properties as Record<string, Obj>).rows!;
    expect(rows.xml).toEqual({ name: 'rows', wrapped: true });
    const row = deref(rows.items as Obj);
    expect(row.xml).toEqual({ name: 'row' });
    expect(attr(row, 'rownumber')).toBe(true);
  });
});

describe('record-rest.openapi.yaml formatting', () => {
  it(
    'is already in Biome format, so `biome check --write` never makes it drift',
    () => {
      const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
      const formatted = execFileSync(biome, ['format', `--stdin-file-path=${restSpecFile}`], {
        input: renderRestSpec(),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(formatted === renderRestSpec(), 'the generator output and Biome disagree on YAML style').toBe(true);
    },
    GENERATION_TIMEOUT,
  );
});
