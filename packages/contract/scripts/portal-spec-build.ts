/**
 * Builds specs/portal-action.openapi.yaml from the hand-written sources specs/src/portal-operations.yaml and
 * specs/src/portal-components.yaml. Pure functions: generate-portal-spec.ts writes the files, the drift test
 * (src/portal-spec.test.ts) compares them with what these functions return.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** A JSON-ish object as it comes out of YAML. */
export type Json = Record<string, unknown>;

/** The path every operation is served at (portal-action-api.md §4). */
export const PORTAL_PATH = '/WebErpAPI.hal';
/** The other path real deployments use (DESIGN.md "What real deployments do beyond the docs"). */
export const PORTAL_ALTERNATE_PATHS = ['/WebExcellentAPI.hal'] as const;
/** Parameters valid on every action (portal-action-api.md §1 "Global parameters"). */
export const GLOBAL_PARAMETERS = ['compno', 'usercode', 'portalcc'] as const;

type ResultSpec = { xml?: string; json?: string; openXml?: boolean; openJson?: boolean; alsoText?: boolean };
type NotShownSpec = Partial<Record<'operation' | 'parameters' | 'requestBody' | 'response', string>>;

/** One entry of specs/src/portal-operations.yaml `operations`. */
export interface PortalOperationSource {
  operationId: string;
  method: 'get' | 'post';
  dispatch: Record<string, string>;
  summary: string;
  description?: string;
  tag: string;
  docSection?: string;
  params?: (string | Json)[];
  body?: Json;
  result: ResultSpec;
  resultText?: string;
  notShown?: NotShownSpec;
}

interface ListSource {
  register: string;
  rows?: string;
  shape?: 'arap';
  open?: boolean;
}

/** specs/src/portal-operations.yaml, parsed. */
export interface PortalCatalogue {
  notShown: Record<string, string>;
  tags: Json[];
  operations: PortalOperationSource[];
  lists: ListSource[];
}

/** Reads the two hand-written sources under `specs/src/`. */
export function loadPortalSources(specsDir: string): { catalogue: PortalCatalogue; components: Json } {
  const catalogue = parse(readFileSync(join(specsDir, 'src', 'portal-operations.yaml'), 'utf8')) as PortalCatalogue;
  const components = parse(readFileSync(join(specsDir, 'src', 'portal-components.yaml'), 'utf8')) as Json;
  for (const key of ['notShown', 'tags', 'operations', 'lists'] as const) {
    if (!catalogue[key]) throw new Error(`specs/src/portal-operations.yaml: missing "${key}"`);
  }
  return { catalogue, components };
}

const DOC = 'portal-action-api.md';
const ref = (kind: string, name: string): Json => ({ $ref: `#/components/${kind}/${name}` });

/** The path key of an operation: the real path plus a fragment naming its dispatch values. */
export function pathKey(dispatch: Record<string, string>): string {
  const pairs = Object.entries(dispatch).map(([k, v]) => `${k}=${v}`);
  return `${PORTAL_PATH}#${pairs.join('&')}`;
}

/** Paging and filter parameters of every list query (operation rule 8, list-query row of §4). */
const LIST_PARAMS = ['listPage', 'listPerpage', 'listSearch', 'listSortkey', 'listOrder', 'listSd', 'listEd'];

/** The operation sources of the list queries, one per list register. */
function listOperations(lists: ListSource[]): PortalOperationSource[] {
  return lists.map((l) => ({
    operationId: `list_${l.register}`,
    method: 'get',
    dispatch: { register: l.register },
    summary: `List query (${l.register})`,
    description:
      l.register === 'Kanban'
        ? 'The Kanban list takes `usercode` and a `maxsize` parameter for column size (operation rule 8).'
        : undefined,
    tag: 'lists',
    params: [...LIST_PARAMS, 'listBfilter', ...(l.register === 'Kanban' ? ['kanbanMaxsize'] : [])],
    result: l.open ? { openXml: true } : { xml: `PortalList${l.register}` },
    resultText: 'paged list',
    notShown: l.open ? { response: 'rule14' } : undefined,
  }));
}

