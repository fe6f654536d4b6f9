/**
 * The mutation operators of the behaviour family that change what a request asks for or what an answer reports
 * (issue 28): a documented parameter ignored, an unused parameter used instead, an accepted request refused, a
 * change missing from a feed, a computed field that keeps the value sent. Each takes one entry of
 * specs/behaviours.yaml and breaks its rule.
 */
import {
  type AcceptBehaviour,
  type ComputedBehaviour,
  type DecoyBehaviour,
  type FeedBehaviour,
  getRule,
  type ParameterBehaviour,
} from '@erpcert/contract';
import type { ProxyRequest } from '../proxy.js';
import { isJson, queryOf, text, withQuery, withText } from '../wire.js';
import { jsonRecords, operationOf, type RequestOperation, refusalOf, sentField } from './behaviour-wire.js';
import type { BehaviourOperator, GeneratedMutant } from './generated-mutant.js';

/** What every behaviour mutant of an entry carries. */
export function base(
  operator: BehaviourOperator,
  entry: { rule: string; alsoBreaks?: readonly string[]; undecided?: string },
  detail: string,
  description: string,
): Omit<GeneratedMutant, 'request' | 'response' | 'exchange'> {
  const rule = getRule(entry.rule)!;
  return {
    id: `behaviour:${operator}:${rule.id}:${detail}`,
    description,
    // a behaviour no observation can FAIL (behaviours.yaml `undecided`, with the docs' reason) must not PASS either
    ...(entry.undecided === undefined ? { breaks: [rule.id] } : { breaks: [], undecided: [rule.id] }),
    ...(entry.alsoBreaks && entry.alsoBreaks.length > 0 ? { alsoBreaks: entry.alsoBreaks } : {}),
    family: 'behaviour',
    operator,
    area: rule.area,
  };
}

/** The request's operation when it is the entry's (and of `register`, when given). */
export function matching(
  req: ProxyRequest,
  entry: { api: string; operation: string },
  register?: string,
): RequestOperation | undefined {
  const op = operationOf(req);
  if (!op || op.api !== entry.api || op.operation !== entry.operation) return undefined;
  return register === undefined || op.register === register ? op : undefined;
}

type Json = Record<string, unknown>;

