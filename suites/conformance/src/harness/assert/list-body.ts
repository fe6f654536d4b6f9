/**
 * Every REST list body the suite reads validates (issue 18 "Every member, every run"; record-rest-api.md §2
 * "Envelope (JSON)", §4 "List records ... envelope with record array"): XML against rest-envelope.xsd, JSON
 * against `<Register>Envelope`. A failure is blamed by path (contract schema-blame.ts): on the rule that owns
 * the broken part, on REST.QUERY.LIST_RECORDS only for the envelope itself.
 */
import { isErpClientError, type RestEnvelope } from '@erpcert/client';
import { getRegister } from '@erpcert/contract';
import { isTargetFault } from '../target-fault.js';
import { ContractViolation } from '../violation.js';
import { rawJson } from './envelope.js';
import { assertJsonValid, assertXmlValid, jsonBodyValid, restEnvelopeSchema } from './schemas.js';

/** The rule of the whole list body (the container): a failure no owned path names is its. */
export const LIST_BODY_RULE = 'REST.QUERY.LIST_RECORDS';

/** True when the answer has a body to validate: a 204 or an empty body is judged by the rules of those. */
function hasBody(env: RestEnvelope<string>): boolean {
  return env.raw.status !== 204 && env.raw.text.trim() !== '';
}

/**
 * A JSON list body of a register of the table validates against its envelope schema; else a ContractViolation of
 * the owner of the failing path. Synchronous (ajv): cheap enough for every read.
 */
export function assertJsonListBody(register: string, env: RestEnvelope<string>): void {
  if (env.format !== 'json' || !hasBody(env) || getRegister(register) === undefined) return;
  assertJsonValid(rawJson(env), { schema: restEnvelopeSchema(register) }, LIST_BODY_RULE);
}

/** True when a JSON list body is no broken envelope (what {@link assertJsonListBody} passes); observes nothing. */
export function jsonListBodyValid(register: string, env: RestEnvelope<string>): boolean {
  if (env.format !== 'json' || !hasBody(env) || getRegister(register) === undefined) return true;
  try {
    return jsonBodyValid(JSON.parse(env.raw.text), { schema: restEnvelopeSchema(register) });
  } catch {
    return false;
  }
}

/** A list body of a register of the table, XML or JSON, validates; else a ContractViolation blamed by path. */
export async function assertListBody(register: string, env: RestEnvelope<string>): Promise<void> {
  if (!hasBody(env) || getRegister(register) === undefined) return;
  if (env.format === 'json') assertJsonListBody(register, env);
  else await assertXmlValid(env.raw.text, 'rest-envelope', LIST_BODY_RULE);
}

/** A violation's rule, read by name and shape (module copies under vitest make `instanceof` unreliable). */
export function violationOf(err: unknown): (Error & { rule: string }) | undefined {
  if (!(err instanceof Error) || (err.name !== 'ContractViolation' && err.name !== 'PreconditionFailed'))
    return undefined;
  return typeof (err as { rule?: unknown }).rule === 'string' ? (err as Error & { rule: string }) : undefined;
}

/** The violation of {@link assertListBody}, returned instead of thrown (undefined: the body validates). */
export async function listBodyViolation(
  register: string,
  env: RestEnvelope<string>,
): Promise<(Error & { rule: string }) | undefined> {
  try {
    await assertListBody(register, env);
    return undefined;
  } catch (err) {
    const v = violationOf(err);
    if (v) return v;
    throw err;
  }
}

/**
 * The violation a list read's decode error shows, when the body parsed but its envelope has a shape the client
 * cannot read (`"data"` null or not an object, a record that is not an object): the body, as recorded, is
 * validated and blamed by path; a body the exchange holds only in part is the envelope's (LIST_RECORDS).
 * Undefined for any other error (a refusal, a fault of the target: a body that does not parse).
 */
export function decodeViolation(register: string, err: unknown): (Error & { rule: string }) | undefined {
  if (!isErpClientError(err) || err.kind !== 'decode' || isTargetFault(err) || getRegister(register) === undefined)
    return undefined;
  const body = err.exchange?.response?.body;
  if (body && !body.truncated && body.encoding !== 'base64' && body.text.trimStart().startsWith('{')) {
    try {
      assertJsonValid(JSON.parse(body.text), { schema: restEnvelopeSchema(register) }, LIST_BODY_RULE);
    } catch (e) {
      const v = violationOf(e);
      if (v) return v;
    }
  }
  return new ContractViolation(LIST_BODY_RULE, err.message.split('\n')[0] ?? err.message);
}
