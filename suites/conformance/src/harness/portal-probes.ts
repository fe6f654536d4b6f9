/**
 * One harmless request per portal operation (portal-action-api.md §4 "Endpoints"), for properties that send
 * every operation, such as the refusal of requests without valid credentials (§4: "Authentication is required
 * on each"). The ids name no record (`ERPCERTNONE`), so that a target that wrongly serves such a request still
 * changes nothing; registerapi is left out, as a served request would register a callback.
 */
import {
  activeEditFieldsBody,
  type CallOptions,
  fieldTriggerBody,
  type PortalBody,
  type PortalOperationId,
  postTextBody,
  reportBody,
  textBody,
  uploadBody,
} from '@erpcert/client';
import type { RuleContext } from './rule-test.js';

/** An id that names no record on any target. */
export const NO_RECORD = 'ERPCERTNONE';

/** A probe: the operation, its parameters and body. */
export interface PortalProbe {
  readonly operation: PortalOperationId;
  readonly params: Readonly<Record<string, string | number>>;
  readonly body?: PortalBody;
}

const id = NO_RECORD;
const rec = { regname: 'IVVc', id };

/** Every operation of the portal spec but registerapi, with harmless parameters. */
export const PORTAL_PROBES: readonly PortalProbe[] = [
  { operation: 'login', params: {} },
  { operation: 'deactivate', params: {} },
  { operation: 'delete', params: { register: 'IVVc', id } },
  { operation: 'deleterow', params: { register: 'IVVc', id: `${id}:1` } },
  { operation: 'insertrow', params: { register: 'IVVc', id: `${id}:0:1` } },
  { operation: 'posttext', params: { register: 'MailVc', id }, body: postTextBody('erpcert') },
  { operation: 'document', params: { register: 'IVVc', id } },
  { operation: 'pastespecial', params: { register: 'INVc', id: 'a' } },
  {
    operation: 'windowactions',
    params: {},
    body: fieldTriggerBody({ vcname: 'INVc', fieldname: 'Width', value: '1', rowindex: -1 }),
  },
  { operation: 'activeeditfields', params: {}, body: activeEditFieldsBody({ vcname: 'ORVc', id }) },
  { operation: 'report', params: {}, body: reportBody({ reportwindow: 'erpcert', repname: 'erpcert' }) },
  { operation: 'action_doupload', params: rec, body: uploadBody('erpcert.txt', Buffer.from('erpcert')) },
  { operation: 'action_getattachlist', params: rec },
  { operation: 'action_getfile', params: { ...rec, file: '00000000-0000-4000-8000-000000000000' } },
  { operation: 'action_deleteattachment', params: { ...rec, file: '00000000-0000-4000-8000-000000000000' } },
  { operation: 'action_getrecordlinks', params: rec },
  { operation: 'action_sendemail', params: rec },
  { operation: 'action_checkapprovalstatus', params: rec },
  { operation: 'action_sendforapproval', params: rec },
  { operation: 'action_approveactivity', params: { id } },
  { operation: 'action_rejectactivity', params: { id } },
  { operation: 'action_cancelapproval', params: rec },
  { operation: 'action_signactivity', params: { id } },
  { operation: 'action_createsigningactivity', params: rec },
  { operation: 'action_createsigningsess', params: { id } },
  { operation: 'action_startsigning', params: { id } },
  { operation: 'action_cancelsigning', params: rec },
  { operation: 'action_getactivitydata', params: { id } },
  { operation: 'action_getcomments', params: { id } },
  { operation: 'action_addcomment', params: { id }, body: textBody('erpcert') },
  { operation: 'action_settaskdescription', params: { id }, body: textBody('erpcert') },
  { operation: 'action_getactivitytypes', params: {} },
  { operation: 'action_linktosourcerecord', params: { sourceRegName: 'IVVc', sourceRecordId: id } },
  { operation: 'action_getreportfilters', params: {} },
  { operation: 'action_getemployeeinfo', params: { empcode: id } },
  { operation: 'action_getvacationbalance', params: { empcode: id } },
  { operation: 'action_getemptimeplan', params: { empcode: id, sd: '2025-01-01', ed: '2025-01-31' } },
  { operation: 'action_createslinvoicefromorder', params: { id } },
  { operation: 'action_createsalesorderfromquotation', params: { id, regname: 'QTVc' } },
  { operation: 'action_createslinvoicefromquotation', params: { id, regname: 'QTVc' } },
  { operation: 'action_copyrecord', params: rec },
  { operation: 'action_unokrecord', params: rec },
  { operation: 'action_hasusernewapi', params: {} },
  { operation: 'action_getportalusers', params: {} },
  { operation: 'action_getadminusers', params: {} },
  { operation: 'action_getallusers', params: {} },
  { operation: 'action_getnotifications', params: {} },
  { operation: 'action_getdashboardkpi', params: {} },
  { operation: 'action_getbilinks', params: {} },
  { operation: 'action_buildrecidstr', params: { code: id, vcname: 'IVVc' } },
  ...(
    ['INVc', 'CUVc', 'ActVc', 'IVVc', 'VIVc', 'StockTakeVc', 'ORVc', 'QTVc', 'EPOrderDocVc', 'ARVc', 'APVc'] as const
  ).map((r): PortalProbe => ({ operation: `list_${r}`, params: { page: 1, perpage: 5 } })),
  { operation: 'list_Kanban', params: { maxsize: 5 } },
];

/** Sends a probe with the call options given (an auth override, usually). */
export function sendProbe(ctx: RuleContext, probe: PortalProbe, options: CallOptions) {
  return ctx.client.portal.call(probe.operation, probe.params as never, probe.body, options);
}
