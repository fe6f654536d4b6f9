/**
 * The cheap check every response gets in k6, instead of a parse: the status, the `Sequence` header of a REST
 * answer (record-rest-api.md §4 rule 6: "Every response carries a sequence value") and a bounded look into the
 * first LOOK_CHARS characters for `<error` and a non-empty `errstr` (DESIGN.md: errors come with HTTP 200, before
 * `<data>`). The full checks (fast-xml-parser) run on every n-th iteration only: ERPCERT_FULL_CHECK_EVERY.
 */
import exec from 'k6/execution';
import type { RunSettings } from './env.ts';
import { bodyText, sequenceHeader, type TextResponse } from './erp.ts';

/** Characters of a body the cheap check looks into. */
export const LOOK_CHARS = 2048;

/** Why the response fails the cheap check, or undefined when it passes. */
export function quickProblem(response: TextResponse, rest: boolean): string | undefined {
  if (response.status < 200 || response.status > 299) return `HTTP ${response.status}`;
  if (rest && sequenceHeader(response) === undefined) return 'no numeric Sequence header';
  const body = bodyText(response);
  const head = body.length > LOOK_CHARS ? body.slice(0, LOOK_CHARS) : body;
  if (head.includes('<error')) return 'an <error> element';
  const errstr = head.indexOf('errstr="');
  if (errstr >= 0 && head.charAt(errstr + 8) !== '"') return 'a non-empty errstr';
  return undefined;
}

/** Whether this iteration gets the full checks (every n-th iteration of the test, the first included). */
export function fullCheckNow(settings: RunSettings): boolean {
  return exec.scenario.iterationInTest % settings.fullCheckEvery === 0;
}
