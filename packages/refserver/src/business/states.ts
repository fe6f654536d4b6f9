import type { RegisterSchema } from '../schema/register-schema.js';
import type { Draft } from './draft.js';

/**
 * Enumerated fields get a value of their set from creation, whatever the write left empty (issue 9 "The
 * reference server"): a JSON POST, which has no auto-fill (record-rest-api.md §4 rule 2), must not store a state
 * outside the documented ones. Each entry gives the value a new record takes when the field is empty:
 * - `OKFlag` 0, draft (§3 "OKFlag 0 means draft and 1 means confirmed");
 * - row `stp` 1, a normal row (§2 "Row types": 1 normal, 2 text, 3 credit);
 * - the signing session's `Status` and its rows' `SignStatus` 0 (waiting, README "Signing");
 * - CUVc `CustType` (observed: 0 customer, 1 vendor, 2 both) from the documented CUType and VEType flags.
 * The approval status is no field: it is computed from the approval tables and is always one of 0 to 5.
 */
const HEADER: Readonly<Record<string, string>> = { OKFlag: '0' };
const ROWS: Readonly<Record<string, string>> = { stp: '1' };
const BY_REGISTER: Readonly<Record<string, { header?: Record<string, string>; rows?: Record<string, string> }>> = {
  ErpSignSessVc: { header: { Status: '0' }, rows: { SignStatus: '0' } },
};

/** The CUVc contact type of a contact's flags: 2 both, 1 vendor, 0 customer (issue 10 evidence). */
export function custTypeOf(fields: Readonly<Record<string, string>>): string {
  const customer = fields.CUType === '1';
  const vendor = fields.VEType === '1';
  return customer && vendor ? '2' : vendor ? '1' : '0';
}

/** The defaults that apply to one register, worked out once per schema (every write calls this). */
const plans = new WeakMap<RegisterSchema, { header: [string, string][]; rows: [string, string][] }>();

function planOf(schema: RegisterSchema): { header: [string, string][]; rows: [string, string][] } {
  let plan = plans.get(schema);
  if (!plan) {
    const own = BY_REGISTER[schema.name];
    plan = {
      header: Object.entries({ ...HEADER, ...own?.header }).filter(([f]) => schema.fields.includes(f)),
      rows: Object.entries({ ...ROWS, ...own?.rows }).filter(([f]) => schema.rowFields.includes(f)),
    };
    plans.set(schema, plan);
  }
  return plan;
}

/** Fills every empty enumerated field of a new record with its default (see above). */
export function applyStateDefaults(schema: RegisterSchema, d: Draft): void {
  const plan = planOf(schema);
  for (const [f, v] of plan.header) if ((d.fields[f] ?? '') === '') d.fields[f] = v;
  if (schema.name === 'CUVc' && d.fields.CustType === '') d.fields.CustType = custTypeOf(d.fields);
  if (plan.rows.length === 0) return;
  for (const r of d.rows) for (const [f, v] of plan.rows) if ((r[f] ?? '') === '') r[f] = v;
}
