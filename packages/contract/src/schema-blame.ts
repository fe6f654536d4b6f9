/**
 * Where a whole-body schema check failed, as body paths (body-paths.ts), so that the failure is blamed on the
 * rule that owns the failing part (issue 18 "Blame by path"): libxml2's messages are mapped to elements of the
 * parsed body, ajv's errors through their instance path. A message that names no part of the body (the top
 * level, a body that does not parse) yields no path: the caller then blames the container rule.
 */
import type { ErrorObject } from 'ajv';
import { blameOf, type CoverIndex, coverIndex, type PathFailure } from './body-paths.js';
import { documentedPaths, isDocumentedIn, requiredChildrenOf } from './documented-paths.js';
import { rules } from './rules.js';
import { loadSpec } from './specs.js';
import { parseXml, type XmlElement } from './xml-tree.js';

/** One failing part of a body. */
export interface FailingPath {
  readonly path: string;
  readonly failure: PathFailure;
  /** The validator's message it comes from. */
  readonly message: string;
}

const MESSAGE = /^line (\d+): (?:Schemas validity error : )?Element '([^']+)'(?:, attribute '([^']+)')?: (.*)$/;

/** The elements named `name` starting on `line` (any line if none does), with their ancestry paths. */
function elementsAt(roots: readonly XmlElement[], name: string, line: number): { path: string; e: XmlElement }[] {
  const exact: { path: string; e: XmlElement }[] = [];
  const any: { path: string; e: XmlElement }[] = [];
  const visit = (e: XmlElement, at: string) => {
    const here = at === '' ? e.name : `${at}/${e.name}`;
    if (e.name === name) (e.line === line ? exact : any).push({ path: here, e });
    for (const c of e.children) visit(c, here);
  };
  for (const r of roots) visit(r, '');
  return exact.length > 0 ? exact : any;
}

/**
 * The documented children an element must have (`@name` for attributes), by body path: an identity constraint
 * of the XSD (`Not all fields of key identity-constraint ... evaluate to a node`) does not say which one is missing.
 */
export type RequiredChildren = (path: string) => readonly string[];

/**
 * The failing paths of an XML body from libxml2's messages (`line N: Element 'X'[, attribute 'Y']: ...`,
 * as validateXml returns them), each `<body>:<path>` with `body` the XSD kind.
 */
export function xmlFailingPaths(
  body: string,
  kind: string,
  errors: readonly string[],
  required: RequiredChildren = () => [],
  documented: (path: string) => boolean = () => true,
): FailingPath[] {
  let roots: readonly XmlElement[];
  try {
    roots = parseXml(body.startsWith('\uFEFF') ? body.slice(1) : body).roots;
  } catch {
    return [];
  }
  const out: FailingPath[] = [];
  for (const message of errors) {
    const m = MESSAGE.exec(message);
    if (!m) continue;
    const [, line, element, attribute, text] = m as unknown as [string, string, string, string | undefined, string];
    const name = element.replace(/^\{[^}]*\}/, '');
    const push = (path: string, failure: PathFailure) => out.push({ path: `${kind}:${path}`, failure, message });
    if (/identity-constraint/.test(text)) {
      // which field is missing: the required documented children absent from an element of that name
      // (an element where the schema wants text: the value of its parent is wrong)
      for (const { path, e } of elementsAt(roots, name, Number(line))) {
        const missing = required(`${kind}:${path}`).filter((child) =>
          child.startsWith('@')
            ? e.attributes[child.slice(1)] === undefined
            : !e.children.some((c) => c.name === child),
        );
        for (const child of missing) push(`${path}/${child}`, 'element');
        if (missing.length === 0 && !documented(`${kind}:${path}`) && path.includes('/'))
          push(path.slice(0, path.lastIndexOf('/')), 'value');
      }
      continue;
    }
    const at = [...new Set(elementsAt(roots, name, Number(line)).map((x) => x.path))];
    for (const p of at) {
      const missingChild = /Missing child element\(s\)\. Expected is(?: one of)? \( ([^)]*) \)/.exec(text);
      const missingAttribute = /The attribute '([^']+)' is required but missing/.exec(text);
      if (missingChild) {
        for (const name of missingChild[1]!.split(',').map((s) => s.trim().replace(/^\{[^}]*\}/, '')))
          if (/^[A-Za-z_][\w.-]*$/.test(name)) push(`${p}/${name}`, 'element');
      } else if (missingAttribute) push(`${p}/@${missingAttribute[1]}`, 'element');
      else if (attribute !== undefined)
        push(`${p}/@${attribute}`, /is not allowed|not expected/.test(text) ? 'element' : 'value');
      else if (/This element is not expected|is not allowed/.test(text)) push(p, 'element');
      else push(p, 'value');
    }
  }
  return out;
}

