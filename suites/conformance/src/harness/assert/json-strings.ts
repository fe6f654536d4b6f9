/**
 * Shape first (issue 9 "A precondition is not a verdict"): a check that compares values reads them as strings,
 * so a JSON answer with numbers or booleans where the docs give strings (record-rest-api.md §2: "values are
 * strings") breaks REST.RECORD.STRING_VALUES, checked here before the behaviour check, and no other rule.
 */
import type { RestEnvelope } from '@erpcert/client';
import type { AnyRecord } from '../records.js';
import { rawJson } from './envelope.js';
import { assertStringValues } from './record-shape.js';

/** Every record of a JSON answer, as sent, holds only string (or null) values; XML answers pass. */
export function assertJsonStrings(register: string, env: RestEnvelope<string>): void {
  if (env.format !== 'json') return;
  const list = (rawJson(env) as { data?: Record<string, unknown> } | undefined)?.data?.[register];
  if (!Array.isArray(list)) return;
  for (const r of list) if (r !== null && typeof r === 'object') assertStringValues(register, r as AnyRecord);
}
