import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './specs.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

/** Outcome of {@link validateJsonBody}: `errors` holds one readable line per violation (`<path> <message>`). */
export interface JsonValidationResult {
  readonly valid: boolean;
  readonly errors: readonly string[];
  /**
   * ajv's errors as it gives them (instance path, keyword, params), when the value is invalid: what
   * schema-blame.ts maps to body paths. Absent on a valid value.
   */
  readonly issues?: readonly ErrorObject[];
}

/** The schema name or pointer does not exist in the spec, or the schema does not compile. */
export class JsonSchemaLookupError extends Error {
  override readonly name = 'JsonSchemaLookupError';
}

interface SpecValidators {
  readonly ajv: Ajv2020;
  readonly byPointer: Map<string, ValidateFunction>;
}

const perSpec = new WeakMap<object, SpecValidators>();

/** One ajv instance per spec object; the whole document is registered as `spec`, so `#/paths/...` pointers resolve too. */
function validatorsFor(spec: OpenApiDocument): SpecValidators {
  let hit = perSpec.get(spec);
  if (!hit) {
    // strict: false because OpenAPI schemas carry keywords JSON Schema does not know (xml, example, x-*)
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(spec as object, 'spec');
    hit = { ajv, byPointer: new Map() };
    perSpec.set(spec, hit);
  }
  return hit;
}

function pointerOf(pointerOrSchemaName: string): string {
  if (pointerOrSchemaName.startsWith('#/')) return pointerOrSchemaName;
  if (!/^[A-Za-z0-9._-]+$/.test(pointerOrSchemaName))
    throw new JsonSchemaLookupError(`not a schema name or a "#/..." pointer: ${pointerOrSchemaName}`);
  return `#/components/schemas/${pointerOrSchemaName}`;
}

function resolvePointer(spec: OpenApiDocument, pointer: string): unknown {
  let node: unknown = spec;
  for (const raw of pointer.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!node || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function formatError(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(root)' : e.instancePath;
  const p = e.params as { additionalProperty?: string; allowedValues?: unknown[]; allowedValue?: unknown };
  const detail =
    p.additionalProperty !== undefined
      ? `: ${p.additionalProperty}`
      : p.allowedValues
        ? `: ${JSON.stringify(p.allowedValues)}`
        : p.allowedValue !== undefined
          ? `: ${JSON.stringify(p.allowedValue)}`
          : '';
  return `${where} ${e.message ?? e.keyword}${detail}`;
}

/**
 * Validates a JSON value against a schema of an OpenAPI 3.1 spec with ajv (JSON Schema 2020-12, the
 * dialect of OAS 3.1) and ajv-formats. `pointerOrSchemaName` is a component schema name (`IVVcEnvelope`)
 * or a JSON pointer to a Schema Object of the spec (`#/components/schemas/IVVcEnvelope`,
 * `#/paths/~1api~11~1IVVc/get/responses/2XX/content/application~1json/schema/anyOf/0`). Works on the document from
 * `loadSpec` (with `$ref`s) and on the dereferenced one from `validateSpec`. Compiled validators are cached
 * per spec object and pointer.
 */
export function validateJsonBody(
  spec: OpenApiDocument,
  pointerOrSchemaName: string,
  value: unknown,
): JsonValidationResult {
  const pointer = pointerOf(pointerOrSchemaName);
  const { ajv, byPointer } = validatorsFor(spec);
  let validate = byPointer.get(pointer);
  if (!validate) {
    if (resolvePointer(spec, pointer) === undefined)
      throw new JsonSchemaLookupError(`${pointerOrSchemaName}: no such schema in the spec (${pointer})`);
    try {
      validate = ajv.compile({ $ref: `spec${pointer}` });
    } catch (cause) {
      throw new JsonSchemaLookupError(`${pointer}: schema does not compile: ${(cause as Error).message}`, { cause });
    }
    byPointer.set(pointer, validate);
  }
  const valid = validate(value) === true;
  if (valid) return { valid, errors: [] };
  const issues = [...(validate.errors ?? [])];
  return { valid, errors: issues.map(formatError), issues };
}
