import type { CallOptions } from './http-core.js';
import { PortalCore } from './portal-core.js';
import type { PortalParams, PortalResultOf } from './portal-types.js';

/**
 * The `action=action` sub-actions without a request body (portal-action-api.md §4), one method each, named after
 * the sub-action (`register=<name>`). The record register goes in `regname`.
 */
export class PortalSubActions extends PortalCore {
  /** List attachments (`action=action&register=getattachlist`, portal-action-api.md §4). */
  getattachlist(
    params: PortalParams<'action_getattachlist'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getattachlist'>> {
    return this.call('action_getattachlist', params, undefined, options);
  }

  /** Download attachment (`action=action&register=getfile`, portal-action-api.md §4). */
  getfile(params: PortalParams<'action_getfile'>, options?: CallOptions): Promise<PortalResultOf<'action_getfile'>> {
    return this.call('action_getfile', params, undefined, options);
  }

  /** Delete attachment (`action=action&register=deleteattachment`, portal-action-api.md §4). */
  deleteattachment(
    params: PortalParams<'action_deleteattachment'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_deleteattachment'>> {
    return this.call('action_deleteattachment', params, undefined, options);
  }

  /** Linked records (`action=action&register=getrecordlinks`, portal-action-api.md §4). */
  getrecordlinks(
    params: PortalParams<'action_getrecordlinks'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getrecordlinks'>> {
    return this.call('action_getrecordlinks', params, undefined, options);
  }

  /** Email document (`action=action&register=sendemail`, portal-action-api.md §4). */
  sendemail(
    params: PortalParams<'action_sendemail'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_sendemail'>> {
    return this.call('action_sendemail', params, undefined, options);
  }

  /** Approval status (`action=action&register=checkapprovalstatus`, portal-action-api.md §4). */
  checkapprovalstatus(
    params: PortalParams<'action_checkapprovalstatus'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_checkapprovalstatus'>> {
    return this.call('action_checkapprovalstatus', params, undefined, options);
  }

  /** Submit for approval (`action=action&register=sendforapproval`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  sendforapproval(
    params: PortalParams<'action_sendforapproval'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_sendforapproval'>> {
    return this.call('action_sendforapproval', params, undefined, options);
  }

  /** Approve (`action=action&register=approveactivity`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  approveactivity(
    params: PortalParams<'action_approveactivity'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_approveactivity'>> {
    return this.call('action_approveactivity', params, undefined, options);
  }

  /** Reject (`action=action&register=rejectactivity`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  rejectactivity(
    params: PortalParams<'action_rejectactivity'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_rejectactivity'>> {
    return this.call('action_rejectactivity', params, undefined, options);
  }

  /** Cancel approval (`action=action&register=cancelapproval`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  cancelapproval(
    params: PortalParams<'action_cancelapproval'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_cancelapproval'>> {
    return this.call('action_cancelapproval', params, undefined, options);
  }

  /** Approval persons (`action=action&register=getapprovalpersons`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  getapprovalpersons(
    params: PortalParams<'action_getapprovalpersons'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getapprovalpersons'>> {
    return this.call('action_getapprovalpersons', params, undefined, options);
  }

  /** Sign approved record (`action=action&register=signactivity`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  signactivity(
    params: PortalParams<'action_signactivity'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_signactivity'>> {
    return this.call('action_signactivity', params, undefined, options);
  }

  /** Create signing activity (`action=action&register=createsigningactivity`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  createsigningactivity(
    params: PortalParams<'action_createsigningactivity'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_createsigningactivity'>> {
    return this.call('action_createsigningactivity', params, undefined, options);
  }

  /** Create signing session (`action=action&register=createsigningsess`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  createsigningsess(
    params: PortalParams<'action_createsigningsess'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_createsigningsess'>> {
    return this.call('action_createsigningsess', params, undefined, options);
  }

  /** Start signing (`action=action&register=startsigning`, portal-action-api.md §4). */
  startsigning(
    params: PortalParams<'action_startsigning'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_startsigning'>> {
    return this.call('action_startsigning', params, undefined, options);
  }

  /** Cancel signing (`action=action&register=cancelsigning`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  cancelsigning(
    params: PortalParams<'action_cancelsigning'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_cancelsigning'>> {
    return this.call('action_cancelsigning', params, undefined, options);
  }

  /** Activity data (`action=action&register=getactivitydata`, portal-action-api.md §4). */
  getactivitydata(
    params: PortalParams<'action_getactivitydata'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getactivitydata'>> {
    return this.call('action_getactivitydata', params, undefined, options);
  }

  /** Comments (`action=action&register=getcomments`, portal-action-api.md §4). */
  getcomments(
    params: PortalParams<'action_getcomments'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getcomments'>> {
    return this.call('action_getcomments', params, undefined, options);
  }

  /** Activity types (`action=action&register=getactivitytypes`, portal-action-api.md §4). */
  getactivitytypes(
    params: PortalParams<'action_getactivitytypes'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getactivitytypes'>> {
    return this.call('action_getactivitytypes', params, undefined, options);
  }

  /** Link to source record (`action=action&register=linktosourcerecord`, portal-action-api.md §4). */
  linktosourcerecord(
    params: PortalParams<'action_linktosourcerecord'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_linktosourcerecord'>> {
    return this.call('action_linktosourcerecord', params, undefined, options);
  }

