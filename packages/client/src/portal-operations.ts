import type { PortalOperations } from '@erpcert/contract';

/** An operationId of the portal spec (specs/portal-action.openapi.yaml). */
export type PortalOperationId = keyof PortalOperations;

/**
 * How the client decodes an operation's answer (portal-action-api.md §2 "Result element shapes"): `result`
 * `<data><res errstr/></data>`, `upload` (+ uuid), `conversion` (+ newdata), `hasapi`, `login`, `approval`,
 * `document`, `attachments`, `lookup`, `list` (both paged list shapes), `open` (a body the docs do not show),
 * `file` (getfile: bytes), `trigger` and `activefields` (field-trigger JSON), `json` (other JSON answers).
 */
export type PortalResultKind =
  | 'login'
  | 'result'
  | 'upload'
  | 'conversion'
  | 'hasapi'
  | 'approval'
  | 'document'
  | 'attachments'
  | 'lookup'
  | 'list'
  | 'open'
  | 'file'
  | 'trigger'
  | 'activefields'
  | 'json';

/** One operation of the portal: its method, the query values that select it, and its result shape. */
export interface PortalOperationDef {
  readonly method: 'GET' | 'POST';
  /** `action`, and `register` for sub-actions and lists (portal-action-api.md §1). */
  readonly dispatch: Readonly<Record<string, string>>;
  readonly result: PortalResultKind;
}

/**
 * Every operation of the portal spec. Checked against specs/portal-action.openapi.yaml by a test, and by the type
 * checker against the generated `PortalOperations` (a missing or unknown operationId does not compile).
 */
