import { loadSpec, validateJsonBody } from '@erpcert/contract';
import { expect } from 'vitest';
import type { App } from '../../../app-types.js';
import { portal } from '../../testing/portal-client.js';

/** Helpers of the windowactions tests: requests, answers checked against the spec, body builders. */
const spec = loadSpec('portal-action');

export type Body = Record<string, unknown>;
export type Answer = {
  success: boolean;
  res: boolean;
  messages: { description: string }[];
  record: Record<string, string> & { rows: Record<string, string>[] };
};

/** POSTs a field trigger (plain JSON), checks the answer against the spec's response schema. */
/** POSTs a field trigger (plain JSON); the answer must match the spec's response schema. */
export async function trigger(a: App, body: Body, query: Record<string, string> = {}): Promise<Answer> {
  const res = await portal(a, { action: 'windowactions', ...query }, { json: body, method: 'POST' });
  expect(res.status).toBe(200);
  expect(res.headers['Content-Type']).toBe('application/json; charset=utf-8');
  const json = JSON.parse(res.text) as Answer;
  expect(validateJsonBody(spec, 'PortalFieldTriggerResponse', json).errors).toEqual([]);
  return json;
}
/** POSTs a field trigger that must fail; answers the failure text. */
export const failure = async (a: App, body: Body | string, query: Record<string, string> = {}) => {
  const res = await portal(
    a,
    { action: 'windowactions', ...query },
    typeof body === 'string' ? { body, method: 'POST' } : { json: body, method: 'POST' },
  );
  const json = JSON.parse(res.text);
  expect(json.success).toBe(false);
  expect(json.res).toBe(false);
  return json.messages[0].description as string;
};
export const warnings = (r: Answer) => r.messages.map((m) => m.description);

export const row = (fields: Record<string, string>) => ({ stp: '1', ...fields });
export const i1 = row({ ArtCode: 'I1', Quant: '2', Price: '10.00', Sum: '20.00', VATCode: '1' });
export const head = (
  vcname: string,
  fieldname: string,
  value: string,
  header: Body = {},
  rows: Body[] = [],
  rowindex = -1,
) => ({
  vcname,
  fieldname,
  value,
  rowindex,
  values: { header: { ...header, [fieldname]: value }, rows },
});
export const rowTrigger = (
  vcname: string,
  fieldname: string,
  value: string,
  rows: Body[],
  rowindex = 0,
  header: Body = {},
) => ({
  vcname,
  fieldname,
  value,
  rowindex,
  values: { header, rows },
});
