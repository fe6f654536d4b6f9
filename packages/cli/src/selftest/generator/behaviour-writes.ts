/**
 * The mutation operators of the behaviour family that change what a write does (issue 28): a write that answers
 * its documented success and changes nothing, one that changes one record or row more than named or the
 * neighbouring one instead, a transition reported and not made or made and undone by the next read.
 */
import type { TransitionBehaviour, WriteBehaviour } from '@erpcert/contract';
import { emptySuccess } from '../mutants-portal.js';
import type { ProxyRequest, ProxyResponse } from '../proxy.js';
import { editRecords, formOf, queryOf, withForm, withQuery } from '../wire.js';
import { base, matching } from './behaviour-operators.js';
import {
  type Forward,
  neighbourKey,
  patchField,
  type RequestOperation,
  readRecord,
  singleKey,
  succeeded,
} from './behaviour-wire.js';
import type { GeneratedMutant } from './generated-mutant.js';

const xml = (body: string): ProxyResponse => ({
  status: 200,
  headers: { 'content-type': 'application/xml; charset=utf-8' },
  body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, 'utf8'),
});

/** The documented success of a portal write that was not made: the operation, upload or conversion result (§2). */
function portalSuccess(operation: string): ProxyResponse {
  if (operation === 'doupload') return xml('<data><res errstr="" uuid="00000000-0000-4000-8000-000000000000"/></data>');
  if (operation.startsWith('create')) return xml('<data><res errstr="" newdata="99999999"/></data>');
  return emptySuccess();
}

/** Headers of a read sent in a write's place: the caller's, without the write body's. */
const asRead = (req: ProxyRequest, url = req.url): ProxyRequest => {
  const { 'content-type': _t, 'content-length': _l, ...headers } = req.headers;
  return { method: 'GET', url, headers, body: Buffer.alloc(0) };
};

/** The register whose record a portal write names (conversions from an order name none: ORVc). */
const recordRegister = (op: RequestOperation) =>
  op.register ?? (op.operation === 'createslinvoicefromorder' ? 'ORVc' : undefined);

/** The portal writes that change the record they name, which a confirmed record refuses ("Record is locked"). */
const CHANGES_RECORD = new Set(['delete', 'deleterow', 'insertrow']);

/**
 * Whether the server would take a portal write at all, as far as a REST read of the record it names tells: the
 * record exists, is not confirmed where the write changes it, and has the rows the id names. A mutant that does
 * nothing answers success only there; elsewhere the server gives its own refusal. True when the register has no
 * REST key to read it by.
 */
async function wouldAccept(req: ProxyRequest, forward: Forward, op: RequestOperation): Promise<boolean> {
  const register = recordRegister(op);
  if (register === undefined || singleKey(register) === undefined) return true;
  const [serNr = '', a, b] = (queryOf(req).get('id') ?? '').split(':');
  const rec = await readRecord(req, forward, register, serNr);
  if (!rec) return false;
  if (CHANGES_RECORD.has(op.operation) && rec.OKFlag === '1') return false;
  const n = rec.rows?.length ?? 0;
  if (op.operation === 'deleterow')
    return (a ?? '').split(',').every((r) => /^\d+$/.test(r) && Number(r) >= 1 && Number(r) <= n);
  if (op.operation === 'insertrow') return /^\d+$/.test(a ?? '') && Number(a) <= n && /^[123]$/.test(b ?? '');
  return true;
}

/** The rows of the record a portal rows request names, or undefined when the register has no REST key or no such record. */
async function rowCount(req: ProxyRequest, forward: Forward, op: RequestOperation): Promise<number | undefined> {
  const register = recordRegister(op);
  if (register === undefined || singleKey(register) === undefined) return undefined;
  const serNr = (queryOf(req).get('id') ?? '').split(':')[0] ?? '';
  return (await readRecord(req, forward, register, serNr))?.rows?.length;
}

