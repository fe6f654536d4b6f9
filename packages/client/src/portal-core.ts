import { DEFAULT_PORTAL_PATH } from './config.js';
import { ConfigError } from './errors.js';
import type { CallOptions, HttpCore } from './http-core.js';
import { decodePortal } from './portal-decode.js';
import { isPortalOperationId, PORTAL_OPERATIONS, type PortalOperationId } from './portal-operations.js';
import type {
  PortalBody,
  PortalGlobals,
  PortalList,
  PortalListQuery,
  PortalLogin,
  PortalParams,
  PortalResultOf,
} from './portal-types.js';
import type { QueryPair } from './url.js';

/** Settings the portal client takes from the client config. */
export interface PortalSettings {
  readonly portalPath?: string;
  readonly compno?: number | string;
  readonly usercode?: string;
  readonly portalcc?: 'est' | 'lat';
}

/** Options of {@link PortalCore.listPages}. */
export interface PortalPageOptions extends CallOptions {
  /** Records per page, 1 to 100 (portal-action-api.md §4 rule 8). */
  readonly perpage: number;
  /** Stop after this many pages. @defaultValue unlimited */
  readonly maxPages?: number;
}

type Params = Readonly<Record<string, unknown>>;

/**
 * The portal action API's machinery (docs/portal-action-api.md): one endpoint, the operation chosen by `action`
 * (and `register` for sub-actions and lists), the global parameters added from the config.
 */
export class PortalCore {
  protected readonly core: HttpCore;
  readonly #settings: PortalSettings;

  constructor(core: HttpCore, settings: PortalSettings) {
    this.core = core;
    this.#settings = settings;
  }

  /** The endpoint path (`/WebErpAPI.hal` or a deployment's `/WebExcellentAPI.hal`). */
  get path(): string {
    const p = this.#settings.portalPath ?? DEFAULT_PORTAL_PATH;
    return p.startsWith('/') ? p : `/${p}`;
  }

  #query(dispatch: Readonly<Record<string, string>>, params: Params): QueryPair[] {
    const out: QueryPair[] = Object.entries(dispatch);
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined || v === null || k in dispatch) continue;
      out.push([k, String(v)]);
    }
    const globals: Required<{ [K in keyof PortalGlobals]: unknown }> = {
      compno: this.#settings.compno,
      usercode: this.#settings.usercode,
      portalcc: this.#settings.portalcc,
    };
    for (const [k, v] of Object.entries(globals)) if (!(k in params) && v !== undefined) out.push([k, String(v)]);
    return out;
  }

  /**
   * Sends any operation of the spec by operationId and decodes its answer by the operation's result shape. Named
   * methods build `body` for the operations that take one; `forceBasic` is for login.
   */
  async call<Op extends PortalOperationId>(
    operation: Op,
    params: PortalParams<Op>,
    body?: PortalBody,
    options?: CallOptions & { readonly forceBasic?: boolean },
  ): Promise<PortalResultOf<Op>> {
    if (!isPortalOperationId(operation)) throw new ConfigError(`unknown portal operation ${String(operation)}`);
    const def = PORTAL_OPERATIONS[operation];
    const dispatch: Readonly<Record<string, string>> = def.dispatch;
    const p = params as Params;
    const ownRegister = 'register' in dispatch ? undefined : p.register;
    const register = String(p.regname ?? ownRegister ?? (operation.startsWith('list_') ? dispatch.register : '') ?? '');
    const recordRegister = operation.startsWith('list_') ? dispatch.register : (ownRegister as string | undefined);
    const raw = await this.core.send({
      api: 'portal',
      operation,
      ...(register ? { register } : {}),
      method: def.method,
      path: this.path,
      query: this.#query(dispatch, p),
      ...(body
        ? {
            headers: { 'Content-Type': body.contentType },
            body: typeof body.data === 'string' ? Buffer.from(body.data, 'utf8') : body.data,
          }
        : {}),
      ...(options?.forceBasic ? { forceBasic: true } : {}),
      ...(options ? { options } : {}),
    });
    return decodePortal(def.result, raw, {
      operation,
      ...(register ? { register } : {}),
      ...(recordRegister ? { recordRegister } : {}),
    }) as PortalResultOf<Op>;
  }

  /**
   * `action=login` (portal-action-api.md §4): always sent with Basic, so that with `useSession` it opens a fresh
   * HSESSION session.
   */
  async login(params: PortalParams<'login'> = {}, options?: CallOptions): Promise<PortalLogin> {
    const result = await this.call('login', params, undefined, { ...options, forceBasic: true });
    return { ...result, sessionId: this.core.auth.sessionId };
  }

  /** A list query: no `action`, `register` names the list (§1, §4 "List query"); page >= 1, perpage 1-100. */
  async list<R extends string>(register: R, query?: PortalListQuery<R>, options?: CallOptions): Promise<PortalList<R>> {
    const op = `list_${register}`;
    if (isPortalOperationId(op))
      return (await this.call(op, (query ?? {}) as never, undefined, options)) as PortalList<R>;
    // a list type added by a hook (OuterErpAPIGetList, §1): same request, same shape
    const raw = await this.core.send({
      api: 'portal',
      operation: 'list',
      register,
      method: 'GET',
      path: this.path,
      query: this.#query({ register }, (query ?? {}) as Params),
      ...(options ? { options } : {}),
    });
    return decodePortal('list', raw, { operation: 'list', register, recordRegister: register }) as PortalList<R>;
  }

  /**
   * Walks a list page by page from `page` (default 1) until a page holds fewer than `perpage` records, or the last
   * page `totalpages` names.
   */
  async *listPages<R extends string>(
    register: R,
    query: PortalListQuery<R> | undefined,
    options: PortalPageOptions,
  ): AsyncGenerator<PortalList<R>, void, undefined> {
    const { perpage, maxPages, ...call } = options;
    if (!Number.isInteger(perpage) || perpage < 1)
      throw new RangeError(`perpage must be a whole number >= 1: ${perpage}`);
    let page = Number((query as Params | undefined)?.page ?? 1);
    for (let n = 0; maxPages === undefined || n < maxPages; n++, page++) {
      const result = await this.list(register, { ...query, page, perpage } as PortalListQuery<R>, call);
      yield result;
      if (result.records.length < perpage) return;
      if (result.totalpages !== undefined && page >= result.totalpages) return;
    }
  }
}