/** The plain JSON body of a request (an encrypted field trigger is not plain), or undefined. */
export function jsonBody(req: ProxyRequest): Json | undefined {
  if (queryOf(req).get('encrypted') === 'true') return undefined;
  try {
    const v: unknown = JSON.parse(req.body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

const withJson = (req: ProxyRequest, body: unknown): ProxyRequest => ({
  ...req,
  body: Buffer.from(JSON.stringify(body), 'utf8'),
});

/** A documented parameter dropped before the server sees it (on the rule's registers when it names some). */
export function parameterIgnored(p: ParameterBehaviour, register?: string): GeneratedMutant {
  const where = register === undefined ? p.operation : `${p.operation} of ${register}`;
  const matches = p.matches === undefined ? undefined : new RegExp(p.matches);
  const names = (q: URLSearchParams) =>
    [...new Set(q.keys())].filter((k) =>
      p.name === 'filter.*' ? k.startsWith('filter.') : k === p.name && (!matches || matches.test(q.get(k) ?? '')),
    );
  return {
    ...base(
      'parameter-ignored',
      p,
      `${p.operation}.${p.name}${register ? `:${register}` : ''}`,
      `${p.api} ${where} ignores ${p.in === 'body' ? 'the body member ' : ''}${p.name}${p.matches ? ` (values ${p.matches})` : ''}`,
    ),
    request: (req) => {
      if (!matching(req, p, register)) return req;
      if (p.in === 'body') {
        const body = jsonBody(req);
        if (!body || !(p.name in body)) return req;
        const { [p.name]: _dropped, ...rest } = body;
        return withJson(req, rest);
      }
      const drop = names(queryOf(req));
      return drop.length === 0
        ? req
        : withQuery(req, (q) => {
            for (const n of drop) q.delete(n);
          });
    },
  };
}

/** A parameter the docs say is not used, used instead of the documented one. */
export function decoyUsed(d: DecoyBehaviour): GeneratedMutant {
  return {
    ...base(
      'decoy-used',
      d,
      `${d.operation}.${d.name}`,
      `${d.api} ${d.operation} takes ${d.instead === 'register' ? 'the register' : d.instead} from ${d.name} when one is sent`,
    ),
    request: (req) => {
      const op = matching(req, d);
      if (!op) return req;
      if (d.in === 'query') {
        const decoy = queryOf(req).get(d.name);
        return decoy === null || decoy === queryOf(req).get(d.instead)
          ? req
          : withQuery(req, (q) => q.set(d.instead, decoy));
      }
      // a JSON record member naming the register: the server files the records under it, not under the URL's
      const named = jsonRecords(req)?.find((r) => typeof r[d.name] === 'string')?.[d.name] as string | undefined;
      if (named === undefined || named === op.register || op.register === undefined) return req;
      const url = req.url.replace(`/${encodeURIComponent(op.register)}`, `/${encodeURIComponent(named)}`);
      return { ...req, url };
    },
  };
}

/** Whether a request is one an `accepts` entry is about. */
export function accepted(req: ProxyRequest, when: AcceptBehaviour['when']): boolean {
  if (!when) return true;
  const q = queryOf(req);
  if (when.member !== undefined && !jsonRecords(req)?.some((r) => when.member! in r)) return false;
  if (when.field !== undefined) {
    const v = sentField(req, when.field);
    if (v === undefined || (when.value !== undefined && v !== when.value)) return false;
  }
  if (when.id !== undefined && !new RegExp(when.id).test(q.get('id') ?? '')) return false;
  if (when.param !== undefined) {
    const v = q.get(when.param);
    if (v === null || (when.matches !== undefined && !new RegExp(when.matches).test(v))) return false;
  }
  if (when.params !== undefined && new Set([...q.keys()].filter((k) => k !== 'compcode')).size < when.params)
    return false;
  if (when.records !== undefined && (jsonRecords(req)?.length ?? 0) < when.records) return false;
  return true;
}

/** The words of a condition, for ids and descriptions. */
const conditionText = (w: AcceptBehaviour['when']) =>
  w === undefined
    ? ''
    : Object.entries(w)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',');

/** A request the docs say is accepted, refused with the documented error shape. */
export function acceptedRefused(a: AcceptBehaviour): GeneratedMutant {
  const cond = conditionText(a.when);
  return {
    ...base(
      'accepted-refused',
      a,
      a.operation,
      `${a.api} ${a.operation}${cond ? ` with ${cond}` : ''} is refused with the documented error shape`,
    ),
    request: (req) => {
      const op = matching(req, a);
      return op && accepted(req, a.when) ? refusalOf(req, op, `${a.operation} is not supported here`) : req;
    },
  };
}

/** The `@sequence` of a JSON record or the `sequence` attribute of an XML record element, as a number. */
const sequenceOf = (record: string): number => Number(/\bsequence"?\s*[:=]\s*"(\d+)"/.exec(record)?.[1] ?? -1);

/** A change feed that forgets the latest change it should report (the record with the highest sequence). */
export function feedForgets(f: FeedBehaviour): GeneratedMutant {
  return {
    ...base('feed-forgets', f, f.name, `${f.name} leaves the latest change out of its answer`),
    response: (req, res) => {
      const op = matching(req, f);
      if (!op || op.register === undefined || !queryOf(req).has(f.name) || res.status !== 200) return res;
      const register = op.register;
      const body = text(res);
      let records: string[];
      let rebuild: (kept: string[]) => string;
      if (isJson(res)) {
        let doc: { data?: Record<string, unknown> };
        try {
          doc = JSON.parse(body);
        } catch {
          return res;
        }
        const list = doc.data?.[register];
        if (!Array.isArray(list) || list.length === 0) return res;
        records = list.map((r) => JSON.stringify(r));
        rebuild = (kept) => {
          doc.data![register] = kept.map((k) => JSON.parse(k));
          return JSON.stringify(doc);
        };
      } else {
        const re = new RegExp(`<${register}\\b[^>]*?(?:/>|>[\\s\\S]*?</${register}>)`, 'g');
        const found = [...body.matchAll(re)];
        if (found.length === 0) return res;
        records = found.map((m) => m[0]);
        const start = found[0]!.index!;
        const end = found.at(-1)!.index! + found.at(-1)![0].length;
        rebuild = (kept) => body.slice(0, start) + kept.join('') + body.slice(end);
      }
      const latest = records.reduce((best, r, i) => (sequenceOf(r) > sequenceOf(records[best]!) ? i : best), 0);
      const kept = records.filter((_r, i) => i !== latest);
      // nothing left to report: deletes_after answers 204 with an empty body, as the server does
      if (kept.length === 0 && f.name === 'deletes_after') return { status: 204, headers: {}, body: Buffer.alloc(0) };
      return withText(res, rebuild(kept));
    },
  };
}

/** A computed field that keeps the value the trigger request sent, for one trigger field. */
export function computedKept(c: ComputedBehaviour, trigger: string): GeneratedMutant {
  return {
    ...base(
      'computed-kept',
      c,
      `${c.register}.${trigger}->${c.field}`,
      `windowactions on ${c.register} ${c.part === 'rows' ? 'row ' : ''}${trigger} leaves ${c.field} as sent`,
    ),
    response: (req, res) => {
      const body = matching(req, c, c.register) ? jsonBody(req) : undefined;
      if (!body || body.fieldname !== trigger) return res;
      const rowindex = Number(body.rowindex ?? -1);
      if ((c.part === 'rows') !== rowindex >= 0) return res;
      const values = (body.values ?? {}) as { header?: Json; rows?: Json[] };
      const sentRecord = c.part === 'rows' ? values.rows?.[rowindex] : values.header;
      const sent = String(sentRecord?.[c.field] ?? '');
      try {
        const answer = JSON.parse(text(res)) as { record?: Json & { rows?: Json[] } };
        const target = c.part === 'rows' ? answer.record?.rows?.[rowindex] : answer.record;
        if (!target || !(c.field in target) || String(target[c.field]) === sent) return res;
        target[c.field] = sent;
        return withText(res, JSON.stringify(answer));
      } catch {
        return res;
      }
    },
  };
}
