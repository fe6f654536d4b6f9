import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import { contractPackageDir } from './paths.js';
import { YAML_CACHE_DIR } from './yaml-cache.js';

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is the module object
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

/** A place in a parsed YAML file: keys of maps and indexes of lists. */
export type YamlPath = readonly (string | number)[];

/** What is wrong with an input file, where: the message says what to do, in plain words. */
export interface YamlSchemaProblem {
  /** 1-based. */
  readonly line: number;
  readonly message: string;
  /** The place of the offending node (for an unknown key, the key). */
  readonly path: YamlPath;
}

/** Checks a parsed input file against its schema: the problem to report, or undefined when it holds. */
export type YamlSchemaCheck = (text: string, value: unknown) => YamlSchemaProblem | undefined;

type Schema = Record<string, unknown>;

/** The schemas the project publishes for its input files (`@erpcert/contract/schemas/<name>`). */
export function readContractSchema(name: string): Schema {
  return JSON.parse(readFileSync(join(contractPackageDir, 'schemas', name), 'utf8')) as Schema;
}

let shared: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (!shared) {
    // verbose: each error carries its schema and data, which the messages below are written from
    shared = new Ajv2020({ allErrors: true, verbose: true, strictTypes: false });
    addFormats(shared);
    // the editors' message keywords (vscode-json-languageservice, yaml-language-server); here they only annotate
    for (const keyword of ['errorMessage', 'patternErrorMessage', 'markdownDescription']) shared.addKeyword(keyword);
  }
  return shared;
}

/**
 * The line (1-based) of the node at `path`, or of its nearest parent that exists (a value left empty: its key);
 * `key` takes the line of the last map key itself. Line 1 for an empty file.
 */
export function yamlLineOf(text: string, path: YamlPath, { key = false } = {}): number {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  const lineOfNode = (n: unknown) => (isNode(n) && n.range ? counter.linePos(n.range[0]).line : undefined);
  let node: unknown = doc.contents;
  let line = lineOfNode(node) ?? 1;
  for (const [i, step] of path.entries()) {
    if (isSeq(node)) node = node.items[Number(step)];
    else if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(step));
      if (!pair) break;
      line = lineOfNode(pair.key) ?? line;
      node = key && i === path.length - 1 ? undefined : pair.value;
    } else break;
    const at = lineOfNode(node);
    if (at === undefined) break;
    line = at;
  }
  return line;
}

const pathOf = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

const TYPE_WORDS: Record<string, string> = {
  object: 'a map (key: value)',
  array: 'a list',
  string: 'a text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
};

const shown = (v: unknown): string =>
  v === null ? 'nothing' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a map' : JSON.stringify(v);

/** What the error is about: the schema's title, else the key, else the item of its list, else the file. */
function subjectOf(e: ErrorObject, path: readonly string[]): string {
  if (path.length === 0) return 'the file';
  const title = (e.parentSchema as Schema | undefined)?.title;
  if (typeof title === 'string') return title;
  const last = path[path.length - 1]!;
  if (/^\d+$/.test(last) && path.length > 1) return `item ${Number(last) + 1} of "${path[path.length - 2]}"`;
  return `"${last}"`;
}

const keysOf = (schema: Schema | undefined): string[] => Object.keys(schema?.properties ?? {});

/** The message of one ajv error, in plain words: the schema's own (`errorMessage`) where it gives one. */
function messageOf(e: ErrorObject, path: readonly string[]): string {
  const parent = e.parentSchema as Schema | undefined;
  const own = e.keyword === 'pattern' ? (parent?.patternErrorMessage ?? parent?.errorMessage) : parent?.errorMessage;
  const scalar = e.data === null || typeof e.data !== 'object';
  const got = scalar || e.keyword === 'type' ? ` (got ${shown(e.data)})` : '';
  const what = subjectOf(e, path);
  // a message of a shared definition says what the value must be; the key or title says of what
  if (typeof own === 'string') return `${own.startsWith('must ') ? `${what} ` : ''}${own}${got}`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type': {
      const types = ([] as string[]).concat(p.type as string | string[]).filter((t) => t !== 'null');
      const keys = keysOf(parent);
      const words = types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
      return `${what} must be ${words}${types.includes('object') && keys.length > 0 ? ` with the keys ${keys.join(', ')}` : ''}${got}`;
    }
    case 'required': {
      const missing = String(p.missingProperty);
      const about = (parent?.properties as Record<string, Schema> | undefined)?.[missing]?.description;
      return `${what} needs "${missing}"${typeof about === 'string' ? `: ${about}` : ''}`;
    }
    case 'additionalProperties':
      return `unknown key "${String(p.additionalProperty)}" in ${what}: the keys are ${keysOf(parent).join(', ')} (check the spelling)`;
    case 'enum':
      return `${what} must be one of ${(p.allowedValues as unknown[]).map((v) => String(v)).join(', ')}${got}`;
    case 'minItems':
      return `${what} is empty: list at least ${p.limit === 1 ? 'one' : String(p.limit)}`;
    case 'uniqueItems':
      return `${what} lists ${shown((e.data as unknown[])[p.j as number])} twice: give it once`;
    case 'minLength':
      return `${what} must not be empty`;
    case 'minProperties':
      return `${what} is empty: give at least one key`;
    default:
      return `${what} ${e.message ?? `fails ${e.keyword}`}${got}`;
  }
}

