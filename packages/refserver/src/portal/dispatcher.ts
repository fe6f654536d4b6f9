import type { App } from '../app-types.js';
import type { AuthSuccess } from '../auth/authenticate.js';
import { ErpError } from '../errors.js';
import { parseForm } from '../http/form-body.js';
import { textResponse } from '../http/respond.js';
import type { AppResponse, RouteHandler, RouteRequest } from '../http/types.js';
import { type PortalContext, PortalError, type PortalHandler, type PortalResult, type PortalState } from './handler.js';
import { checkOperationRegister } from './operation-registers.js';
import { PortalParams } from './params.js';
import { failureXml } from './xml.js';

/** The twelve values of `action` (portal-action-api.md §1). */
export const DOCUMENTED_ACTIONS = [
  'login',
  'deactivate',
  'delete',
  'deleterow',
  'insertrow',
  'posttext',
  'document',
  'action',
  'pastespecial',
  'windowactions',
  'activeeditfields',
  'report',
] as const;

/** The JSON failure of the JSON operations: `success` and `res` false, the text in `messages`. */
export function jsonFailure(description: string): unknown {
  return { success: false, res: false, messages: [{ description }] };
}

/** Handlers by kind and name; a name registered twice is a programming error. */
class HandlerIndex {
  readonly actions = new Map<string, PortalHandler>();
  readonly subActions = new Map<string, PortalHandler>();
  readonly lists = new Map<string, PortalHandler>();

  constructor(handlers: readonly PortalHandler[]) {
    for (const h of handlers) {
      const map = h.kind === 'action' ? this.actions : h.kind === 'sub-action' ? this.subActions : this.lists;
      if (map.has(h.name)) throw new Error(`portal: two handlers for ${h.kind} "${h.name}"`);
      map.set(h.name, h);
    }
  }
}

type Selection = { handler: PortalHandler; error?: undefined } | { handler?: undefined; error: string };

/** Picks the handler per §1: `action` selects; `action=action` + `register`; no `action` is a list query. */
function select(index: HandlerIndex, params: PortalParams): Selection {
  const action = params.get('action');
  if (action === undefined || action === '') {
    const register = params.get('register');
    if (register === undefined || register === '')
      return {
        error:
          'missing required parameter "action" (or "register" for a list query); ' +
          `actions: ${DOCUMENTED_ACTIONS.join(', ')}`,
      };
    try {
      checkOperationRegister('list', register, undefined, 'register');
    } catch (err) {
      return { error: (err as Error).message };
    }
    const handler = index.lists.get(register);
    return handler ? { handler } : { error: `the list query of ${register} is not implemented` };
  }
  if (action === 'action') {
    const sub = params.get('register');
    if (sub === undefined || sub === '')
      return { error: 'missing required parameter "register" (action=action names the sub-action in register)' };
    const handler = index.subActions.get(sub);
    if (handler) return { handler };
    return {
      error: `unknown sub-action register=${sub}; sub-actions: ${[...index.subActions.keys()].sort().join(', ')}`,
    };
  }
  const handler = index.actions.get(action);
  if (handler) return { handler };
  return { error: `unknown action "${action}"; actions: ${DOCUMENTED_ACTIONS.join(', ')}` };
}

/** Query pairs, plus the fields of a form body (not `set_field.*`, which the operation reads). */
function requestPairs(req: RouteRequest, withBody: boolean): [string, string][] {
  const pairs: [string, string][] = [...req.query];
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (withBody && req.method === 'POST' && type === 'application/x-www-form-urlencoded' && req.body.length > 0) {
    for (const [n, v] of parseForm(req.body, req.charset)) {
      if (!n.startsWith('set_field.') && !n.startsWith('set_row_field.')) pairs.push([n, v]);
    }
  }
  return pairs;
}

function render(req: RouteRequest, result: PortalResult): AppResponse {
  if ('response' in result) return result.response;
  if ('json' in result)
    return textResponse(req, result.status ?? 200, 'application/json', JSON.stringify(result.json), result.headers);
  return textResponse(req, result.status ?? 200, 'application/xml', result.xml, result.headers);
}

