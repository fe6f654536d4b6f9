import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type JsonValidationResult, type OpenApiDocument, specsDir, validateJsonBody } from '@erpcert/contract';

/** specs/attestation/certification-predicate.v1.schema.json, relative to specs/. */
export const PREDICATE_SCHEMA_FILE = 'attestation/certification-predicate.v1.schema.json';

/** The predicate's JSON Schema (2020-12). */
export const predicateSchema: Readonly<Record<string, unknown>> = JSON.parse(
  readFileSync(join(specsDir, PREDICATE_SCHEMA_FILE), 'utf8'),
);

// inside a minimal OpenAPI 3.1 document, so that the contract's ajv validator (2020-12 with formats) checks it,
// as results-validate.ts does for results.schema.json
const holder = {
  openapi: '3.1.0',
  info: { title: 'erpcert certification predicate', version: '1' },
  paths: {},
  components: { schemas: { CertificationPredicate: predicateSchema } },
} as unknown as OpenApiDocument;

/** Validates a predicate (parsed JSON) against the v1 schema. */
export function validatePredicate(predicate: unknown): JsonValidationResult {
  return validateJsonBody(holder, 'CertificationPredicate', predicate);
}