/** Steps of an ajv instance path (`/data/IVVc/0/Sum4` -> data/IVVc/Sum4): array indices add no step. */
function jsonSteps(instancePath: string): string[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .filter((s) => !/^\d+$/.test(s));
}

/** The value at an ajv instance path of `doc` (undefined when there is none). */
function valueAt(doc: unknown, instancePath: string): unknown {
  let node = doc;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The failing paths of a JSON body from ajv's errors, `body` being the component schema it was checked against
 * and `doc` the value checked (a JSON null is told from other wrong values: `#null` patterns own it).
 */
export function jsonFailingPaths(body: string, errors: readonly ErrorObject[], doc?: unknown): FailingPath[] {
  const out: FailingPath[] = [];
  for (const e of errors) {
    if (['anyOf', 'oneOf', 'if', 'then', 'else', 'allOf', 'not'].includes(e.keyword)) continue;
    const steps = jsonSteps(e.instancePath);
    const p = e.params as { missingProperty?: string; additionalProperty?: string; propertyName?: string };
    const message = `${e.instancePath || '(root)'} ${e.message ?? e.keyword}`;
    const at = (extra?: string) => `${body}:${[...steps, ...(extra === undefined ? [] : [extra])].join('/')}`;
    if (e.keyword === 'required' && p.missingProperty !== undefined)
      out.push({ path: at(p.missingProperty), failure: 'element', message });
    else if (e.keyword === 'additionalProperties' && p.additionalProperty !== undefined)
      out.push({ path: at(p.additionalProperty), failure: 'element', message });
    else if (steps.length > 0)
      out.push({ path: at(), failure: valueAt(doc, e.instancePath) === null ? 'null' : 'value', message });
  }
  return out;
}

/**
 * The rule a schema failure is blamed on: the owner of the first failing path that has one, else `container`
 * (the rule of the whole body: a failure of the container itself, or one no path names).
 */
export function blameSchemaFailure(index: CoverIndex, failing: readonly FailingPath[], container: string): string {
  for (const f of failing) {
    const owner = blameOf(index, f.path, f.failure);
    if (owner !== undefined) return owner;
  }
  return container;
}

interface BlameContext {
  readonly index: CoverIndex;
  readonly required: RequiredChildren;
  readonly documented: (path: string) => boolean;
}
let context: BlameContext | undefined;

/** The catalogue's owners and the documented paths of both specs, built once per process. */
function blameContext(): BlameContext {
  if (!context) {
    const paths = documentedPaths(
      (['record-rest', 'portal-action'] as const).map((name) => ({ name, doc: loadSpec(name) })),
    );
    context = { index: coverIndex(rules), required: requiredChildrenOf(paths), documented: isDocumentedIn(paths) };
  }
  return context;
}

/** The rule an XSD failure of `body` (validated as `kind`) is blamed on; `container` when no owned part failed. */
export function blameXmlFailure(body: string, kind: string, errors: readonly string[], container: string): string {
  const c = blameContext();
  return blameSchemaFailure(c.index, xmlFailingPaths(body, kind, errors, c.required, c.documented), container);
}

/** The rule a JSON-schema failure against the component schema `schema` is blamed on; `container` otherwise. */
export function blameJsonFailure(
  schema: string,
  issues: readonly ErrorObject[],
  container: string,
  doc?: unknown,
): string {
  if (!/^[A-Za-z0-9]+$/.test(schema)) return container;
  return blameSchemaFailure(blameContext().index, jsonFailingPaths(schema, issues, doc), container);
}
