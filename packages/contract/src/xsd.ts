/**
 * XSD validation of XML bodies against `specs/xsd/`, with libxml2 (xmllint-wasm).
 * How bodies without a single root are handled: specs/xsd/README.md "Bodies without a single root".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from './paths.js';
import { isXmlBodyKind, type XmlBodyKind, xmlBodyKindInfo } from './xsd-kinds.js';
import { outlineXml, type XmlOutline } from './xsd-outline.js';
import { XmllintRunner, type XsdFile } from './xsd-runner.js';

/** The result of validating one body. */
export interface XmlValidationResult {
  /** The body matches the schema of its kind (or, for a portal kind, is a documented failure answer). */
  readonly valid: boolean;
  /** libxml2's messages, each `line N: ...`; empty when valid. */
  readonly errors: readonly string[];
  /** Names of the top-level elements in document order, e.g. `['error', 'data']`; empty when unreadable. */
  readonly roots: readonly string[];
  /**
   * The body reports a failure (portal-action-api.md §1, §7): it holds an `<error>` element, or `<data>` holds a
   * `<res>` with a non-empty errstr.
   */
  readonly failure: boolean;
  /** The kind whose schema judged the body: the one asked for, or `portal-result` for a failure answer. */
  readonly checkedAs: XmlBodyKind;
}

/** A schema in `specs/xsd/` does not compile: a defect of the specs, not of the body. */
export class XsdSchemaError extends Error {
  override readonly name = 'XsdSchemaError';
}

/** Name of the synthetic root that wraps response bodies (specs/xsd/body.xsd). */
export const xsdWrapperElement = 'erpcert-body';
/** The name libxml2 gives the body in its messages before they are rewritten to `line N: ...`. */
const bodyFileName = 'body.xml';
/** At most this many messages are returned for one body. */
const maxErrors = 100;

/** Reads every `*.xsd` of `dir` (default `specs/xsd/`). */
export function loadXsdFiles(dir: string = join(specsDir, 'xsd')): readonly XsdFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.xsd'))
    .sort()
    .map((fileName) => ({ fileName, contents: readFileSync(join(dir, fileName), 'utf8') }));
}

let runner: XmllintRunner | undefined;

/** The process-wide runner; the schema files are read once, on first use. */
function getRunner(): XmllintRunner {
  runner ??= new XmllintRunner(loadXsdFiles());
  return runner;
}

/** Stops the validator's worker thread (tests, or a CLI that wants to exit at once). A later call restarts it. */
export async function closeXmlValidator(): Promise<void> {
  const current = runner;
  runner = undefined;
  await current?.close();
}

/** Replaces every character of `text[from, to)` but line breaks by a space, so that line numbers stay. */
function blank(text: string, from: number, to: number): string {
  if (to <= from) return text;
  return text.slice(0, from) + text.slice(from, to).replace(/[^\n]/g, ' ') + text.slice(to);
}

/**
 * Prepares a body for xmllint: drops the XML declaration (the body is already a decoded string; its
 * `encoding` no longer applies) and, for a response, wraps the top-level elements in the synthetic root, after
 * the DOCTYPE if any. Nothing is added before the first line break, so libxml2's line numbers are the body's.
 */
function prepare(body: string, outline: XmlOutline | undefined, wrap: boolean): string {
  const declarationEnd = outline?.declarationEnd ?? /^\s*<\?xml\s[^>]*\?>/.exec(body)?.[0].length ?? 0;
  const text = blank(body, 0, declarationEnd);
  if (!wrap) return text;
  const at = outline?.doctypeEnd ?? 0;
  return `${text.slice(0, at)}<${xsdWrapperElement}>${text.slice(at)}</${xsdWrapperElement}>`;
}

