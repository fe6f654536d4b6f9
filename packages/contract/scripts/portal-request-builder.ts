/**
 * A generic OpenAPI 3.1 request builder, used to prove that a tool which knows nothing about the portal API
 * builds right requests from the portal specs alone. It reads only standard OpenAPI and JSON Schema (path keys,
 * query parameters, `const`/`enum`/`default`/`examples`, `required`, `xml` annotations, `contentSchema`); it
 * ignores every `x-` extension. One request per operation: required parameters only, the first media type.
 */

/** A JSON-ish value from a dereferenced spec. */
type Schema = Record<string, unknown>;

/** A request ready to send: `url` is the server URL plus the path key, fragment included (clients drop it). */
export interface BuiltRequest {
  readonly operationId: string;
  readonly method: string;
  readonly pathKey: string;
  readonly url: string;
  readonly contentType?: string;
  readonly body?: string;
}

const FORMAT_SAMPLES: Record<string, string> = {
  date: '2026-01-31',
  uuid: '123e4567-e89b-42d3-a456-426614174000',
};

/** The smallest value the schema describes that this builder can find, or an error naming the schema. */
export function sampleOf(schema: Schema, where: string): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.allOf)) {
    return sampleOf(Object.assign({}, schema, ...(schema.allOf as Schema[]), { allOf: undefined }), where);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return sampleOf((schema[key] as Schema[])[0]!, where);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format];
      if (schema.contentSchema && schema.contentEncoding === 'base64') {
        const inner = JSON.stringify(sampleOf(schema.contentSchema as Schema, `${where}.contentSchema`));
        return Buffer.from(inner, 'utf8').toString('base64');
      }
      const text = 'x'.repeat(Number(schema.minLength ?? 0));
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(text)) {
        throw new Error(`${where}: no example for pattern ${schema.pattern}`);
      }
      return text;
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
    case undefined: {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      if (type === undefined && required.length === 0) return 'x';
      return Object.fromEntries(required.map((k) => [k, sampleOf(props[k] ?? {}, `${where}.${k}`)]));
    }
    default:
      throw new Error(`${where}: cannot build a value of type ${String(type)}`);
  }
}

const xmlName = (schema: Schema, fallback: string): string =>
  ((schema.xml as Schema | undefined)?.name as string | undefined) ?? fallback;

/** Serialises a value as XML by the schema's `xml` annotations (OpenAPI 3.1 §4.8.26). */
export function toXml(value: unknown, schema: Schema, name: string): string {
  if (Array.isArray(value)) {
    const items = (schema.items ?? {}) as Schema;
    return value.map((v) => toXml(v, items, xmlName(items, name))).join('');
  }
  if (value === null || typeof value !== 'object') return `<${name}>${String(value)}</${name}>`;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  let attrs = '';
  let children = '';
  for (const [k, v] of Object.entries(value)) {
    const ps = props[k] ?? {};
    if ((ps.xml as Schema | undefined)?.attribute) attrs += ` ${xmlName(ps, k)}="${String(v)}"`;
    else children += toXml(v, ps, Array.isArray(v) ? k : xmlName(ps, k));
  }
  return `<${name}${attrs}>${children}</${name}>`;
}

function serialise(mediaType: string, schema: Schema, where: string): string {
  const value = sampleOf(schema, where);
  if (mediaType === 'application/json') return JSON.stringify(value);
  if (mediaType === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(
      Object.entries(value as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
  }
  if (mediaType.endsWith('/xml')) return toXml(value, schema, xmlName(schema, 'root'));
  return String(value);
}

/** Builds one request for every operation of a dereferenced spec, against `baseUrl`. */
export function buildRequests(spec: Schema, baseUrl: string): BuiltRequest[] {
  const out: BuiltRequest[] = [];
  for (const [pathKey, item] of Object.entries(spec.paths as Record<string, Schema>)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const op = raw as Schema;
      const id = op.operationId as string;
      const url = new URL(baseUrl.replace(/\/$/, '') + pathKey);
      for (const p of (op.parameters ?? []) as Schema[]) {
        if (p.in !== 'query' || !p.required) continue;
        url.searchParams.set(p.name as string, String(sampleOf(p.schema as Schema, `${id}.${p.name as string}`)));
      }
      const body = op.requestBody as Schema | undefined;
      let contentType: string | undefined;
      let text: string | undefined;
      if (body?.required) {
        const [mediaType, media] = Object.entries(body.content as Record<string, Schema>)[0]!;
        contentType = mediaType === '*/*' ? 'text/plain' : mediaType;
        text = serialise(mediaType, (media.schema ?? {}) as Schema, `${id}.body`);
      }
      out.push({ operationId: id, method: method.toUpperCase(), pathKey, url: url.href, contentType, body: text });
    }
  }
  return out;
}
