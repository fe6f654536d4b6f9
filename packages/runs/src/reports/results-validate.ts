import { readFileSync } from 'node:fs';
import { type JsonValidationResult, type OpenApiDocument, validateJsonBody } from '@erpcert/contract';

/** results.schema.json, the documented layout of results.json. */
export const resultsSchema: Readonly<Record<string, unknown>> = JSON.parse(
  readFileSync(new URL('./results.schema.json', import.meta.url), 'utf8'),
);

/**
 * The schema inside a minimal OpenAPI 3.1 document, so that the contract's ajv validator (JSON Schema
 * 2020-12 with formats) checks it; the schema's own `$id` keeps its `#/$defs/...` references its own.
 */
const holder = {
  openapi: '3.1.0',
  info: { title: 'erpcert results', version: '1' },
  paths: {},
  components: { schemas: { ConformanceResults: resultsSchema } },
} as unknown as OpenApiDocument;

/** Validates a results document (parsed JSON) against results.schema.json with ajv. */
export function validateResults(doc: unknown): JsonValidationResult {
  return validateJsonBody(holder, 'ConformanceResults', doc);
}