/** The paged-list result schema of one register (Result element shapes: "Paged list"). */
function listSchema(l: ListSource, rule14: string): Json {
  const attr = (schema: Json): Json => ({ ...schema, xml: { attribute: true } });
  const items: Json = l.rows
    ? ref('schemas', l.rows)
    : { type: 'object', xml: { name: l.register }, 'x-erpcert-not-shown': rule14 };
  const records = { type: 'array', items };
  if (l.shape === 'arap') {
    return {
      type: 'object',
      description: `Paged list (ARVc, APVc): \`<data page total>\` with repeated \`<${l.register}>\` records.`,
      xml: { name: 'data' },
      required: ['page', 'total'],
      properties: {
        page: attr({ type: 'integer', minimum: 1 }),
        total: attr({ type: 'integer', minimum: 0 }),
        [l.register]: records,
      },
      'x-erpcert-doc': `${DOC}#result-element-shapes-xml`,
    };
  }
  return {
    type: 'object',
    description: `Paged list: \`<data count page perpage totalpages>\` with repeated \`<${l.register}>\` records.`,
    xml: { name: 'data' },
    required: ['count', 'page', 'perpage', 'totalpages'],
    properties: {
      count: attr({ type: 'integer', minimum: 0 }),
      page: attr({ type: 'integer', minimum: 1 }),
      perpage: attr({ type: 'integer', minimum: 1, maximum: 100 }),
      totalpages: attr({ type: 'integer', minimum: 0 }),
      [l.register]: records,
    },
    'x-erpcert-doc': `${DOC}#result-element-shapes-xml`,
  };
}

function notShownText(catalogue: PortalCatalogue, key: string, where: string): string {
  const text = catalogue.notShown[key];
  if (!text) throw new Error(`${where}: unknown notShown key "${key}"`);
  return text;
}

/** The parameter list of one operation: dispatch consts, its own parameters, then the globals it lacks. */
function operationParameters(op: PortalOperationSource, components: Json): Json[] {
  const declared = (components.parameters ?? {}) as Record<string, Json>;
  const dispatch: Json[] = Object.entries(op.dispatch).map(([name, value]) => ({
    name,
    in: 'query',
    required: true,
    description: `Selects the operation: always \`${name}=${value}\`.`,
    schema: { type: 'string', const: value },
  }));
  const own: Json[] = (op.params ?? []).map((p) => {
    if (typeof p !== 'string') return { name: p.name, in: 'query', ...p };
    if (!declared[p]) throw new Error(`${op.operationId}: unknown parameter "${p}"`);
    return ref('parameters', p);
  });
  const nameOf = (p: Json): string => {
    const r = p.$ref as string | undefined;
    return (r ? declared[r.split('/').pop()!]!.name : p.name) as string;
  };
  const taken = new Set([...dispatch, ...own].map(nameOf));
  const globals = GLOBAL_PARAMETERS.filter((g) => !taken.has(g)).map((g) => ref('parameters', g));
  return [...dispatch, ...own, ...globals];
}

/**
 * The XML failure of an operation whose success is JSON. §1 and §7 give the failure forms (an `<error>` element
 * or a non-empty `errstr`) for the whole API and exempt no operation; and a server answers a request that selects
 * no operation (an unknown `action`) before it knows the operation's format, in the API's default format, XML.
 */
const JSON_OPERATION_XML_FAILURE: Json = {
  'x-erpcert-doc': `${DOC}#7-errors`,
  'x-erpcert-inferred':
    'Failures are "an <error> element or a non-empty errstr attribute" (§1, §7) for every operation; ' +
    'the JSON operations are not exempted, so a JSON operation may fail in XML.',
};

function operationResponses(op: PortalOperationSource, catalogue: PortalCatalogue): Json {
  const r = op.result;
  const content: Json = {};
  if (r.xml)
    content['application/xml'] = { schema: { anyOf: [ref('schemas', r.xml), ref('schemas', 'PortalFailure')] } };
  if (r.openXml) {
    content['application/xml'] = {
      schema: { anyOf: [ref('schemas', 'PortalOpenData'), ref('schemas', 'PortalFailure')] },
    };
  }
  if (r.json)
    content['application/json'] = { schema: { anyOf: [ref('schemas', r.json), ref('schemas', 'PortalJsonFailure')] } };
  if (r.openJson) content['application/json'] = { schema: {} };
  if ((r.json || r.openJson) && !content['application/xml'])
    content['application/xml'] = { schema: ref('schemas', 'PortalFailure'), ...JSON_OPERATION_XML_FAILURE };
  if (r.alsoText) content['text/plain'] = { schema: { type: 'string' } };
  if (Object.keys(content).length === 0) throw new Error(`${op.operationId}: result names no body`);
  const ok: Json = {
    description: op.resultText ? `${op.summary}: ${op.resultText}.` : `${op.summary}: result not stated.`,
    headers: { 'Set-Cookie': ref('headers', 'HsessionCookie') },
    content,
  };
  if (op.notShown?.response) {
    ok['x-erpcert-not-shown'] = notShownText(catalogue, op.notShown.response, op.operationId);
  }
  return { '2XX': ok, default: ref('responses', 'PortalUndocumentedStatus') };
}