/** Turns xmllint's stderr into `line N: message` entries. */
function toMessages(stderr: string): string[] {
  const prefix = `${bodyFileName}:`;
  const messages: string[] = [];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const m = /^(\d+): (.*)$/.exec(line.slice(prefix.length));
    // libxml2 follows a bad value with this internal warning; the first message already says what is wrong.
    if (!m || m[2]!.includes('No precomputed value available')) continue;
    const text = m[2]!
      .replaceAll(`Element '${xsdWrapperElement}'`, 'Top level of the body')
      .replaceAll(xsdWrapperElement, '(end of body)');
    messages.push(`line ${m[1]}: ${text}`);
  }
  if (messages.length > maxErrors) {
    const more = messages.length - maxErrors;
    messages.length = maxErrors;
    messages.push(`... and ${more} more`);
  }
  return messages;
}

/** Runs one schema; throws XsdSchemaError when the schema, not the body, is at fault. */
async function check(kind: XmlBodyKind, xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const { schema } = xmlBodyKindInfo[kind];
  const run = await getRunner().run(schema, bodyFileName, xml);
  if (run.exitCode === 0) return { valid: true, errors: [] };
  const errors = toMessages(run.stderr);
  // xmllint exit codes: 1 to 4 = the document did not parse or did not validate; 5 = the schema did not compile.
  if (run.exitCode >= 1 && run.exitCode <= 4 && errors.length > 0) return { valid: false, errors };
  throw new XsdSchemaError(`xmllint could not validate against ${schema} (exit ${run.exitCode}): ${run.stderr.trim()}`);
}

/** The `<res>` elements directly under a top-level `<data>`. */
function resultElements(outline: XmlOutline | undefined) {
  return (outline?.roots ?? [])
    .filter((r) => r.name === 'data')
    .flatMap((d) => d.children.filter((c) => c.name === 'res'));
}

/** portal-action-api.md §7: an `<error>` element, or a non-empty errstr on `<res>`. */
function reportsFailure(outline: XmlOutline | undefined): boolean {
  if (outline?.roots.some((r) => r.name === 'error')) return true;
  return resultElements(outline).some((res) => (res.attributes.errstr ?? '') !== '');
}

/** `<data>` holds exactly one `<res>` with a non-empty errstr: the operation result of a failure. */
function isFailureResult(outline: XmlOutline | undefined): boolean {
  const data = outline?.roots.filter((r) => r.name === 'data') ?? [];
  const only = data.length === 1 && data[0]!.children.length === 1 ? data[0]!.children[0] : undefined;
  return only?.name === 'res' && (only.attributes.errstr ?? '') !== '';
}

/**
 * Validates an XML body against the schema of `kind` (specs/xsd/<kind>.xsd) with libxml2.
 * Response bodies may carry `<error>`/`<message>` elements around `<data>`, or consist of them alone. For a
 * portal kind, a failure answer `<data><res errstr="text"/></data>` is accepted in place of the success shape
 * (portal-action-api.md §1, §7); `failure` and `checkedAs` say so.
 */
export async function validateXml(body: string, kind: XmlBodyKind): Promise<XmlValidationResult> {
  if (!isXmlBodyKind(kind)) throw new TypeError(`validateXml: unknown XML body kind "${String(kind)}"`);
  const text = body.startsWith('\uFEFF') ? body.slice(1) : body;
  const outline = outlineXml(text);
  const roots = outline?.roots.map((r) => r.name) ?? [];
  const failure = reportsFailure(outline);
  if (text.trim() === '') {
    return {
      valid: false,
      errors: ['line 1: the body is empty; expected an XML document'],
      roots,
      failure,
      checkedAs: kind,
    };
  }
  const info = xmlBodyKindInfo[kind];
  const result = await check(kind, prepare(text, outline, info.response));
  if (!result.valid && info.portalFailureMayReplace && isFailureResult(outline)) {
    const asFailure = await check('portal-result', prepare(text, outline, true));
    if (asFailure.valid) return { valid: true, errors: [], roots, failure: true, checkedAs: 'portal-result' };
  }
  return { ...result, roots, failure, checkedAs: kind };
}