function renderFailure(req: RouteRequest, json: boolean, err: PortalError): AppResponse {
  return json
    ? textResponse(req, err.status, 'application/json', JSON.stringify(jsonFailure(err.message)), err.headers)
    : textResponse(req, err.status, 'application/xml', failureXml(err.message), err.headers);
}

/** An ErpError of the shared layers as a portal failure (auth keeps its 401 and challenge). */
function fromErpError(err: ErpError): PortalError {
  if (err.status === 401) return new PortalError(err.description, { status: 401, headers: { ...err.headers } });
  return new PortalError(err.description);
}

/**
 * The portal route: one handler for `/WebErpAPI.hal` and `/WebExcellentAPI.hal`. Never throws: every
 * failure becomes an errstr (or the JSON failure of a JSON operation); an unexpected exception answers
 * "Internal error" and goes to the log.
 */
export function createPortalRoute(handlers: readonly PortalHandler[], state: PortalState): RouteHandler<App> {
  const index = new HandlerIndex(handlers);
  return async (req, app) => {
    let json = false;
    let auth: AuthSuccess | undefined;
    let res: AppResponse;
    try {
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      // pick the handler first (its format is the format of the errors), but answer 401 before anything else
      let params = new PortalParams(requestPairs(req, true));
      let selection: Selection;
      try {
        selection = select(index, params);
      } catch (err) {
        if (!(err instanceof PortalError)) throw err;
        selection = { error: err.message };
      }
      json = selection.handler?.json ?? false;
      try {
        auth = app.authenticate(req, { allowBearer: false });
      } catch (err) {
        throw err instanceof ErpError ? fromErpError(err) : err;
      }
      if (method !== 'GET' && method !== 'POST')
        throw new PortalError(`method ${req.method} is not allowed; the portal accepts GET and POST`, {
          status: 405,
          headers: { Allow: 'GET, HEAD, POST' },
        });
      const handler = selection.handler;
      if (!handler) throw new PortalError(selection.error);
      if (handler.readsBody) params = new PortalParams(requestPairs(req, false));
      if (handler.methods && !handler.methods.includes(method as 'GET' | 'POST'))
        throw new PortalError(`${handler.name} takes ${handler.methods.join(' or ')}, not ${req.method}`, {
          status: 405,
          headers: { Allow: handler.methods.join(', ') },
        });
      const company = (() => {
        try {
          return app.company(req, undefined, 'compno');
        } catch (err) {
          throw err instanceof ErpError ? fromErpError(err) : err;
        }
      })();
      const portalcc = params.oneOf('portalcc', ['est', 'lat'] as const);
      let register: string | undefined;
      if (handler.registers) {
        const { operation, param, optional } = handler.registers;
        const value = params.get(param);
        if (value === undefined || value === '') {
          if (!optional) throw new PortalError(`missing required parameter "${param}" (the record register)`);
        } else {
          // a register described as data without a printout answers document with an empty file (issue 21)
          const noPrintout = operation === 'document' && app.store.schema(value)?.behaviour?.printout === false;
          if (!noPrintout) checkOperationRegister(operation, value, portalcc, param);
          register = value;
        }
      } else if (handler.kind === 'list') register = handler.name;
      for (const p of handler.required ?? []) params.require(p);
      const write = app.writeContext(company);
      const ctx: PortalContext = {
        app,
        req,
        company,
        auth,
        params,
        usercode: params.get('usercode') || undefined,
        portalcc,
        register,
        write,
        today: write.today,
        portal: state,
      };
      res = render(req, await handler.handle(ctx));
    } catch (err) {
      if (err instanceof PortalError) res = renderFailure(req, json, err);
      else if (err instanceof ErpError) res = renderFailure(req, json, fromErpError(err));
      else {
        app.log(
          `erpcert refserver: portal internal error on ${req.method} ${req.rawPath}: ${(err as Error)?.stack ?? String(err)}`,
        );
        res = renderFailure(req, json, new PortalError('Internal error'));
      }
    }
    if (auth?.setCookie && res.headers['Set-Cookie'] === undefined) res.headers['Set-Cookie'] = auth.setCookie;
    return res;
  };
}
