import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildRequests } from '../scripts/portal-request-builder.js';
import { specsDir } from './paths.js';

// biome-ignore lint/suspicious/noExplicitAny: assertions walk arbitrary OpenAPI JSON; vitest reports a wrong path
type J = Record<string, any>;
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => void;
const load = (file: string) => parse(readFileSync(join(specsDir, file), 'utf8')) as J;

const preciseRaw = load('portal-action.openapi.yaml');
const genericRaw = load('portal-action.generic.openapi.yaml');
let precise: J;
let generic: J;

const preciseOps = (): J[] => Object.values(precise.paths as J).flatMap((item: J) => Object.values(item));
const methodOps = (method: string): J[] =>
  Object.values(precise.paths as J).flatMap((item: J) => (item[method] ? [item[method]] : []));

/** The dispatch pairs a path key's fragment names: `/WebErpAPI.hal#action=action&register=getfile`. */
const fragmentOf = (pathKey: string): Record<string, string> =>
  Object.fromEntries(new URLSearchParams(pathKey.split('#')[1] ?? ''));

/**
 * The operations a received request selects, most specific first: `action` must equal the fragment's (a list
 * query's fragment has none, and neither has its request) and every other fragment pair must be in the query.
 */
function selects(method: string, query: URLSearchParams): string[] {
  const hits: { id: string; n: number }[] = [];
  for (const [key, item] of Object.entries(precise.paths as J)) {
    const op = (item as J)[method.toLowerCase()];
    if (!op) continue;
    const frag = fragmentOf(key);
    if ((query.get('action') ?? undefined) !== frag.action) continue;
    if (Object.entries(frag).every(([k, v]) => query.get(k) === v))
      hits.push({ id: op.operationId, n: Object.keys(frag).length });
  }
  const best = Math.max(...hits.map((h) => h.n));
  return hits.filter((h) => h.n === best).map((h) => h.id);
}

beforeAll(async () => {
  precise = (await SwaggerParser.validate(structuredClone(preciseRaw) as never)) as J;
  generic = (await SwaggerParser.validate(structuredClone(genericRaw) as never)) as J;
});

describe('generic single-path view (portal-action.generic.openapi.yaml)', () => {
  it('has one path key, /WebErpAPI.hal, with one GET and one POST operation', () => {
    expect(Object.keys(generic.paths)).toEqual(['/WebErpAPI.hal']);
    expect(Object.keys(generic.paths['/WebErpAPI.hal']).sort()).toEqual(['get', 'post']);
  });

  it.each(['get', 'post'])('%s: lists every precise operation of the method with its dispatch', (method) => {
    const listed = generic.paths['/WebErpAPI.hal'][method]['x-erpcert-operations'] as J[];
    const expected = methodOps(method).map((op) => ({
      operationId: op.operationId,
      dispatch: op['x-erpcert-dispatch'],
    }));
    expect(listed).toEqual(expected);
  });

  it.each(['get', 'post'])('%s: admits every parameter, value and media type of the precise operations', (method) => {
    const g = generic.paths['/WebErpAPI.hal'][method];
    const gParams = new Map((g.parameters as J[]).map((p) => [p.name, p]));
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    addFormats(ajv);
    for (const op of methodOps(method)) {
      for (const p of op.parameters as J[]) {
        const gp = gParams.get(p.name);
        expect(gp, `${op.operationId} ${p.name}`).toBeDefined();
        expect(gp!.required, p.name).toBe(false);
        if (p.schema.const !== undefined) expect(ajv.validate(gp!.schema, p.schema.const), p.name).toBe(true);
      }
      for (const type of Object.keys(op.requestBody?.content ?? {}))
        expect(Object.keys(g.requestBody.content)).toContain(type);
      for (const type of Object.keys(op.responses['2XX'].content)) {
        expect(Object.keys(g.responses['2XX'].content)).toContain(type);
      }
    }
  });
});

describe('requests built from the specs alone by a generic builder', () => {
  const received: { method: string; url: string; contentType?: string; body: string }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          method: req.method!,
          url: req.url!,
          contentType: req.headers['content-type'],
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(200, { 'content-type': 'application/xml' }).end('<data><res errstr=""/></data>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function send(spec: J) {
    const built = buildRequests(spec, base);
    const out = [];
    for (const r of built) {
      received.length = 0;
      const headers = r.contentType ? { 'content-type': r.contentType } : undefined;
      await (await fetch(r.url, { method: r.method, headers, body: r.body })).text();
      expect(received, r.operationId).toHaveLength(1);
      out.push({ built: r, got: received[0]! });
    }
    return out;
  }

  it('precise spec: each request reaches /WebErpAPI.hal, without the fragment, and selects its own operation', async () => {
    const exchanges = await send(precise);
    expect(exchanges.map((e) => e.built.operationId).sort()).toEqual(
      preciseOps()
        .map((op) => op.operationId)
        .sort(),
    );
    for (const { built, got } of exchanges) {
      const url = new URL(got.url, base);
      expect(url.pathname, built.operationId).toBe('/WebErpAPI.hal');
      expect(got.url).not.toContain('#');
      for (const [k, v] of Object.entries(fragmentOf(built.pathKey))) expect(url.searchParams.get(k)).toBe(v);
      expect(selects(got.method, url.searchParams), built.operationId).toEqual([built.operationId]);
    }
  });

  it('precise spec: each body is sent with its media type and fits its schema', async () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    addFormats(ajv);
    const byId = new Map(preciseOps().map((op) => [op.operationId, op]));
    const exchanges = await send(precise);
    const withBody = exchanges.filter((e) => e.built.body !== undefined);
    expect(withBody.length).toBeGreaterThanOrEqual(8);
    for (const { built, got } of withBody) {
      const content = byId.get(built.operationId)!.requestBody.content as J;
      const [mediaType, media] = Object.entries(content)[0] as [string, J];
      expect(got.contentType, built.operationId).toBe(mediaType === '*/*' ? 'text/plain' : mediaType);
      expect(got.body).toBe(built.body);
      if (mediaType === 'application/json') expect(ajv.validate(media.schema, JSON.parse(got.body))).toBe(true);
      if (mediaType === 'application/x-www-form-urlencoded') {
        const form = Object.fromEntries(new URLSearchParams(got.body));
        expect(ajv.validate(media.schema, form), built.operationId).toBe(true);
      }
      if (mediaType === 'application/xml') {
        expect(got.body.startsWith(`<${media.schema.xml.name}>`)).toBe(true);
        for (const el of Object.keys(media.schema.properties)) expect(got.body).toContain(`<${el}>`);
      }
      if (media.schema.contentSchema) {
        const decoded = JSON.parse(Buffer.from(got.body, 'base64').toString('utf8'));
        expect(ajv.validate(media.schema.contentSchema, decoded), built.operationId).toBe(true);
      }
    }
  });

  it('generic view: a request built from it alone selects no operation (the precision it gives up)', async () => {
    const exchanges = await send(generic);
    expect(exchanges).toHaveLength(2);
    for (const { got } of exchanges) {
      expect(selects(got.method, new URL(got.url, base).searchParams)).toEqual([]);
    }
  });
});
