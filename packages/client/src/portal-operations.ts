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
 * Every operation of the portal spec as `[method, result]`. Checked against specs/portal-action.openapi.yaml by
 * a test, and by the type checker against the generated `PortalOperations` (a missing or unknown operationId
 * does not compile).
 */
const OPERATIONS = {
  login: ['GET', 'login'],
  deactivate: ['GET', 'result'],
  delete: ['GET', 'result'],
  deleterow: ['GET', 'result'],
  insertrow: ['GET', 'result'],
  posttext: ['POST', 'result'],
  document: ['GET', 'document'],
  pastespecial: ['GET', 'lookup'],
  windowactions: ['POST', 'trigger'],
  windowactions_encrypted: ['POST', 'trigger'],
  activeeditfields: ['POST', 'activefields'],
  report: ['POST', 'json'],
  action_doupload: ['POST', 'upload'],
  action_getattachlist: ['GET', 'attachments'],
  action_getfile: ['GET', 'file'],
  action_deleteattachment: ['GET', 'result'],
  action_getrecordlinks: ['GET', 'open'],
  action_sendemail: ['GET', 'result'],
  action_checkapprovalstatus: ['GET', 'approval'],
  action_sendforapproval: ['GET', 'result'],
  action_approveactivity: ['GET', 'result'],
  action_rejectactivity: ['GET', 'result'],
  action_cancelapproval: ['GET', 'result'],
  action_getapprovalpersons: ['GET', 'open'],
  action_signactivity: ['GET', 'result'],
  action_createsigningactivity: ['GET', 'result'],
  action_createsigningsess: ['GET', 'result'],
  action_startsigning: ['GET', 'open'],
  action_cancelsigning: ['GET', 'result'],
  action_getactivitydata: ['GET', 'open'],
  action_getcomments: ['GET', 'open'],
  action_addcomment: ['POST', 'result'],
  action_settaskdescription: ['POST', 'result'],
  action_getactivitytypes: ['GET', 'open'],
  action_linktosourcerecord: ['GET', 'open'],
  action_getreportfilters: ['GET', 'json'],
  action_getemployeeinfo: ['GET', 'open'],
  action_getvacationbalance: ['GET', 'open'],
  action_getemptimeplan: ['GET', 'open'],
  action_getemptimeplannewformat: ['GET', 'open'],
  action_createslinvoicefromorder: ['GET', 'conversion'],
  action_createsalesorderfromquotation: ['GET', 'conversion'],
  action_createslinvoicefromquotation: ['GET', 'conversion'],
  action_copyrecord: ['GET', 'result'],
  action_unokrecord: ['GET', 'result'],
  action_hasusernewapi: ['GET', 'hasapi'],
  action_getportalusers: ['GET', 'open'],
  action_getadminusers: ['GET', 'open'],
  action_getallusers: ['GET', 'open'],
  action_getcontactpersons: ['GET', 'open'],
  action_getnotifications: ['GET', 'open'],
  action_getdashboardkpi: ['GET', 'open'],
  action_getbilinks: ['GET', 'open'],
  action_registerapi: ['GET', 'result'],
  action_buildrecidstr: ['GET', 'open'],
  list_INVc: ['GET', 'list'],
  list_CUVc: ['GET', 'list'],
  list_ActVc: ['GET', 'list'],
  list_Kanban: ['GET', 'open'],
  list_IVVc: ['GET', 'list'],
  list_VIVc: ['GET', 'list'],
  list_StockTakeVc: ['GET', 'list'],
  list_ORVc: ['GET', 'list'],
  list_QTVc: ['GET', 'list'],
  list_EPOrderDocVc: ['GET', 'list'],
  list_ARVc: ['GET', 'list'],
  list_APVc: ['GET', 'list'],
} as const satisfies { readonly [K in PortalOperationId]: readonly ['GET' | 'POST', PortalResultKind] };

/**
 * The query values that select an operation, derived from its operationId (portal-action-api.md §1; the spec's
 * `x-erpcert-dispatch`): `action_<name>` is `action=action&register=<name>`, `list_<R>` is `register=<R>`,
 * `windowactions_encrypted` adds `encrypted=true`, any other id is `action=<id>`.
 */
export type PortalDispatch<Op extends PortalOperationId> = Op extends `action_${infer Name}`
  ? { readonly action: 'action'; readonly register: Name }
  : Op extends `list_${infer R}`
    ? { readonly register: R }
    : Op extends 'windowactions_encrypted'
      ? { readonly action: 'windowactions'; readonly encrypted: 'true' }
      : { readonly action: Op };

/** The dispatch values of `id` (see {@link PortalDispatch}). */
export function dispatchOf<Op extends PortalOperationId>(id: Op): PortalDispatch<Op> {
  if (id.startsWith('action_')) return { action: 'action', register: id.slice('action_'.length) } as PortalDispatch<Op>;
  if (id.startsWith('list_')) return { register: id.slice('list_'.length) } as PortalDispatch<Op>;
  if (id === 'windowactions_encrypted') return { action: 'windowactions', encrypted: 'true' } as PortalDispatch<Op>;
  return { action: id } as PortalDispatch<Op>;
}

/** Every operation of the portal spec: its method, dispatch values and result shape. */
export const PORTAL_OPERATIONS = Object.fromEntries(
  (Object.keys(OPERATIONS) as PortalOperationId[]).map((id) => {
    const [method, result] = OPERATIONS[id];
    return [id, { method, dispatch: dispatchOf(id), result }];
  }),
) as {
  readonly [K in PortalOperationId]: {
    readonly method: (typeof OPERATIONS)[K][0];
    readonly dispatch: PortalDispatch<K>;
    readonly result: (typeof OPERATIONS)[K][1];
  };
};

/** The list operations: `list_<register>` (no `action`; `register` names the list, §1). */
export type PortalListRegister = {
  [K in PortalOperationId]: K extends `list_${infer R}` ? R : never;
}[PortalOperationId];

/** True when `id` is an operationId of the portal spec. */
export function isPortalOperationId(id: string): id is PortalOperationId {
  return Object.hasOwn(PORTAL_OPERATIONS, id);
}