/** A write or sub-action that answers its documented success and changes nothing (per register when it has some). */
export function writeDoesNothing(w: WriteBehaviour, register?: string): GeneratedMutant {
  const where = register === undefined ? w.operation : `${w.operation} of ${register}`;
  return {
    ...base(
      'write-does-nothing',
      w,
      `${w.operation}${register ? `:${register}` : ''}`,
      `${w.api} ${where} answers its documented success and changes nothing`,
    ),
    ...(w.api === 'PORTAL'
      ? {
          exchange: async (req: ProxyRequest, forward: Forward) => {
            const op = matching(req, w, register);
            return op && (await wouldAccept(req, forward, op)) ? portalSuccess(w.operation) : undefined;
          },
        }
      : w.operation === 'update'
        ? // the record as it stands, by key, is the envelope a PATCH answers
          { request: (req: ProxyRequest) => (matching(req, w, register) ? asRead(req) : req) }
        : {
            // a create answers an envelope of its register without the record: read one, keep none
            exchange: async (req: ProxyRequest, forward: Forward) => {
              const op = matching(req, w, register);
              if (!op?.register) return undefined;
              const path = req.url.split('?')[0]!;
              const compcode = queryOf(req).get('compcode');
              const res = await forward(asRead(req, `${path}?limit=1${compcode ? `&compcode=${compcode}` : ''}`));
              return res.status === 200 ? editRecords(res, op.register, () => []) : res;
            },
          }),
  };
}

/** The url of `req` with its REST key replaced by `key`. */
function withKey(req: ProxyRequest, op: RequestOperation, key: string): ProxyRequest {
  const [path, query] = req.url.split('?') as [string, string | undefined];
  const base = path.slice(0, path.lastIndexOf(`/${encodeURIComponent(op.key ?? '')}`));
  return { ...req, url: `${base}/${encodeURIComponent(key)}${query === undefined ? '' : `?${query}`}` };
}

/**
 * deleterow's rows with one more beside them, or each moved to its neighbour, within the `n` rows of the record
 * when known; undefined when the record has no row to spill to.
 */
export function spillRows(
  rows: number[],
  variant: 'one-more' | 'neighbour',
  n = Number.MAX_SAFE_INTEGER,
): number[] | undefined {
  const low = Math.min(...rows);
  const high = Math.max(...rows);
  if (variant === 'neighbour') {
    const step = low > 1 ? -1 : 1;
    return high + step <= n ? rows.map((r) => r + step) : undefined;
  }
  const extra = low > 1 ? low - 1 : high + 1;
  return extra <= n && !rows.includes(extra) ? [...rows, extra] : undefined;
}

/**
 * A write that changes one record or row more than the request names (`one-more`), or the neighbouring one instead
 * (`neighbour`): a record beside the named one in key order, a row beside the listed rows, a row inserted after
 * the next row, or inserted twice.
 */