export const PORTAL_OPERATIONS = {
  login: { method: 'GET', dispatch: { action: 'login' }, result: 'login' },
  deactivate: { method: 'GET', dispatch: { action: 'deactivate' }, result: 'result' },
  delete: { method: 'GET', dispatch: { action: 'delete' }, result: 'result' },
  deleterow: { method: 'GET', dispatch: { action: 'deleterow' }, result: 'result' },
  insertrow: { method: 'GET', dispatch: { action: 'insertrow' }, result: 'result' },
  posttext: { method: 'POST', dispatch: { action: 'posttext' }, result: 'result' },
  document: { method: 'GET', dispatch: { action: 'document' }, result: 'document' },
  pastespecial: { method: 'GET', dispatch: { action: 'pastespecial' }, result: 'lookup' },
  windowactions: { method: 'POST', dispatch: { action: 'windowactions' }, result: 'trigger' },
  windowactions_encrypted: {
    method: 'POST',
    dispatch: { action: 'windowactions', encrypted: 'true' },
    result: 'trigger',
  },
  activeeditfields: { method: 'POST', dispatch: { action: 'activeeditfields' }, result: 'activefields' },
  report: { method: 'POST', dispatch: { action: 'report' }, result: 'json' },
  action_doupload: { method: 'POST', dispatch: { action: 'action', register: 'doupload' }, result: 'upload' },
  action_getattachlist: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getattachlist' },
    result: 'attachments',
  },
  action_getfile: { method: 'GET', dispatch: { action: 'action', register: 'getfile' }, result: 'file' },
  action_deleteattachment: {
    method: 'GET',
    dispatch: { action: 'action', register: 'deleteattachment' },
    result: 'result',
  },
  action_getrecordlinks: { method: 'GET', dispatch: { action: 'action', register: 'getrecordlinks' }, result: 'open' },
  action_sendemail: { method: 'GET', dispatch: { action: 'action', register: 'sendemail' }, result: 'result' },
  action_checkapprovalstatus: {
    method: 'GET',
    dispatch: { action: 'action', register: 'checkapprovalstatus' },
    result: 'approval',
  },
  action_sendforapproval: {
    method: 'GET',
    dispatch: { action: 'action', register: 'sendforapproval' },
    result: 'result',
  },
  action_approveactivity: {
    method: 'GET',
    dispatch: { action: 'action', register: 'approveactivity' },
    result: 'result',
  },
  action_rejectactivity: {
    method: 'GET',
    dispatch: { action: 'action', register: 'rejectactivity' },
    result: 'result',
  },
  action_cancelapproval: {
    method: 'GET',
    dispatch: { action: 'action', register: 'cancelapproval' },
    result: 'result',
  },
  action_getapprovalpersons: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getapprovalpersons' },
    result: 'open',
  },
  action_signactivity: { method: 'GET', dispatch: { action: 'action', register: 'signactivity' }, result: 'result' },
  action_createsigningactivity: {
    method: 'GET',
    dispatch: { action: 'action', register: 'createsigningactivity' },
    result: 'result',
  },
  action_createsigningsess: {
    method: 'GET',
    dispatch: { action: 'action', register: 'createsigningsess' },
    result: 'result',
  },
  action_startsigning: { method: 'GET', dispatch: { action: 'action', register: 'startsigning' }, result: 'open' },
  action_cancelsigning: { method: 'GET', dispatch: { action: 'action', register: 'cancelsigning' }, result: 'result' },
  action_getactivitydata: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getactivitydata' },
    result: 'open',
  },
  action_getcomments: { method: 'GET', dispatch: { action: 'action', register: 'getcomments' }, result: 'open' },
  action_addcomment: { method: 'POST', dispatch: { action: 'action', register: 'addcomment' }, result: 'result' },
  action_settaskdescription: {
    method: 'POST',
    dispatch: { action: 'action', register: 'settaskdescription' },
    result: 'result',
  },
  action_getactivitytypes: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getactivitytypes' },
    result: 'open',
  },
  action_linktosourcerecord: {
    method: 'GET',
    dispatch: { action: 'action', register: 'linktosourcerecord' },
    result: 'open',
  },
  action_getreportfilters: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getreportfilters' },
    result: 'json',
  },
  action_getemployeeinfo: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getemployeeinfo' },
    result: 'open',
  },
  action_getvacationbalance: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getvacationbalance' },
    result: 'open',
  },
  action_getemptimeplan: { method: 'GET', dispatch: { action: 'action', register: 'getemptimeplan' }, result: 'open' },
  action_getemptimeplannewformat: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getemptimeplannewformat' },
    result: 'open',
  },
  action_createslinvoicefromorder: {
    method: 'GET',
    dispatch: { action: 'action', register: 'createslinvoicefromorder' },
    result: 'conversion',
  },
  action_createsalesorderfromquotation: {
    method: 'GET',
    dispatch: { action: 'action', register: 'createsalesorderfromquotation' },
    result: 'conversion',
  },
  action_createslinvoicefromquotation: {
    method: 'GET',
    dispatch: { action: 'action', register: 'createslinvoicefromquotation' },
    result: 'conversion',
  },
  action_copyrecord: { method: 'GET', dispatch: { action: 'action', register: 'copyrecord' }, result: 'result' },
  action_unokrecord: { method: 'GET', dispatch: { action: 'action', register: 'unokrecord' }, result: 'result' },
  action_hasusernewapi: { method: 'GET', dispatch: { action: 'action', register: 'hasusernewapi' }, result: 'hasapi' },
  action_getportalusers: { method: 'GET', dispatch: { action: 'action', register: 'getportalusers' }, result: 'open' },
  action_getadminusers: { method: 'GET', dispatch: { action: 'action', register: 'getadminusers' }, result: 'open' },
  action_getallusers: { method: 'GET', dispatch: { action: 'action', register: 'getallusers' }, result: 'open' },
  action_getcontactpersons: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getcontactpersons' },
    result: 'open',
  },
  action_getnotifications: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getnotifications' },
    result: 'open',
  },
  action_getdashboardkpi: {
    method: 'GET',
    dispatch: { action: 'action', register: 'getdashboardkpi' },
    result: 'open',
  },
  action_getbilinks: { method: 'GET', dispatch: { action: 'action', register: 'getbilinks' }, result: 'open' },
  action_registerapi: { method: 'GET', dispatch: { action: 'action', register: 'registerapi' }, result: 'result' },
  action_buildrecidstr: { method: 'GET', dispatch: { action: 'action', register: 'buildrecidstr' }, result: 'open' },
  list_INVc: { method: 'GET', dispatch: { register: 'INVc' }, result: 'list' },
  list_CUVc: { method: 'GET', dispatch: { register: 'CUVc' }, result: 'list' },
  list_ActVc: { method: 'GET', dispatch: { register: 'ActVc' }, result: 'list' },
  list_Kanban: { method: 'GET', dispatch: { register: 'Kanban' }, result: 'open' },
  list_IVVc: { method: 'GET', dispatch: { register: 'IVVc' }, result: 'list' },
  list_VIVc: { method: 'GET', dispatch: { register: 'VIVc' }, result: 'list' },
  list_StockTakeVc: { method: 'GET', dispatch: { register: 'StockTakeVc' }, result: 'list' },
  list_ORVc: { method: 'GET', dispatch: { register: 'ORVc' }, result: 'list' },
  list_QTVc: { method: 'GET', dispatch: { register: 'QTVc' }, result: 'list' },
  list_EPOrderDocVc: { method: 'GET', dispatch: { register: 'EPOrderDocVc' }, result: 'list' },
  list_ARVc: { method: 'GET', dispatch: { register: 'ARVc' }, result: 'list' },
  list_APVc: { method: 'GET', dispatch: { register: 'APVc' }, result: 'list' },
} as const satisfies { readonly [K in PortalOperationId]: PortalOperationDef };

/** The list operations: `list_<register>` (no `action`; `register` names the list, §1). */
export type PortalListRegister = {
  [K in PortalOperationId]: K extends `list_${infer R}` ? R : never;
}[PortalOperationId];

/** True when `id` is an operationId of the portal spec. */
export function isPortalOperationId(id: string): id is PortalOperationId {
  return Object.hasOwn(PORTAL_OPERATIONS, id);
}
