import { readFileSync } from 'node:fs';
import { type JsonValidationResult, type OpenApiDocument, validateJsonBody } from '@erpcert/contract';

/** load-results.schema.json, the documented layout of a load run's results.json. */
export const loadResultsSchema: Readonly<Record<string, unknown>> = JSON.parse(
  readFileSync(new URL('./load-results.schema.json', import.meta.url), 'utf8'),
);

/**
 * The schema inside a minimal OpenAPI 3.1 document, so that the contract's ajv validator (JSON Schema 2020-12
 * with formats) checks it; the schema's own `$id` keeps its `#/$defs/...` references its own.
 */
const holder = {
  openapi: '3.1.0',
  info: { title: 'erpcert load results', version: '1' },
  paths: {},
  components: { schemas: { LoadResults: loadResultsSchema } },
} as unknown as OpenApiDocument;

/** Validates a load results document (parsed JSON) against load-results.schema.json with ajv. */
export function validateLoadResults(doc: unknown): JsonValidationResult {
  return validateJsonBody(holder, 'LoadResults', doc);
}
