/**
 * Outcomes of portal calls for the portal properties (portal-action-api.md §1, §7): a call either succeeded
 * or the target answered a failure, and a property decides what that means. Transport and configuration
 * errors are never outcomes: they end the test (the target is gone, or the suite is wrong).
 */
import {
  type ErpClientError,
  ErpError,
  isErpClientError,
  parseXmlBody,
  type RawResponse,
  type XmlElement,
} from '@erpcert/client';
import { coverIndex, portalSuccessKind, rules, type XmlBodyKind } from '@erpcert/contract';
import { assertXmlValid } from './assert/schemas.js';
import type { RuleContext } from './rule-test.js';
import { isTargetFault } from './target-fault.js';
import { expectRule, show } from './violation.js';

/** What one call came to: its value, or the error the client decoded from the target's answer. */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ErpClientError };

let owners: ReturnType<typeof coverIndex> | undefined;

/**
 * A body the client could not decode is held to the shape the docs give the request's success (issue 18 "Blame
 * by path"): when it fails that XSD, the rule that owns the failing part FAILs (a `<data>` without `<res>`:
 * PORTAL.DISPATCH.OPERATION_RESULT), not the rule of the operation a test then finds "not a success".
 */
async function blameUndecodable(err: ErpClientError): Promise<void> {
  const exchange = err.exchange;
  const body = exchange?.response?.body;
  if (err.kind !== 'decode' || !exchange || !body || body.truncated || body.encoding === 'base64') return;
  let kind: XmlBodyKind | undefined;
  try {
    kind = portalSuccessKind(new URL(exchange.request.url).searchParams);
  } catch {
    return;
  }
  if (kind === undefined || !/^\s*</.test(body.text)) return;
  owners ??= coverIndex(rules);
  const container = owners.owners(`${kind}:data`).element;
  if (container !== undefined) await assertXmlValid(body.text, kind, container);
}

/** Runs a call and keeps a target-side failure (ErpError, HttpStatusError, DecodeError) as a value. */
export async function attempt<T>(call: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call };
  } catch (err) {
    if (!isErpClientError(err) || err.kind === 'config' || isTargetFault(err)) throw err;
    await blameUndecodable(err);
    return { ok: false, error: err };
  }
}

/** The failure text of an outcome: the errstr / `<error description>`, else the client's message. */
export function failureText(outcome: Outcome<unknown>): string {
  if (outcome.ok) return '';
  return outcome.error instanceof ErpError ? outcome.error.description : outcome.error.message.split('\n')[0]!;
}

/** One line saying what came back, for violation messages. */
export function describeOutcome(outcome: Outcome<unknown>): string {
  if (outcome.ok) return 'a success';
  const e = outcome.error;
  if (e instanceof ErpError) return `an error (${e.source}): ${show(e.description, 160)}`;
  return `${e.kind}${e.status !== undefined ? ` HTTP ${e.status}` : ''}: ${show(e.message.split('\n')[0], 160)}`;
}

/**
 * The call failed with the documented error shape (§7 "Errors appear as an `<error>` element or as a
 * non-empty errstr attribute of `<res>`"), naming `rule` on anything else: a success, or a failure told only
 * by an HTTP status (status codes are not shown, so a status alone is not the documented shape).
 */
export function expectErrorShape(outcome: Outcome<unknown>, rule: string, what: string): ErpError {
  expectRule(
    !outcome.ok && outcome.error instanceof ErpError,
    rule,
    () => `${what}: expected an <error> element or a non-empty errstr, got ${describeOutcome(outcome)}`,
  );
  return (outcome as { error: unknown }).error as ErpError;
}

/**
 * The `*REGISTERS` rule that lists the record register of the request for its operation (PORTAL.DELETE.REGISTERS
 * for a delete of ORVc), when the target refused it with the documented failure shape; else undefined.
 */
