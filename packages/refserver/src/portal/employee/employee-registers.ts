import type { RegisterInput } from '../../schema/register-schema.js';

/**
 * The employee-portal registers part B adds (README "Portal action API", "Portal registers"). The docs
 * show no field lists ("not shown beyond the fields named in this document", portal-action-api.md §2), so
 * each field is one a doc line names ("(catalogue)" = §2 "Field-trigger catalogue") or is marked
 * `erpcert:` where the reference server needs it (a key, a date, a state, what getvacationbalance and
 * getemptimeplan read). The `lat` registers mirror the `est` ones of the record REST API (EmplVc, ContractVc,
 * AbsenceVc).
 */

/** EPEmpVc (lat), employees. */
const EPEmpVc: RegisterInput = {
  name: 'EPEmpVc',
  meaning: 'employees (lat)',
  key: ['Code'],
  fields: [
    'Code', // erpcert: the key, like EmplVc Code
    'Firstname', // erpcert: as EmplVc
    'Surname', // erpcert: as EmplVc
    'IDCode', // erpcert: the personal code, as EmplVc
    'Mail', // erpcert: as EmplVc
    'UserCode', // erpcert: as EmplVc
    // EPEmpVc (lat) H (catalogue)
    'StrCode',
    'MarriageDate',
    'BirthDate',
    'TaxGroup',
  ],
  // EPEmpVc R: TaxGroupRow (catalogue); SDate, EDate erpcert (validity, as EmplVc rows)
  rowFields: ['TaxGroupRow', 'SDate', 'EDate'],
};

/** EPContractVc (lat), employment contracts (createsigningactivity, §2 "Registers per operation"). */
const EPContractVc: RegisterInput = {
  name: 'EPContractVc',
  meaning: 'employment contracts (lat)',
  key: ['SerNr'],
  // every field erpcert, after ContractVc (record-rest-api.md §2): SerNr, EmplCode, StartDate, EndDate,
  // VacDaysNorm, Status; EmpCode named like EPOffWorkVc's "EmpCode"
  fields: ['SerNr', 'EmpCode', 'StartDate', 'EndDate', 'VacDaysNorm', 'Position', 'WorkLoad', 'Status', 'OKFlag'],
};

/** EPTS2Vc (lat), timesheets (createsigningactivity). Every field erpcert. */
const EPTS2Vc: RegisterInput = {
  name: 'EPTS2Vc',
  meaning: 'timesheets (lat)',
  key: ['SerNr'],
  fields: ['SerNr', 'EmpCode', 'Year', 'Month', 'HoursTotal', 'OKFlag'],
  rowFields: ['Date', 'Hours', 'Comment'],
};

/** EPOffWorkVc (lat), absences. */
const EPOffWorkVc: RegisterInput = {
  name: 'EPOffWorkVc',
  meaning: 'absences (lat)',
  key: ['SerNr'],
  fields: [
    'SerNr', // erpcert: the key
    // EPOffWorkVc (lat, H) (catalogue)
    'EmpCode',
    'ContractNr',
    'Group',
    'StartDate',
    'EndDate',
    'CalendarDays', // erpcert: computed from StartDate/EndDate, as AbsenceVc CalendarDays
    'OKFlag', // erpcert: only confirmed absences count in getvacationbalance
  ],
};

/** EPOffWorkPlanVc (lat), planned absences. */
const EPOffWorkPlanVc: RegisterInput = {
  name: 'EPOffWorkPlanVc',
  meaning: 'planned absences (lat)',
  key: ['SerNr'],
  // EmpCode, ContractNr (catalogue); SerNr, Group, StartDate, EndDate, OKFlag erpcert (a plan needs dates)
  fields: ['SerNr', 'EmpCode', 'ContractNr', 'Group', 'StartDate', 'EndDate', 'OKFlag'],
};

/** Every register part B defines, in creation order. */
export const employeeRegisters: readonly RegisterInput[] = [
  EPEmpVc,
  EPContractVc,
  EPTS2Vc,
  EPOffWorkVc,
  EPOffWorkPlanVc,
];
