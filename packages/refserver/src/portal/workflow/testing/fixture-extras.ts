import type { RecordStore } from '../../../store/record-store.js';
import { setSetting } from '../../settings.js';
import { drawerSetting } from '../../triggers/effects-sales.js';
import { addRecipe } from '../workflow-config.js';

/**
 * Data for the field-trigger and employee-portal tests (loaded by loadWorkflowFixture), hand-written so that
 * expected values come from here:
 *
 * - quantity scale StaffVc QTY (Lim1 10, Lim2 20); discount matrices RebVc SPRING (QTY, 5 %, 2025) and OLD
 *   (QTY, 5 %, 2024 only); delivery address DelAddrVc C1/D1 (DelCountry FI); recipe KIT (2 x I1, 1 x I2);
 *   machine POS1 -> drawer DRAWER-A;
 * - est: employee E1 (Mari Maasikas, IDCode 37605030299, user JD), contract ContractVc 10000901 (from
 *   2024-01-01, VacDaysNorm 28, WorkLoad 1), absences AbsenceVc 10000911 VAC 2025-02-03..07 (5 days),
 *   10000912 SICK 2025-03-03..04, 10000913 VAC 2024-12-30..2025-01-03 (2 days in 2024, 3 in 2025),
 *   10000914 VAC 2025-04-01..02 unconfirmed; planned absence PlanAbsenceVc 10000921 VAC 2025-06-02..13;
 * - lat: employee EPEmpVc L001 (Janis Berzins, user REP), contract EPContractVc 10000801 (from 2024-01-01,
 *   20 days; the workflow fixture), absence EPOffWorkVc 10000931 VAC 2025-02-10..14, planned
 *   EPOffWorkPlanVc 10000941 VAC 2025-07-01..05.
 */
export const EMP = {
  est: 'E1',
  estContract: '10000901',
  lat: 'L001',
} as const;

export function loadFixtureExtras(store: RecordStore, company: number): void {
  const add = (register: string, fields: Record<string, string>, rows: Record<string, string>[] = []) =>
    store.insert(register, company, { fields, rows });
  add('StaffVc', { Code: 'QTY', Comment: 'Quantity scale', Lim1: '10', Lim2: '20' });
  add('RebVc', { Code: 'SPRING', StaffCode: 'QTY', DiscPerc: '5', FromDate: '2025-01-01', ToDate: '2025-12-31' });
  add('RebVc', { Code: 'OLD', StaffCode: 'QTY', DiscPerc: '5', FromDate: '2024-01-01', ToDate: '2024-12-31' });
  add('DelAddrVc', { CustCode: 'C1', DelCode: 'D1', Name: 'Alpha warehouse', DelCountry: 'FI' });
  addRecipe(store, company, 'KIT', [
    ['I1', '2'],
    ['I2', '1'],
  ]);
  setSetting(store, company, drawerSetting('POS1'), 'DRAWER-A');

  add('EmplVc', {
    Code: EMP.est,
    Firstname: 'Mari',
    Surname: 'Maasikas',
    IDCode: '37605030299',
    BirthDate: '1976-05-03',
    Mail: 'mari@example.com',
    UserCode: 'JD',
    LangCode: 'EST',
  });
  add(
    'ContractVc',
    { SerNr: EMP.estContract, EmplCode: EMP.est, StartDate: '2024-01-01', VacDaysNorm: '28', Status: '1' },
    [{ PosCode: 'DEV', SDate: '2024-01-01', WorkLoad: '1', PaymTypeCode: 'SAL', Sum: '3000.00' }],
  );
  const absence = (serNr: string, type: string, start: string, end: string, ok: string, rows: string[][]) =>
    add(
      'AbsenceVc',
      {
        SerNr: serNr,
        ContrSerNr: EMP.estContract,
        EmplCode: EMP.est,
        StartDate: start,
        EndDate: end,
        AbsTypeCode: type,
        OKFlag: ok,
      },
      rows.map(([Year, SDate, EDate, Days]) => ({ Year: Year!, SDate: SDate!, EDate: EDate!, Days: Days! })),
    );
  absence('10000911', 'VAC', '2025-02-03', '2025-02-07', '1', [['2025', '2025-02-03', '2025-02-07', '5']]);
  absence('10000912', 'SICK', '2025-03-03', '2025-03-04', '1', [['2025', '2025-03-03', '2025-03-04', '2']]);
  absence('10000913', 'VAC', '2024-12-30', '2025-01-03', '1', [
    ['2024', '2024-12-30', '2024-12-31', '2'],
    ['2025', '2025-01-01', '2025-01-03', '3'],
  ]);
  absence('10000914', 'VAC', '2025-04-01', '2025-04-02', '0', [['2025', '2025-04-01', '2025-04-02', '2']]);
  add('PlanAbsenceVc', {
    SerNr: '10000921',
    EmplCode: EMP.est,
    ContrSerNr: EMP.estContract,
    StartDate1: '2025-06-02',
    EndDate1: '2025-06-13',
    AbsTypeCode: 'VAC',
    OKFlag: '1',
  });

  add('EPEmpVc', { Code: EMP.lat, Firstname: 'Janis', Surname: 'Berzins', IDCode: '010190-12345', UserCode: 'REP' });
  add('EPOffWorkVc', {
    SerNr: '10000931',
    EmpCode: EMP.lat,
    ContractNr: '10000801',
    Group: 'VAC',
    StartDate: '2025-02-10',
    EndDate: '2025-02-14',
    CalendarDays: '5',
    OKFlag: '1',
  });
  add('EPOffWorkPlanVc', {
    SerNr: '10000941',
    EmpCode: EMP.lat,
    ContractNr: '10000801',
    Group: 'VAC',
    StartDate: '2025-07-01',
    EndDate: '2025-07-05',
    OKFlag: '1',
  });
}