export function writeSpills(
  w: WriteBehaviour,
  variant: 'one-more' | 'neighbour',
  register?: string,
): GeneratedMutant | undefined {
  const what = { record: 'record', rows: 'row', 'after-row': 'row' }[w.names ?? 'record'];
  const where = register === undefined ? w.operation : `${w.operation} of ${register}`;
  // the neighbour instead of the named one breaks the numbering rule where the entry names one, and its own too
  const other = variant === 'neighbour' ? w.neighbourBreaks : undefined;
  const alsoBreaks = [...(w.alsoBreaks ?? []), ...(other !== undefined ? [w.rule] : [])];
  const m = base(
    'write-spills',
    { rule: other ?? w.rule, alsoBreaks },
    `${w.operation}:${variant}${register ? `:${register}` : ''}`,
    variant === 'one-more'
      ? `${w.api} ${where} also changes the ${what} beside the one it names`
      : `${w.api} ${where} changes the neighbouring ${what} instead of the one it names`,
  );
  if (w.names === 'rows')
    return {
      ...m,
      exchange: async (req, forward) => {
        const op = matching(req, w, register);
        const [serNr, list] = (op ? (queryOf(req).get('id') ?? '') : '').split(':');
        if (!op || !list || !/^\d+(,\d+)*$/.test(list)) return undefined;
        const rows = spillRows(list.split(',').map(Number), variant, await rowCount(req, forward, op));
        return rows ? forward(withQuery(req, (q) => q.set('id', `${serNr}:${rows.join(',')}`))) : undefined;
      },
    };
  if (w.names === 'after-row')
    return variant === 'neighbour'
      ? {
          ...m,
          exchange: async (req, forward) => {
            const op = matching(req, w, register);
            const parts = (op ? (queryOf(req).get('id') ?? '') : '').split(':');
            if (!op || parts.length !== 3 || !/^\d+$/.test(parts[1]!)) return undefined;
            const next = Number(parts[1]) + 1;
            if (next > ((await rowCount(req, forward, op)) ?? Number.MAX_SAFE_INTEGER)) return undefined;
            parts[1] = String(next);
            return forward(withQuery(req, (q) => q.set('id', parts.join(':'))));
          },
        }
      : {
          ...m,
          exchange: async (req, forward) => {
            if (!matching(req, w, register)) return undefined;
            const first = await forward(req);
            if (succeeded(first)) await forward(req);
            return first;
          },
        };
  if (w.names !== 'record') return undefined;
  return {
    ...m,
    exchange: async (req, forward) => {
      const op = matching(req, w, register);
      const key = op?.api === 'REST' ? op.key : queryOf(req).get('id');
      if (!op?.register || !key) return undefined;
      const other = await neighbourKey(req, forward, op.register, key);
      if (other === undefined) return undefined;
      const moved =
        op.api === 'REST' ? withKey(req, op, other) : withQuery(req, (q: URLSearchParams) => q.set('id', other));
      if (variant === 'neighbour') return forward(moved);
      const first = await forward(req);
      const ok =
        op.api === 'REST' ? first.status === 200 && !/<error\b|"error"/.test(first.body.toString()) : succeeded(first);
      if (ok) await forward(moved);
      return first;
    },
  };
}

/**
 * A transition reported and not made (`not-made`: the asking form field dropped, or the change undone before the
 * answer), or made and undone by the next read (`undone`: the next GET after it first sets the field back over
 * REST). Undefined where the proxy cannot express it: a change back that the API refuses, a register without a
 * REST key.
 */
export function transitionLost(
  t: TransitionBehaviour,
  variant: 'not-made' | 'undone',
  register: string,
): GeneratedMutant | undefined {
  const m = base(
    'transition-lost',
    t,
    `${t.operation}:${variant}:${register}`,
    variant === 'not-made'
      ? `${t.api} ${t.operation} of ${register} reports ${t.field} ${t.to} and does not make it`
      : `${t.api} ${t.operation} of ${register} makes ${t.field} ${t.to} and the next read undoes it`,
  );
  if (t.trigger !== undefined) {
    // a field the request sets: dropped. Undone is not expressible: a confirmed record refuses every change.
    if (variant === 'undone') return undefined;
    const trigger = t.trigger;
    return {
      ...m,
      request: (req) =>
        matching(req, t, register) && formOf(req).get(trigger) === t.to ? withForm(req, (f) => f.delete(trigger)) : req,
    };
  }
  if (t.from === undefined) return undefined;
  const from = t.from;
  const key = (req: ProxyRequest) => queryOf(req).get('id');
  if (variant === 'not-made')
    return {
      ...m,
      exchange: async (req, forward) => {
        const id = matching(req, t, register) ? key(req) : null;
        if (!id) return undefined;
        const res = await forward(req);
        if (succeeded(res)) await patchField(req, forward, register, id, t.field, from);
        return res;
      },
    };
  const fresh = (): GeneratedMutant => {
    let pending: { req: ProxyRequest; id: string }[] = [];
    return {
      ...m,
      fresh,
      exchange: async (req, forward) => {
        const id = matching(req, t, register) ? key(req) : null;
        if (id) {
          const res = await forward(req);
          if (succeeded(res)) pending.push({ req, id });
          return res;
        }
        if (req.method !== 'GET' || pending.length === 0) return undefined;
        const undo = pending;
        pending = [];
        for (const p of undo) await patchField(p.req, forward, register, p.id, t.field, from);
        return undefined;
      },
    };
  };
  return fresh();
}
