import type { CallOptions } from './http-core.js';
import {
  type ActiveEditFieldsRequest,
  activeEditFieldsBody,
  type FieldTriggerRequest,
  fieldTriggerBody,
  postTextBody,
  type ReportRequest,
  reportBody,
  textBody,
  uploadBody,
} from './portal-bodies.js';
import { PortalSubActions } from './portal-sub-actions.js';
import type {
  PortalActiveFieldsResult,
  PortalJson,
  PortalLookup,
  PortalParams,
  PortalResultOf,
  PortalTriggerResult,
  PortalUploadResult,
} from './portal-types.js';

/** A file for `doupload`: its name and bytes (or a string already in base64). */
export interface UploadFile {
  readonly filename: string;
  readonly content: Uint8Array | string;
}

/**
 * The portal action API with one method per action and sub-action of the spec (docs/portal-action-api.md §4),
 * parameters typed from the generated `PortalOperations`; `call(operationId, params, body?)` underneath. Every method
 * throws `ErpError` for an `<error>` element or a non-empty `errstr`.
 */
export class PortalClient extends PortalSubActions {
  /** Post text (`action=posttext`): form-encoded `set_field.Math`, text or HTML. */
  posttext(params: PortalParams<'posttext'>, text: string, options?: CallOptions): Promise<PortalResultOf<'posttext'>> {
    return this.call('posttext', params, postTextBody(text), options);
  }

  /**
   * Field trigger (`action=windowactions`): the JSON body, or with `encrypted: true` the JSON byte-reversed and then
   * base64-encoded (§4 "Field trigger"). Warnings come back in `body.messages` while `success` stays true.
   */
  windowactions(
    params: PortalParams<'windowactions'>,
    request: FieldTriggerRequest,
    options?: CallOptions & { readonly encrypted?: boolean },
  ): Promise<PortalTriggerResult> {
    if (options?.encrypted)
      return this.call('windowactions_encrypted', params, fieldTriggerBody(request, true), options);
    return this.call('windowactions', params, fieldTriggerBody(request), options);
  }

  /** Active edit fields (`action=activeeditfields`): octet-stream body, base64 of the JSON `{vcname, id}`. */
  activeeditfields(
    params: PortalParams<'activeeditfields'>,
    request: ActiveEditFieldsRequest,
    options?: CallOptions,
  ): Promise<PortalActiveFieldsResult> {
    return this.call('activeeditfields', params, activeEditFieldsBody(request), options);
  }

  /**
   * Report (`action=report`): JSON `{reportwindow, repname, lang, spec}`. Without `usercode` the server answers
   * `Access denied` (§4 rule 3), thrown as `ErpError`.
   */
  report(params: PortalParams<'report'>, request: ReportRequest, options?: CallOptions): Promise<PortalJson<unknown>> {
    return this.call('report', params, reportBody(request), options);
  }

  /** Upload attachment (`action=action&register=doupload`): the XML body with the file in base64; returns `uuid`. */
  doupload(
    params: PortalParams<'action_doupload'>,
    file: UploadFile,
    options?: CallOptions,
  ): Promise<PortalUploadResult> {
    return this.call('action_doupload', params, uploadBody(file.filename, file.content), options);
  }

  /** Add comment (`action=action&register=addcomment`): the comment text; its body shape is not shown (rule 12). */
  addcomment(
    params: PortalParams<'action_addcomment'>,
    text: string,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_addcomment'>> {
    return this.call('action_addcomment', params, textBody(text), options);
  }

  /** Set task description (`action=action&register=settaskdescription`); its body shape is not shown (rule 12). */
  settaskdescription(
    params: PortalParams<'action_settaskdescription'>,
    text: string,
    options?: CallOptions,
  ): Promise<PortalResultOf<'action_settaskdescription'>> {
    return this.call('action_settaskdescription', params, textBody(text), options);
  }

  /**
   * Lookup (`action=pastespecial`): `id` is the search text; space-separated terms ANDed, case-insensitive prefix
   * match, at most 50 results, no paging (§4 rules 1 and 2).
   */
  pastespecial<R extends PortalParams<'pastespecial'>['register']>(
    params: PortalParams<'pastespecial'> & { readonly register: R },
    options?: CallOptions,
  ): Promise<PortalLookup<R>> {
    return this.call('pastespecial', params, undefined, options) as Promise<PortalLookup<R>>;
  }

  /** Deactivate (`action=deactivate`, portal-action-api.md §4). */
  deactivate(params: PortalParams<'deactivate'>, options?: CallOptions): Promise<PortalResultOf<'deactivate'>> {
    return this.call('deactivate', params, undefined, options);
  }

  /** Delete record (`action=delete`, portal-action-api.md §4). */
  delete(params: PortalParams<'delete'>, options?: CallOptions): Promise<PortalResultOf<'delete'>> {
    return this.call('delete', params, undefined, options);
  }

  /** Delete rows (`action=deleterow`, portal-action-api.md §4). */
  deleterow(params: PortalParams<'deleterow'>, options?: CallOptions): Promise<PortalResultOf<'deleterow'>> {
    return this.call('deleterow', params, undefined, options);
  }

  /** Insert row (`action=insertrow`, portal-action-api.md §4). */
  insertrow(params: PortalParams<'insertrow'>, options?: CallOptions): Promise<PortalResultOf<'insertrow'>> {
    return this.call('insertrow', params, undefined, options);
  }

  /** Generate document (`action=document`, portal-action-api.md §4). */
  document(params: PortalParams<'document'>, options?: CallOptions): Promise<PortalResultOf<'document'>> {
    return this.call('document', params, undefined, options);
  }
}
