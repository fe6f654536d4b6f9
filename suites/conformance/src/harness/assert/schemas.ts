/**
 * "Every XML body validates against its XSD and every JSON body against its schema" (issue 5
 * "Representation"): the XSDs of specs/xsd/ and the JSON schemas of the OpenAPI specs, through
 * `@erpcert/contract`.
 */
import {
  blameJsonFailure,
  blameXmlFailure,
  getRegister,
  loadSpec,
  type OpenApiDocument,
  type SpecName,
  validateJsonBody,
  validateXml,
  type XmlBodyKind,
} from '@erpcert/contract';
import { expectRule, show } from '../violation.js';

/**
 * The body validates against `specs/xsd/<kind>.xsd`; otherwise a ContractViolation quoting libxml2's first
 * messages, blamed by path (issue 18): on the rule whose `covers:` owns the failing element or attribute, and on
 * `rule` (the rule of the whole body) only when the failure is the body's own or names no owned part.
 */
export async function assertXmlValid(body: string, kind: XmlBodyKind, rule: string): Promise<void> {
  const result = await validateXml(body, kind);
  const blamed = result.valid ? rule : blameXmlFailure(body, result.checkedAs, result.errors, rule);
  expectRule(
    result.valid,
    blamed,
    () => `the XML body does not validate against ${result.checkedAs}.xsd: ${result.errors.slice(0, 3).join('; ')}`,
  );
}

const specs = new Map<string, OpenApiDocument>();

/** The spec, parsed once per worker (the REST spec takes a second or two to parse). */
function spec(name: SpecName): OpenApiDocument {
  let s = specs.get(name);
  if (!s) {
    s = loadSpec(name);
    specs.set(name, s);
  }
  return s;
}

/** Where a JSON body's schema is: a spec and a component schema name or a `#/...` pointer. */
export interface JsonSchemaRef {
  /** @defaultValue 'record-rest' */
  readonly spec?: SpecName;
  readonly schema: string;
}

/**
 * The JSON value validates against the schema; otherwise a ContractViolation with ajv's messages, blamed by path
 * like {@link assertXmlValid}: on the owner of the failing member, on `rule` for a failure of the body itself.
 */
export function assertJsonValid(value: unknown, ref: JsonSchemaRef, rule: string): void {
  const result = validateJsonBody(spec(ref.spec ?? 'record-rest'), ref.schema, value);
  const blamed = result.valid ? rule : blameJsonFailure(ref.schema, result.issues ?? [], rule, value);
  expectRule(
    result.valid,
    blamed,
    () =>
      `the JSON body does not validate against ${ref.schema}: ${result.errors.slice(0, 3).join('; ')} in ${show(value, 200)}`,
  );
}

/** True when the JSON value validates against the schema; observes no rule (a pick, not a check). */
export function jsonBodyValid(value: unknown, ref: JsonSchemaRef): boolean {
  return validateJsonBody(spec(ref.spec ?? 'record-rest'), ref.schema, value).valid;
}

/** The JSON envelope schema of a REST register: `<Register>Envelope` for the table's registers, else `Envelope`. */
export function restEnvelopeSchema(register: string): string {
  return getRegister(register) ? `${register}Envelope` : 'Envelope';
}
