import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { contractPackageDir, inCheckout, repoRoot } from './paths.js';

/**
 * Where parsed YAML is kept as JSON: inside node_modules (the checkout's, or the installed package's own), so a
 * fresh install starts empty and nothing here is ever committed.
 */
export const YAML_CACHE_DIR: string = join(
  inCheckout ? repoRoot : contractPackageDir,
  'node_modules',
  '.cache',
  'erpcert',
  'yaml',
);

/** True when `JSON.parse(JSON.stringify(value))` gives back an equal value: plain objects, arrays, strings, finite numbers, booleans, null. */
export function isJsonSafe(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every(isJsonSafe);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value as Record<string, unknown>).every(([k, v]) => k !== '__proto__' && isJsonSafe(v));
  }
  return false;
}

/**
 * `yaml`'s `parse(text)`, remembered across processes. The first parse of a text writes its value as JSON under
 * `dir`, named by the text's SHA-256; later processes read that instead. JSON.parse is over a hundred times
 * faster: the record-rest spec takes the YAML parser 1.2 s and JSON.parse 7 ms, and every conformance worker
 * loads it.
 *
 * @remarks Texts shorter than `minLength` (default 8 KiB) are parsed every time: they cost the parser little, and
 * the cache keeps only what is worth a file. Values JSON cannot carry exactly are never cached. A missing, unreadable or corrupt cache file only
 * costs the parse; a YAML error is thrown as `parse` throws it and nothing is written.
 */
export function parseYamlCached(
  text: string,
  { dir = YAML_CACHE_DIR, minLength = 8192 }: { readonly dir?: string; readonly minLength?: number } = {},
): unknown {
  if (text.length < minLength) return parse(text);
  const file = join(dir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // not cached yet, or unreadable: parse
  }
  const value: unknown = parse(text);
  if (isJsonSafe(value)) {
    try {
      mkdirSync(dir, { recursive: true });
      // another process may write the same file at the same time: each writes its own, the rename is atomic
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(tmp, JSON.stringify(value));
      renameSync(tmp, file);
    } catch {
      // a read-only checkout: every process parses
    }
  }
  return value;
}
