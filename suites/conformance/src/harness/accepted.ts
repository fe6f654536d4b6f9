/**
 * A refusal is a FAIL of the rule that allows the request (DESIGN.md "Verdicts and exit codes", issue 28): a
 * documented error answer (an `<error>` element, a non-empty `errstr`, a JSON error) or a 4xx to a request that
 * the docs say is accepted breaks the rule that says so, with the exchange as evidence. Tests name that rule
 * where they send the request: `await accepted('REST.WRITE.CREATE_FORM', call, 'form POST of IVVc')`, or
 * through the data helpers (`createForm` names REST.WRITE.CREATE_FORM, `deleteRecord` PORTAL.DELETE.REGISTERS,
 * both overridable). A fixture or precondition request refused this way FAILs its own allowing rule, not the
 * rule of the test that sent it.
 *
 * What stays ERROR: a 5xx, no answer, a body that does not parse (target-fault.ts: never a refusal), and a
 * refusal of a request no test declared accepted, which is one whose acceptance the docs leave open (a JSON POST
 * of an invoice: "All required values must be supplied", which values is not shown).
 */
import { type ErpClientError, ErpError, isErpClientError } from '@erpcert/client';
import { observe } from './observations.js';
import { isTargetFault } from './target-fault.js';
import { ContractViolation, requireRule, show } from './violation.js';

/** The target refused a request the docs say is accepted: a FAIL of the rule that allows it. */
export class RequestRefused extends ContractViolation {
  override readonly name = 'RequestRefused';
}

/**
 * True when the target answered "no" (an ERP error document or a 4xx), as opposed to a fault (5xx, no answer, a
 * body that does not parse) or a defect of the suite (a bad configuration).
 */
export function isRefusalAnswer(err: unknown): err is ErpClientError {
  return isErpClientError(err) && (err.kind === 'erp' || err.kind === 'http-status') && !isTargetFault(err);
}

/** One line saying how the target refused. */
export function describeRefusal(err: ErpClientError): string {
  const status = err.status !== undefined ? `HTTP ${err.status}, ` : '';
  if (err instanceof ErpError) return `${status}an error (${err.source}): ${show(err.description, 200)}`;
  return `${status}${show(err.message.split('\n')[0], 200)}`;
}

/** The violation of `rule` a refusal of a documented-accepted request is. */
export function refusedViolation(rule: string, what: string, err: ErpClientError): RequestRefused {
  observe(rule, 1, { decisive: true });
  return new RequestRefused(
    rule,
    `${what}: the docs accept this request; the target refused it: ${describeRefusal(err)}`,
  );
}

/**
 * Runs `call`, a request the docs say is accepted by `rule`: a refusal of it throws a {@link RequestRefused} of
 * `rule` (a FAIL with the exchange, which the recorder holds); faults and anything else pass through. A success
 * counts no observation: acceptance alone is not what the rule's check judges.
 */
export async function accepted<T>(rule: string, call: Promise<T> | (() => Promise<T>), what: string): Promise<T> {
  requireRule(rule);
  try {
    return await (typeof call === 'function' ? call() : call);
  } catch (err) {
    if (isRefusalAnswer(err)) throw refusedViolation(rule, what, err);
    throw err;
  }
}