export function servedRegisterRule(outcome: Outcome<unknown>): string | undefined {
  if (outcome.ok || !(outcome.error instanceof ErpError)) return undefined;
  const url = outcome.error.exchange?.request.url;
  const u = url === undefined ? undefined : new URL(url);
  if (!u?.pathname.endsWith('.hal')) return undefined;
  const q = u.searchParams;
  const action = q.get('action');
  const operation = action === null ? 'list' : action === 'action' ? q.get('register') : action;
  const register = action === null ? q.get('register') : action === 'action' ? q.get('regname') : q.get('register');
  if (operation === null || register === null) return undefined;
  return rules.find(
    (r) =>
      r.api === 'PORTAL' &&
      /REGISTERS$/.test(r.id) &&
      r.standing !== 'unspecified' &&
      r.appliesTo?.includes(operation) &&
      r.registers?.includes(register),
  )?.id;
}

/**
 * FAILs the `*REGISTERS` rule when `outcome` is a refusal of a register the docs list for the operation. For a
 * plain read or call (no parameter of its own that could be what the target refused).
 */
export function blameRefusedRegister(outcome: Outcome<unknown>, what: string): void {
  const served = servedRegisterRule(outcome);
  if (served !== undefined)
    expectRule(
      false,
      served,
      () => `${what}: a register the docs list for it was refused: ${describeOutcome(outcome)}`,
    );
}

/**
 * The call succeeded; otherwise a violation of `rule` quoting what came back. A refusal of a register the docs
 * list for the operation is blamed on the rule that lists it (issue 18: the member whose behaviour broke), not
 * on `rule`, whose effect could not happen without it.
 */
export function expectSuccess<T>(outcome: Outcome<T>, rule: string, what: string): T {
  const served = servedRegisterRule(outcome);
  if (served !== undefined && served !== rule)
    expectRule(
      false,
      served,
      () => `${what}: a register the docs list for it was refused: ${describeOutcome(outcome)}`,
    );
  expectRule(outcome.ok, rule, () => `${what}: expected a success, got ${describeOutcome(outcome)}`);
  return (outcome as { value: T }).value;
}

/** The top-level elements of an XML body (`data`, `error`, ...), or undefined when it is not XML. */
export function xmlTop(raw: RawResponse): XmlElement | undefined {
  try {
    return parseXmlBody(raw.text);
  } catch {
    return undefined;
  }
}

/** The names of the child elements of `<data>` (attributes and text left out), in document order. */
export function dataChildNames(raw: RawResponse): string[] {
  const data = xmlTop(raw)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  return Object.keys(data).filter((k) => !k.startsWith('@') && k !== '#text');
}

/** The JSON body of an answer, or undefined when it is not JSON. */
export function jsonBody(raw: RawResponse): unknown {
  try {
    return JSON.parse(raw.text);
  } catch {
    return undefined;
  }
}

/** XSD validations per test and body kind: libxml2 in WebAssembly takes 50-100 ms a body. @defaultValue 2 */
export const XSD_SAMPLES_PER_TEST = 2;
const validated = new Map<string, number>();
/** Keys whose body failed its XSD once: validated every time after (fast-check's shrinking replays the run). */
const invalid = new Set<string>();

/**
 * The body validates against `specs/xsd/<kind>.xsd` (violation of `rule` otherwise), for the first
 * {@link XSD_SAMPLES_PER_TEST} bodies of each kind (and `variant`, e.g. the register) in a test; later
 * bodies of the same test are left to the test's own checks of the same shape, which keeps runs fast. Once a
 * body of a kind has failed, every later body of that kind in the test is validated: the runs fast-check
 * replays while it shrinks a failure must meet the same check, or the shrunk failure would name whichever
 * later check the broken body trips (a list entry without its filename FAILs "listed after upload" instead
 * of the list's shape).
 */
export async function assertPortalXml(
  ctx: Pick<RuleContext, 'name'>,
  body: string,
  kind: XmlBodyKind,
  rule: string,
  variant = '',
): Promise<void> {
  const key = `${ctx.name}\u0000${kind}\u0000${variant}`;
  const n = validated.get(key) ?? 0;
  if (n >= XSD_SAMPLES_PER_TEST && !invalid.has(key)) return;
  validated.set(key, n + 1);
  try {
    await assertXmlValid(body, kind, rule);
  } catch (err) {
    invalid.add(key);
    throw err;
  }
}

/** The body text of an outcome: the answer of a success, the recorded response body of a failure. */
export function bodyText(outcome: Outcome<{ readonly raw: RawResponse }>): string {
  if (outcome.ok) return outcome.value.raw.text;
  return outcome.error.exchange?.response?.body?.text ?? '';
}
