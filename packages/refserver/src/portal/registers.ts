import { getRegister } from '@erpcert/contract';
import { type RegisterInput, schemaFromCatalogue } from '../schema/register-schema.js';
import { tableName } from '../store/record-table.js';

/**
 * Registers the portal serves beyond the 38 of the record REST API (README "Portal action API",
 * "Portal registers"). The portal doc shows no complete field list ("Complete field lists of the
 * registers served by this API ...: not shown beyond the fields named in this document", §2), so each
 * field is one a doc line names, or marked `erpcert:` where the reference server needs it (a key, a main
 * date for list queries, OKFlag where "Record is locked" or unokrecord needs it). "(catalogue)" is
 * portal-action-api.md §2 "Field-trigger catalogue".
 */

/**
 * The activity states (ActVc ActState) the demo data uses, in board order. ActState is "reserved, no effect" in
 * the trigger catalogue and its values are not shown: these are the server's own (README "Kanban").
 */
export const ACTIVITY_STATES: readonly string[] = ['TODO', 'INPROGRESS', 'DONE'];

/** ActVc, activities. */
const ActVc: RegisterInput = {
  name: 'ActVc',
  meaning: 'activities and tasks',
  key: ['SerNr'],
  fields: [
    'SerNr', // erpcert: §2 "Record id (SerNr)"
    // ActVc H (catalogue)
    'CUCode',
    'PRCode',
    'ItemCode',
    'Contact',
    'ActType',
    'ActState',
    'TransDate',
    'EndDate',
    'StartTime',
    'EndTime',
    'ActResult',
    'MainPersons',
    'CCPersons',
    'SerialNr',
    'SVOSerNr',
    'ProdOpSerNr',
    'CostTime', // inferred: "TransDate (calculates EndDate and CostTime)"
    'Comment', // erpcert: the subject line
    'CUName', // erpcert: the contact's name next to CUCode
    'SourceRegister', // named for __prepareActivity / linktosourcerecord ("sourceRegister", "sourceRegName")
    'SourceRecordId', // named likewise ("sourceRecordId")
  ],
  rowFields: ['TextCode', 'Text'], // ActVc R: TextCode (loads text template); Text erpcert: the loaded text
};

/** EPOrderDocVc, order documents (employee portal). */
const EPOrderDocVc: RegisterInput = {
  name: 'EPOrderDocVc',
  meaning: 'order documents',
  key: ['SerNr'],
  // EPOrderDocVc H (catalogue); Math: posttext "set_field.Math"; SerNr, TransDate, Comment, OKFlag: erpcert
  fields: [
    'SerNr',
    'TransDate',
    'ShortSign',
    'OrdType',
    'LTxtCode',
    'FilterType',
    'FilterString',
    'Math',
    'Comment',
    'OKFlag',
  ],
  rowFields: ['stp', 'EmpCodeRow'], // EPOrderDocVc R: EmpCodeRow; stp erpcert (row type of rows)
};

/** StockTakeVc, stock taking (list queries, attachments). Every field is erpcert: the doc names none. */
const StockTakeVc: RegisterInput = {
  name: 'StockTakeVc',
  meaning: 'stock taking',
  key: ['SerNr'],
  fields: ['SerNr', 'TransDate', 'Location', 'Comment', 'OKFlag'],
  rowFields: ['stp', 'ArtCode', 'Quant'],
};

/** MailVc, mails (posttext). Math: posttext "set_field.Math"; the others erpcert. */
const MailVc: RegisterInput = {
  name: 'MailVc',
  meaning: 'mails',
  key: ['SerNr'],
  fields: ['SerNr', 'TransDate', 'Subject', 'MailFrom', 'MailTo', 'Math'],
};

/** EPShiftSheetVc, shift sheets (attachments). Every field is erpcert. */
const EPShiftSheetVc: RegisterInput = {
  name: 'EPShiftSheetVc',
  meaning: 'shift sheets',
  key: ['SerNr'],
  fields: ['SerNr', 'TransDate', 'EmpCode', 'Comment', 'OKFlag'],
};

/** ErpSignSessVc, signing sessions (deleterow, insertrow). Every field is erpcert. */
const ErpSignSessVc: RegisterInput = {
  name: 'ErpSignSessVc',
  meaning: 'signing sessions',
  key: ['SerNr'],
  fields: ['SerNr', 'TransDate', 'RegName', 'RecordId', 'Status', 'UserCode', 'Comment', 'OKFlag'],
  rowFields: ['stp', 'Signer', 'SignerName', 'eMail', 'SignStatus'],
};

/** ErpExternalSignersVc, external signers (deleterow, insertrow). Every field is erpcert. */
const ErpExternalSignersVc: RegisterInput = {
  name: 'ErpExternalSignersVc',
  meaning: 'external signers',
  key: ['SerNr'],
  fields: ['SerNr', 'TransDate', 'Comment', 'OKFlag'],
  rowFields: ['stp', 'Name', 'eMail', 'IDCode', 'Phone'],
};

/** PlanAbsenceVc (est), planned absences (unokrecord, windowactions). */
const PlanAbsenceVc: RegisterInput = {
  name: 'PlanAbsenceVc',
  meaning: 'planned absences (est)',
  key: ['SerNr'],
  // PlanAbsenceVc H (catalogue): ContrSerNr, StartDate1, EndDate1, AbsTypeCode; OKFlag inferred from §4 rule 6
  // ("unokrecord needs ... a record with OKFlag=1"); SerNr, EmplCode erpcert
  fields: ['SerNr', 'EmplCode', 'ContrSerNr', 'StartDate1', 'EndDate1', 'AbsTypeCode', 'OKFlag'],
};

/**
 * VEVc and AllCUVc are views over CUVc (portal-action-api.md §4 rule 2: "VEVc covers vendors only and
 * AllCUVc all contacts"): read-only, not served under /api/1/. A vendor is a contact with VEType 1.
 */
function contactView(name: string, meaning: string, where: string): RegisterInput {
  const cu = schemaFromCatalogue(getRegister('CUVc')!);
  return {
    name,
    meaning,
    key: ['Code'],
    fields: [...cu.fields],
    readOnly: true,
    rest: false,
    viewSql: `SELECT * FROM "${tableName('CUVc')}"${where}`,
  };
}

/** Every register the portal module defines, in creation order. */
export function portalRegisters(): RegisterInput[] {
  return [
    ActVc,
    EPOrderDocVc,
    StockTakeVc,
    MailVc,
    EPShiftSheetVc,
    ErpSignSessVc,
    ErpExternalSignersVc,
    PlanAbsenceVc,
    contactView('VEVc', 'vendors (contacts with VEType 1)', ` WHERE "VEType" = '1'`),
    contactView('AllCUVc', 'all contacts', ''),
  ];
}
