import { PortalError } from './portal-error.js';

/** A register of the table, with the country a field-trigger register needs (`EmplVc (est)`). */
export interface OperationRegister {
  readonly name: string;
  readonly country?: 'est' | 'lat';
}

const r = (...names: string[]): OperationRegister[] => names.map((name) => ({ name }));
const est = (name: string): OperationRegister => ({ name, country: 'est' });
const lat = (name: string): OperationRegister => ({ name, country: 'lat' });

/**
 * portal-action-api.md §2 "Registers per operation", transcribed row by row: the ONE table every
 * register restriction of the portal is enforced from. `docLabel` is the "Operation" cell as the doc writes
 * it; operation-registers.test.ts parses the doc table and compares.
 */
export const REGISTERS_PER_OPERATION = {
  delete: { docLabel: 'delete', registers: r('IVVc', 'VIVc', 'ORVc', 'QTVc', 'ActVc', 'CUVc', 'EPOrderDocVc') },
  deleterow: {
    docLabel: 'deleterow',
    registers: r('IVVc', 'ORVc', 'VIVc', 'ErpExternalSignersVc', 'ErpSignSessVc', 'EPOrderDocVc'),
  },
  insertrow: { docLabel: 'insertrow', registers: r('IVVc', 'VIVc', 'ErpExternalSignersVc', 'ErpSignSessVc') },
  posttext: { docLabel: 'posttext', registers: r('MailVc', 'EPOrderDocVc') },
  document: { docLabel: 'document', registers: r('IVVc', 'VIVc', 'ORVc', 'QTVc', 'EPOrderDocVc') },
  doupload: {
    docLabel: 'attachments (doupload)',
    registers: r('IVVc', 'VIVc', 'QTVc', 'StockTakeVc', 'ORVc', 'ActVc', 'CUVc', 'EPOrderDocVc', 'EPShiftSheetVc'),
  },
  sendemail: { docLabel: 'sendemail', registers: r('IVVc', 'ORVc', 'QTVc') },
  checkapprovalstatus: {
    docLabel: 'checkapprovalstatus',
    registers: r('ActVc', 'IVVc', 'VIVc', 'ORVc', 'QTVc', 'EPOrderDocVc', 'OPVc'),
  },
  sendforapproval: {
    docLabel: 'sendforapproval',
    registers: r('IVVc', 'VIVc', 'ORVc', 'QTVc', 'ActVc', 'EPOrderDocVc', 'OPVc'),
  },
  createsigningactivity: {
    docLabel: 'createsigningactivity',
    registers: r('ORVc', 'IVVc', 'EPOrderDocVc', 'EPContractVc', 'EPTS2Vc'),
  },
  pastespecial: { docLabel: 'pastespecial', registers: r('INVc', 'CUVc', 'VEVc', 'AllCUVc', 'UserVc') },
  windowactions: {
    docLabel: 'windowactions',
    registers: [
      ...r('IVVc', 'ORVc', 'CUVc', 'ActVc', 'QTVc', 'VIVc', 'OPVc', 'IPVc', 'INVc', 'EPOrderDocVc'),
      est('EmplVc'),
      est('AbsenceVc'),
      est('PlanAbsenceVc'),
      lat('EPEmpVc'),
      lat('EPOffWorkVc'),
      lat('EPOffWorkPlanVc'),
    ],
  },
  activeeditfields: { docLabel: 'activeeditfields', registers: r('ORVc', 'CUVc') },
  list: {
    docLabel: 'list queries',
    registers: r(
      'INVc',
      'CUVc',
      'ActVc',
      'Kanban',
      'IVVc',
      'VIVc',
      'StockTakeVc',
      'ORVc',
      'QTVc',
      'EPOrderDocVc',
      'ARVc',
      'APVc',
    ),
  },
  unokrecord: { docLabel: 'unokrecord', registers: r('IVVc', 'ORVc', 'PlanAbsenceVc') },
  // the doc writes "IVVc only" (§4 rule 7: "copyrecord supports only IVVc")
  copyrecord: { docLabel: 'copyrecord', registers: r('IVVc') },
} as const satisfies Record<string, { docLabel: string; registers: readonly OperationRegister[] }>;

/** A row of the table. */
export type OperationName = keyof typeof REGISTERS_PER_OPERATION;

/** The registers an operation serves; with `portalcc`, country registers of the other country are left out. */
export function allowedRegisters(operation: OperationName, portalcc?: 'est' | 'lat'): readonly OperationRegister[] {
  const all: readonly OperationRegister[] = REGISTERS_PER_OPERATION[operation].registers;
  return portalcc === undefined ? all : all.filter((x) => x.country === undefined || x.country === portalcc);
}

const listText = (regs: readonly OperationRegister[]) =>
  regs.map((x) => (x.country ? `${x.name} (${x.country})` : x.name)).join(', ');

/**
 * Checks that `register` may be used with `operation` (and `portalcc` for the est/lat registers);
 * throws a PortalError that names the register and lists the allowed ones.
 */
export function checkOperationRegister(
  operation: OperationName,
  register: string,
  portalcc: 'est' | 'lat' | undefined,
  param = 'register',
): void {
  const row = REGISTERS_PER_OPERATION[operation];
  const all: readonly OperationRegister[] = row.registers;
  const hit = all.find((x) => x.name === register);
  if (!hit)
    throw new PortalError(`${param} "${register}" is not allowed for ${row.docLabel}; allowed: ${listText(all)}`);
  if (hit.country && hit.country !== portalcc)
    throw new PortalError(
      `${param} "${register}" is served for ${row.docLabel} only with portalcc=${hit.country}` +
        `${portalcc ? ` (portalcc is ${portalcc})` : ''}`,
    );
}
