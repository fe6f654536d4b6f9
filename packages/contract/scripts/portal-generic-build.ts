/**
 * Derives specs/portal-action.generic.openapi.yaml from the precise portal spec: the same API on the single
 * path key `/WebErpAPI.hal`, one GET and one POST operation whose parameters, bodies and results are the unions
 * of the precise operations. For tools that mishandle fragment path keys; it loses per-operation precision.
 */
import { isDeepStrictEqual } from 'node:util';
import { type Json, PORTAL_PATH } from './portal-spec-build.js';

type Param = Json & { name: string; required?: boolean; schema?: Json };

function resolveParam(p: Json, components: Json): Param {
  const r = p.$ref as string | undefined;
  if (!r) return p as Param;
  const name = r.split('/').pop()!;
  const found = (components.parameters as Record<string, Param>)[name];
  if (!found) throw new Error(`unresolved parameter ${r}`);
  return found;
}

/** Strips extensions and descriptions, so that equal schemas compare equal. */
function bare(schema: Json): Json {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !k.startsWith('x-') && k !== 'description'));
}

/** Union of schemas: string consts/enums fold into one enum, anything else becomes a de-duplicated anyOf. */
export function unionSchemas(schemas: Json[]): Json {
  const distinct: Json[] = [];
  for (const s of schemas.map(bare)) if (!distinct.some((d) => isDeepStrictEqual(d, s))) distinct.push(s);
  if (distinct.length === 1) return distinct[0]!;
  const keysOk = (s: Json) => Object.keys(s).every((k) => ['type', 'const', 'enum', 'minLength'].includes(k));
  if (distinct.every((s) => s.type === 'string' && keysOk(s) && (s.const !== undefined || Array.isArray(s.enum)))) {
    const values = distinct.flatMap((s) => (s.const !== undefined ? [s.const] : (s.enum as unknown[])));
    return { type: 'string', enum: [...new Set(values)] };
  }
  if (distinct.some((s) => Object.keys(s).length === 0)) return {};
  // a plain `{type: T}` already admits every other schema of type T
  const plain = distinct.find((s) => Object.keys(s).length === 1 && typeof s.type === 'string');
  if (plain && distinct.every((s) => s.type === plain.type)) return plain;
  return { anyOf: distinct };
}

function mergeContent(contents: Json[]): Json {
  const byType = new Map<string, Json[]>();
  for (const content of contents) {
    for (const [type, media] of Object.entries(content)) {
      const schema = (media as Json).schema as Json;
      byType.set(type, [...(byType.get(type) ?? []), schema]);
    }
  }
  return Object.fromEntries(
    [...byType.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([t, s]) => [t, { schema: unionSchemas(s) }]),
  );
}

/** One generic operation for a method, merged from every precise operation of that method. */
function genericOperation(method: string, ops: Json[], components: Json): Json {
  const params = new Map<string, Json[]>();
  for (const op of ops) {
    for (const raw of op.parameters as Json[]) {
      const p = resolveParam(raw, components);
      if (p.schema) params.set(p.name, [...(params.get(p.name) ?? []), p.schema]);
    }
  }
  const parameters = [...params.entries()].map(([name, schemas]) => ({
    name,
    in: 'query',
    required: false,
    schema: unionSchemas(schemas),
  }));
  const bodies = ops.map((op) => (op.requestBody as Json | undefined)?.content as Json | undefined);
  const okContents = ops.map((op) => ((op.responses as Json)['2XX'] as Json).content as Json);
  const out: Json = {
    operationId: `portal_${method}`,
    summary: `Any portal ${method.toUpperCase()} operation`,
    description:
      'The union of the precise operations of this method. x-erpcert-operations lists them with the query values ' +
      'that select each one; portal-action.openapi.yaml has each operation with its own parameters and result.',
    parameters,
  };
  const withBody = bodies.filter((b): b is Json => Boolean(b));
  if (withBody.length > 0) out.requestBody = { required: false, content: mergeContent(withBody) };
  out.responses = {
    '2XX': { description: 'The result of the selected operation.', content: mergeContent(okContents) },
    default: { $ref: '#/components/responses/PortalUndocumentedStatus' },
  };
  out['x-erpcert-operations'] = ops.map((op) => ({ operationId: op.operationId, dispatch: op['x-erpcert-dispatch'] }));
  return out;
}

/** The generic single-path view of a precise portal spec. */
export function buildGenericPortalSpec(precise: Json): Json {
  const components = precise.components as Json;
  const byMethod = new Map<string, Json[]>();
  for (const item of Object.values(precise.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      byMethod.set(method, [...(byMethod.get(method) ?? []), op as Json]);
    }
  }
  const pathItem: Json = {};
  for (const method of ['get', 'post']) {
    const ops = byMethod.get(method);
    if (ops) pathItem[method] = genericOperation(method, ops, components);
  }
  const info = precise.info as Json;
  return {
    openapi: precise.openapi,
    info: {
      ...info,
      title: `${info.title as string} (generic single-path view)`,
      description:
        'Generated from portal-action.openapi.yaml by packages/contract/scripts/generate-portal-spec.ts: the ' +
        'same API on the one path key /WebErpAPI.hal, for tools that mishandle URL fragments in path keys. Any ' +
        'parameter may be combined with any other here; only the precise spec says which belong together.',
    },
    servers: precise.servers,
    security: precise.security,
    'x-erpcert-alternate-paths': precise['x-erpcert-alternate-paths'],
    paths: { [PORTAL_PATH]: pathItem },
    components,
  };
}
