import type { App } from '../app-types.js';
import type { AuthSuccess } from '../auth/authenticate.js';
import type { WriteContext } from '../business/draft.js';
import type { AppResponse, RouteRequest } from '../http/types.js';
import type { CallbackNotifier } from './callbacks/notifier.js';
import type { EditLocks } from './edit-locks.js';
import type { OperationName } from './operation-registers.js';
import type { PortalParams } from './params.js';
import type { ResolvedPortalOptions } from './portal-options.js';

export { ACCESS_DENIED, PortalError, RECORD_IS_LOCKED } from './portal-error.js';

/** What a handler answers: an XML body (without the declaration), a JSON value, or a finished response. */
export type PortalResult =
  | { readonly xml: string; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  | { readonly response: AppResponse };

/** Everything a handler gets for one request. */
export interface PortalContext {
  readonly app: App;
  readonly req: RouteRequest;
  /** The company of `compno` (default 1), checked to exist. */
  readonly company: number;
  readonly auth: AuthSuccess;
  /** Query parameters (plus the fields of a form body, unless the handler reads the body itself). */
  readonly params: PortalParams;
  /** The `usercode` parameter as sent (not checked against UserVc; use `requireUser` in access.ts). */
  readonly usercode: string | undefined;
  /** The `portalcc` parameter, `est` or `lat` (anything else was refused). */
  readonly portalcc: 'est' | 'lat' | undefined;
  /** The record register named by `register`/`regname`, checked against the handler's `registers` row. */
  readonly register: string | undefined;
  /** Store, company and today's date for the business layer (business/record-write.ts). */
  readonly write: WriteContext;
  readonly today: string;
  /** Module-wide state: options, edit locks. */
  readonly portal: PortalState;
}

/** State the portal module keeps for the app's lifetime. */
export interface PortalState {
  readonly options: ResolvedPortalOptions;
  readonly locks: EditLocks;
  /** Names of every registered sub-action (login's `supported` flags read it). */
  readonly subActions: ReadonlySet<string>;
  /** The registerapi callbacks (absent in dispatcher unit tests). */
  readonly callbacks?: CallbackNotifier;
}

/**
 * One portal operation. The dispatcher (dispatcher.ts) picks the handler from the request per
 * portal-action-api.md §1:
 *
 * - `kind: 'action'`, `name: 'delete'`: `action=delete`;
 * - `kind: 'sub-action'`, `name: 'getfile'`: `action=action&register=getfile` (the record register is then
 *   in `regname`);
 * - `kind: 'list'`, `name: 'IVVc'`: no `action`, `register=IVVc` (list queries).
 *
 * Before `handle` runs, the dispatcher has authenticated the request (Basic or HSESSION; a bearer token is
 * refused with 401), resolved `compno`, checked `portalcc`, checked `registers` against the "Registers per
 * operation" table (operation-registers.ts) and checked that every `required` parameter is present and
 * non-empty. `handle` returns a `PortalResult` or throws a `PortalError` (any other exception answers
 * errstr "Internal error" and is logged). An `ErpError` of the business layer (a validation error of a
 * write) answers its description as errstr.
 *
 * Handlers are listed in `handlers-records.ts` (part A) and `handlers-workflow.ts` (part B); a name may be
 * registered once per kind.
 */
export interface PortalHandler {
  readonly kind: 'action' | 'sub-action' | 'list';
  /** The action, sub-action or list register name, as the client sends it (case-sensitive). */
  readonly name: string;
  /** A JSON operation (windowactions, activeeditfields, report, getreportfilters): errors answer JSON. */
  readonly json?: boolean;
  /** @defaultValue both GET and POST (portal-action-api.md §1 "It accepts GET and POST") */
  readonly methods?: readonly ('GET' | 'POST')[];
  /**
   * The row of "Registers per operation" that restricts the record register, and the parameter that
   * carries it (`register` for top-level actions, `regname` for sub-actions). Omit for operations without one.
   */
  readonly registers?: {
    readonly operation: OperationName;
    readonly param: 'register' | 'regname';
    /** The parameter may be missing (then `ctx.register` is undefined). @defaultValue false */
    readonly optional?: boolean;
  };
  /** Parameters that must be present and non-empty; the error names the first one missing. */
  readonly required?: readonly string[];
  /** The handler reads the request body itself: form fields are not merged into `params`. */
  readonly readsBody?: boolean;
  handle(ctx: PortalContext): PortalResult | Promise<PortalResult>;
}