  /** Report filters (`action=action&register=getreportfilters`, portal-action-api.md §4). */
  getreportfilters(
    params: PortalParams<'action_getreportfilters'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getreportfilters'>> {
    return this.call('action_getreportfilters', params, undefined, options);
  }

  /** Employee info (`action=action&register=getemployeeinfo`, portal-action-api.md §4). */
  getemployeeinfo(
    params: PortalParams<'action_getemployeeinfo'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getemployeeinfo'>> {
    return this.call('action_getemployeeinfo', params, undefined, options);
  }

  /** Vacation balance (`action=action&register=getvacationbalance`, portal-action-api.md §4). */
  getvacationbalance(
    params: PortalParams<'action_getvacationbalance'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getvacationbalance'>> {
    return this.call('action_getvacationbalance', params, undefined, options);
  }

  /** Employee time plan (`action=action&register=getemptimeplan`, portal-action-api.md §4). */
  getemptimeplan(
    params: PortalParams<'action_getemptimeplan'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getemptimeplan'>> {
    return this.call('action_getemptimeplan', params, undefined, options);
  }

  /** Employee time plan (new format) (`action=action&register=getemptimeplannewformat`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  getemptimeplannewformat(
    params: PortalParams<'action_getemptimeplannewformat'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getemptimeplannewformat'>> {
    return this.call('action_getemptimeplannewformat', params, undefined, options);
  }

  /** Invoice from order (`action=action&register=createslinvoicefromorder`, portal-action-api.md §4). */
  createslinvoicefromorder(
    params: PortalParams<'action_createslinvoicefromorder'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_createslinvoicefromorder'>> {
    return this.call('action_createslinvoicefromorder', params, undefined, options);
  }

  /** Order from quotation (`action=action&register=createsalesorderfromquotation`, portal-action-api.md §4). */
  createsalesorderfromquotation(
    params: PortalParams<'action_createsalesorderfromquotation'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_createsalesorderfromquotation'>> {
    return this.call('action_createsalesorderfromquotation', params, undefined, options);
  }

  /** Invoice from quotation (`action=action&register=createslinvoicefromquotation`, portal-action-api.md §4). */
  createslinvoicefromquotation(
    params: PortalParams<'action_createslinvoicefromquotation'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_createslinvoicefromquotation'>> {
    return this.call('action_createslinvoicefromquotation', params, undefined, options);
  }

  /** Copy record (`action=action&register=copyrecord`, portal-action-api.md §4). */
  copyrecord(
    params: PortalParams<'action_copyrecord'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_copyrecord'>> {
    return this.call('action_copyrecord', params, undefined, options);
  }

  /** Un-confirm record (`action=action&register=unokrecord`, portal-action-api.md §4). */
  unokrecord(
    params: PortalParams<'action_unokrecord'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_unokrecord'>> {
    return this.call('action_unokrecord', params, undefined, options);
  }

  /** Has new API (`action=action&register=hasusernewapi`, portal-action-api.md §4). */
  hasusernewapi(
    params: PortalParams<'action_hasusernewapi'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_hasusernewapi'>> {
    return this.call('action_hasusernewapi', params, undefined, options);
  }

  /** User lists (portal users) (`action=action&register=getportalusers`, portal-action-api.md §4). */
  getportalusers(
    params: PortalParams<'action_getportalusers'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getportalusers'>> {
    return this.call('action_getportalusers', params, undefined, options);
  }

  /** User lists (admin users) (`action=action&register=getadminusers`, portal-action-api.md §4). */
  getadminusers(
    params: PortalParams<'action_getadminusers'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getadminusers'>> {
    return this.call('action_getadminusers', params, undefined, options);
  }

  /** User lists (all users) (`action=action&register=getallusers`, portal-action-api.md §4). */
  getallusers(
    params: PortalParams<'action_getallusers'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getallusers'>> {
    return this.call('action_getallusers', params, undefined, options);
  }

  /** Contact persons (`action=action&register=getcontactpersons`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  getcontactpersons(
    params: PortalParams<'action_getcontactpersons'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getcontactpersons'>> {
    return this.call('action_getcontactpersons', params, undefined, options);
  }

  /** Notifications (`action=action&register=getnotifications`, portal-action-api.md §4). */
  getnotifications(
    params: PortalParams<'action_getnotifications'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getnotifications'>> {
    return this.call('action_getnotifications', params, undefined, options);
  }

  /** Dashboard KPIs (`action=action&register=getdashboardkpi`, portal-action-api.md §4). */
  getdashboardkpi(
    params: PortalParams<'action_getdashboardkpi'> = {},
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getdashboardkpi'>> {
    return this.call('action_getdashboardkpi', params, undefined, options);
  }

  /** BI links (`action=action&register=getbilinks`, portal-action-api.md §4). */
  getbilinks(
    params: PortalParams<'action_getbilinks'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_getbilinks'>> {
    return this.call('action_getbilinks', params, undefined, options);
  }

  /** Register callback (`action=action&register=registerapi`, portal-action-api.md §4). Its answer or parameters are not shown in the docs. */
  registerapi(
    params: PortalParams<'action_registerapi'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_registerapi'>> {
    return this.call('action_registerapi', params, undefined, options);
  }

  /** Build record id string (`action=action&register=buildrecidstr`, portal-action-api.md §4). */
  buildrecidstr(
    params: PortalParams<'action_buildrecidstr'>,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_buildrecidstr'>> {
    return this.call('action_buildrecidstr', params, undefined, options);
  }
}