/** One OpenAPI operation object from its catalogue entry. */
function operationObject(op: PortalOperationSource, catalogue: PortalCatalogue, components: Json): Json {
  const out: Json = {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    parameters: operationParameters(op, components),
  };
  if (op.body) {
    const body = { ...op.body };
    const key = op.notShown?.requestBody;
    if (key) body['x-erpcert-not-shown'] = notShownText(catalogue, key, op.operationId);
    out.requestBody = body;
  }
  out.responses = operationResponses(op, catalogue);
  out['x-erpcert-doc'] = `${DOC}#${op.docSection ?? '4-endpoints'}`;
  out['x-erpcert-dispatch'] = op.dispatch;
  const opTexts = (['operation', 'parameters'] as const)
    .map((k) => op.notShown?.[k])
    .filter((k): k is string => Boolean(k))
    .map((k) => notShownText(catalogue, k, op.operationId));
  if (opTexts.length === 1) out['x-erpcert-not-shown'] = opTexts[0];
  if (opTexts.length > 1) out['x-erpcert-not-shown'] = opTexts;
  return out;
}

const INFO_DESCRIPTION = `The portal action API of docs/portal-action-api.md: one endpoint, \`{base_url}/WebErpAPI.hal\`,
where the query parameter \`action\` selects the operation; with \`action=action\` the parameter \`register\` names a
sub-action; a list query has no \`action\` and \`register\` names the list.

Each operation has its own path key, the real path plus a URL fragment that repeats its dispatch values
(\`/WebErpAPI.hal#action=action&register=getfile\`). Clients never send a fragment: the dispatch values travel as
the required query parameters pinned by \`const\`. specs/README.md explains the choice;
portal-action.generic.openapi.yaml is the same API on one path key, for tools that mishandle fragments.

Real deployments also serve the endpoint at \`/WebExcellentAPI.hal\` (x-erpcert-alternate-paths); the path is
configurable in the erpcert tools. Extension hooks (OuterErpAPIActions and others, §1) let a server add
sub-actions, registers and document types that this document does not list. Cash flow data (2,000 rows by
default, 30,000 with \`limitf=false\`, §8) belongs to no operation the docs name, so \`limitf\` is on none.`;

/**
 * Adds `x-erpcert-standing` (the record REST spec's vocabulary) beside the portal sources' reasons:
 * `inferred` where a node carries `x-erpcert-inferred`, `observed` where it carries `x-erpcert-observed`.
 */
function markStanding(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) markStanding(item);
    return;
  }
  const obj = node as Json;
  if (obj['x-erpcert-inferred'] !== undefined) obj['x-erpcert-standing'] = 'inferred';
  if (obj['x-erpcert-observed'] !== undefined) obj['x-erpcert-standing'] = 'observed';
  for (const value of Object.values(obj)) markStanding(value);
}

/** The whole precise spec (specs/portal-action.openapi.yaml) as a plain object. */
export function buildPortalSpec(catalogue: PortalCatalogue, components: Json): Json {
  const ops = [...catalogue.operations, ...listOperations(catalogue.lists)];
  const paths: Json = {};
  const seen = new Set<string>();
  for (const op of ops) {
    if (seen.has(op.operationId)) throw new Error(`duplicate operationId ${op.operationId}`);
    seen.add(op.operationId);
    const key = pathKey(op.dispatch);
    if (paths[key]) throw new Error(`${op.operationId}: path key ${key} is taken`);
    paths[key] = { [op.method]: operationObject(op, catalogue, components) };
  }
  const rule14 = notShownText(catalogue, 'rule14', 'lists');
  const schemas: Json = { ...(components.schemas as Json) };
  for (const l of catalogue.lists.filter((x) => !x.open)) schemas[`PortalList${l.register}`] = listSchema(l, rule14);
  const spec: Json = {
    openapi: '3.1.0',
    info: {
      title: 'ERP portal action API',
      version: '1.0.1',
      description: INFO_DESCRIPTION,
      'x-erpcert-doc': `${DOC}#9-versioning`,
      'x-erpcert-not-shown': ['Deprecation policy: not shown.', 'Rate limits and the default upload size: not shown.'],
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The ERP server; the path carries no version segment.',
        variables: { base_url: { default: 'http://127.0.0.1:8080' } },
      },
    ],
    security: [{ basic: [] }, { hsession: [] }],
    tags: catalogue.tags,
    'x-erpcert-alternate-paths': [...PORTAL_ALTERNATE_PATHS],
    paths,
    components: {
      securitySchemes: components.securitySchemes,
      parameters: components.parameters,
      headers: {
        HsessionCookie: {
          description: 'After a successful Basic-authenticated request the server returns the `HSESSION` cookie.',
          schema: { type: 'string' },
          'x-erpcert-doc': `${DOC}#5-authentication`,
        },
      },
      responses: components.responses,
      schemas,
    },
  };
  markStanding(spec);
  return spec;
}