/** Which error to report first: a misspelt key explains the missing ones; a wrong value comes before a missing key. */
function rank(e: ErrorObject): number {
  if (e.keyword === 'additionalProperties') return 0;
  if (e.keyword === 'required') return /\/(then|else)\//.test(e.schemaPath) ? 3 : 2;
  return /\/(then|else|oneOf|anyOf|not)\//.test(e.schemaPath) ? 3 : 1;
}

/**
 * A check of an input file (a YAML text and its parsed value) against a JSON Schema (draft 2020-12), compiled once.
 * Of ajv's errors it reports one, with the line of the offending node (of the key, for an unknown key; of the map,
 * for a missing key) and a message written from the schema: its `errorMessage`/`patternErrorMessage` where it has
 * one (the keywords editors show too), else from the keyword, the title or key, and the value found.
 *
 * @remarks Compiling a schema costs a process about 100 ms of CPU, and every process reads specs/rules.yaml and
 * specs/observed-fields.yaml. So a text of at least `minLength` characters that held is remembered, as
 * parseYamlCached remembers its value: an empty file under `dir` named by the SHA-256 of the schema and the text.
 * A changed text or schema has another name; a file that does not hold is never remembered.
 */
export function yamlSchemaCheck(
  schema: Schema,
  { dir = YAML_CACHE_DIR, minLength = 8192 }: { readonly dir?: string; readonly minLength?: number } = {},
): YamlSchemaCheck {
  let validate: ReturnType<Ajv2020['compile']> | undefined;
  const schemaText = JSON.stringify(schema);
  const held = (text: string) =>
    join(dir, `${createHash('sha256').update(schemaText).update('\0').update(text).digest('hex')}.valid`);
  return (text, value) => {
    const remember = text.length >= minLength ? held(text) : undefined;
    if (remember !== undefined && existsSync(remember)) return undefined;
    // one ajv for all: a schema compiled by another check of the same $id is taken from it
    validate ??= (typeof schema.$id === 'string' ? ajv().getSchema(schema.$id) : undefined) ?? ajv().compile(schema);
    if (validate(value)) {
      if (remember !== undefined) {
        try {
          mkdirSync(dir, { recursive: true });
          writeFileSync(remember, '');
        } catch {
          // a read-only checkout: every process checks
        }
      }
      return undefined;
    }
    const all = validate.errors ?? [];
    // an error inside a oneOf/anyOf/not is part of that keyword's own error; an `if` error only says "then failed"
    const errors = all.filter(
      (e) =>
        e.keyword !== 'if' &&
        !all.some(
          (o) =>
            ['oneOf', 'anyOf', 'not'].includes(o.keyword) && o !== e && e.schemaPath.startsWith(`${o.schemaPath}/`),
        ),
    );
    const e = [...errors].sort((a, b) => rank(a) - rank(b))[0] ?? all[0]!;
    const path: (string | number)[] = pathOf(e.instancePath);
    const key = e.keyword === 'additionalProperties';
    if (key) path.push(String((e.params as { additionalProperty: string }).additionalProperty));
    // too many items: the first one too many
    if (e.keyword === 'maxItems') path.push(Number((e.params as { limit: number }).limit));
    return { line: yamlLineOf(text, path, { key }), message: messageOf(e, pathOf(e.instancePath)), path };
  };
}
