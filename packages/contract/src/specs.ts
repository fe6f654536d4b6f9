import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { specsDir } from './paths.js';
import { parseYamlCached } from './yaml-cache.js';

/** The OpenAPI documents of `specs/`: `specs/<name>.openapi.yaml`. */
export type SpecName = 'record-rest' | 'portal-action';

/** An OpenAPI 3.1 document as parsed from YAML (with `$ref`s) or as dereferenced by swagger-parser. */
export type OpenApiDocument = OpenAPIV3_1.Document;

/** A spec that cannot be read, parsed or validated. `cause` carries the underlying error. */
export class SpecError extends Error {
  override readonly name = 'SpecError';
  constructor(
    readonly spec: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${spec}: ${message}`, options);
  }
}

/** Path of `specs/<name>.openapi.yaml`. */
export function specFile(name: string): string {
  return join(specsDir, `${name}.openapi.yaml`);
}

/**
 * Files of specs/ that are not the ERP's contract: the hub's own API (`hub.openapi.yaml`). They are left out of the
 * spec SHA-256 a run and its certification carry and of the per-file digests of an attestation, so that an edit of
 * the hub's API never changes what a run was checked against; and they are no spec of the ERP (`listSpecNames`).
 */
export const NOT_CONTRACT_FILES: ReadonlySet<string> = new Set(['hub.openapi.yaml']);

/** Whether `path` (relative to specs/, `/`-separated) is part of the ERP's contract. */
export function isContractFile(path: string): boolean {
  return !NOT_CONTRACT_FILES.has(path);
}

/** Names of every `specs/*.openapi.yaml` of the ERP's contract that exists, sorted. */
export function listSpecNames(): string[] {
  return readdirSync(specsDir)
    .filter((f) => f.endsWith('.openapi.yaml') && isContractFile(f))
    .map((f) => f.slice(0, -'.openapi.yaml'.length))
    .sort();
}

const loaded = new Map<string, OpenApiDocument>();
const validated = new Map<string, Promise<OpenApiDocument>>();

/**
 * Reads and parses `specs/<name>.openapi.yaml` (`$ref`s left in place). Cached per process: callers share the
 * object and must not mutate it.
 */
export function loadSpec(name: SpecName | (string & {})): OpenApiDocument {
  const hit = loaded.get(name);
  if (hit) return hit;
  const file = specFile(name);
  if (!existsSync(file)) throw new SpecError(name, `no such spec: ${file}`);
  let doc: unknown;
  try {
    doc = parseYamlCached(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new SpecError(name, `${file} is not valid YAML: ${(cause as Error).message}`, { cause });
  }
  if (!doc || typeof doc !== 'object' || !('openapi' in doc))
    throw new SpecError(name, `${file} is not an OpenAPI document (no "openapi" member)`);
  loaded.set(name, doc as OpenApiDocument);
  return doc as OpenApiDocument;
}

/**
 * Validates an OpenAPI document with @apidevtools/swagger-parser (the OpenAPI 3.1 JSON schema) and resolves to
 * a dereferenced copy; `doc` itself is left untouched. Rejects with a {@link SpecError} labelled `label`.
 */
export async function validateDocument(doc: object, label: string): Promise<OpenApiDocument> {
  // swagger-parser dereferences in place: hand it a copy so the caller's document keeps its $refs
  const copy = structuredClone(doc) as OpenApiDocument;
  try {
    return (await SwaggerParser.validate(copy)) as OpenApiDocument;
  } catch (cause) {
    throw new SpecError(label, `fails OpenAPI validation: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Validates `specs/<name>.openapi.yaml` (see {@link validateDocument}) and resolves to the dereferenced
 * document. Cached per process; a failed validation is not cached.
 */
export function validateSpec(name: SpecName | (string & {})): Promise<OpenApiDocument> {
  const hit = validated.get(name);
  if (hit) return hit;
  const run = Promise.resolve()
    .then(() => loadSpec(name))
    .then((doc) => validateDocument(doc, name));
  validated.set(name, run);
  run.catch(() => validated.delete(name));
  return run;
}
