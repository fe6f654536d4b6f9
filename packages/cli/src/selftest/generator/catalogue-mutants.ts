/**
 * Mutants generated from the catalogue (issue 18 "From the catalogue"): for every rule that lists members, one
 * mutant per member that takes that member's behaviour away, and breaks that rule:
 * - served registers (a portal `*REGISTERS` rule's `registers`): the register is refused for the rule's operations;
 * - searched fields (`params.fields` of a lookup): the field is not searched (a result found only through it is dropped);
 * - allowed values (`params.values` of a rule that owns a value by `covers: ...#value`): the value is answered as one
 *   outside the set; `params.values` of a request parameter named like the rule (`order`, `portalcc`): the member is
 *   answered as if another member had been asked.
 * - trigger fields (`params.header`, `params.rows` of a windowactions rule): the field is refused as a trigger (the
 *   JSON failure of §7) when a plain-JSON request names it, as a header field or as a row field.
 * Members the generator cannot take away through a proxy (codes, formulas, allow-list formats) are listed by
 * {@link notGenerated}, with the reason.
 */
import {
  rules as catalogue,
  compileCoverPattern,
  type DocumentedPath,
  documentedPaths,
  loadSpec,
  type Rule,
} from '@erpcert/contract';
import { refusal } from '../mutants-portal.js';
import type { ProxyRequest } from '../proxy.js';
import { editRecords, isPortal, portalAction, queryOf, text, withQuery, withText } from '../wire.js';
import { editJson, editXml } from './body-edit.js';
import type { GeneratedMutant } from './generated-mutant.js';
import { bodyOf } from './spec-mutants.js';

/** The record register a portal request names: `regname` of a sub-action, else `register`, `regname`, `vcname`. */
export function requestRegister(req: ProxyRequest): string | undefined {
  const q = queryOf(req);
  if (q.get('action') === 'action') return q.get('regname') ?? undefined;
  return q.get('register') ?? q.get('regname') ?? q.get('vcname') ?? undefined;
}

const base = (r: Rule, member: string) => ({
  id: `catalogue:${r.id}:${member}`,
  breaks: [r.id],
  family: 'catalogue' as const,
  area: r.area,
  ...(r.observable ? {} : { unobservable: r.why ?? 'observable: false' }),
});

/**
 * The register a JSON operation names in its body (portal §2): `vcname` of a plain windowactions request, of the
 * base64 JSON `{vcname, id}` of activeeditfields; undefined for another request or a body it cannot read.
 */
export function bodyRegister(req: ProxyRequest): string | undefined {
  const action = portalAction(req);
  if (action === 'windowactions') {
    const vcname = triggerRequest(req)?.vcname;
    return typeof vcname === 'string' ? vcname : undefined;
  }
  if (action !== 'activeeditfields') return undefined;
  try {
    const body = JSON.parse(Buffer.from(req.body.toString('utf8').trim(), 'base64').toString('utf8')) as unknown;
    const vcname = body !== null && typeof body === 'object' ? (body as { vcname?: unknown }).vcname : undefined;
    return typeof vcname === 'string' ? vcname : undefined;
  } catch {
    return undefined;
  }
}

/** The JSON failure of a JSON operation (portal §2 "Field-trigger response body": success false). */
const jsonRefusal = (why: string) => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(JSON.stringify({ success: false, res: false, messages: [{ description: why }] }), 'utf8'),
});

function registerRefused(r: Rule, register: string): GeneratedMutant {
  const ops = new Set(r.appliesTo ?? []);
  return {
    ...base(r, register),
    description: `${[...ops].join(', ')} refuses register ${register}`,
    request: (req) => {
      if (!isPortal(req) || !ops.has(portalAction(req) ?? '')) return req;
      // the JSON operations name their register in the body and fail with a JSON answer
      const inBody = bodyRegister(req);
      if (inBody !== undefined) return inBody === register ? jsonRefusal(`Register ${register} is not supported`) : req;
      return requestRegister(req) === register ? refusal(`Register ${register} is not supported`) : req;
    },
  };
}

function fieldNotSearched(r: Rule, field: string, fields: readonly string[]): GeneratedMutant {
  const others = fields.filter((f) => f !== field);
  const registers = new Set(r.registers ?? []);
  const ops = new Set(r.appliesTo ?? []);
  return {
    ...base(r, field),
    description: `${[...ops].join(', ')} of ${[...registers].join(', ')} does not search ${field}`,
    response: (req, res) => {
      const register = queryOf(req).get('register') ?? '';
      if (!ops.has(portalAction(req) ?? '') || !registers.has(register)) return res;
      const terms = (queryOf(req).get('id') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      if (terms.length === 0) return res;
      let dropped = false;
      const out = editRecords(res, register, (records) =>
        records.filter((rec) => {
          const keep = terms.every((t) => others.some((f) => rec.fields(f).toLowerCase().includes(t)));
          dropped ||= !keep;
          return keep;
        }),
      );
      return dropped ? out : res;
    },
  };
}

/** The plain-JSON windowactions request body, or undefined (encrypted, not JSON, another action). */
function triggerRequest(req: ProxyRequest): Record<string, unknown> | undefined {
  if (portalAction(req) !== 'windowactions' || queryOf(req).get('encrypted') === 'true') return undefined;
  try {
    const body = JSON.parse(req.body.toString('utf8')) as unknown;
    return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function triggerRefused(r: Rule, field: string, part: 'header' | 'rows'): GeneratedMutant {
  const registers = new Set(r.registers ?? []);
  // the rules of what that trigger does (IVVc CustCode loads the customer's defaults; INVc Volume from Width)
  // break with it: a trigger rule of the same register whose statement names the field
  const named = new RegExp(`\\b${field.replace(/[^A-Za-z0-9_]/g, '')}\\b`);
  const effects = catalogue
    .filter(
      (x) =>
        x.id !== r.id &&
        x.appliesTo?.includes('windowactions') &&
        x.registers?.some((reg) => registers.has(reg)) &&
        named.test(`${x.title} ${x.quote} ${JSON.stringify(x.params ?? {})}`),
    )
    .map((x) => x.id);
  return {
    ...base(r, `${part}.${field}`),
    ...(effects.length > 0 ? { alsoBreaks: effects } : {}),
    description: `windowactions refuses ${part === 'header' ? 'header' : 'row'} field ${field} of ${[...registers].join(', ')} as a trigger`,
    request: (req) => {
      const t = triggerRequest(req);
      const vcname = t?.vcname ?? queryOf(req).get('vcname');
      if (!t || !registers.has(String(vcname)) || t.fieldname !== field) return req;
      const row = Number(t.rowindex ?? -1);
      if ((part === 'header') !== row < 0) return req;
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from(
          JSON.stringify({ success: false, res: false, messages: [{ description: `${field} has no trigger` }] }),
          'utf8',
        ),
      };
    },
  };
}

let pathsCache: readonly DocumentedPath[] | undefined;
const allPaths = () =>
  (pathsCache ??= documentedPaths(
    (['record-rest', 'portal-action'] as const).map((name) => ({ name, doc: loadSpec(name) })),
  ));

function valueOutsideSet(r: Rule, value: string, patterns: readonly string[]): GeneratedMutant {
  const compiled = patterns.map((p) => compileCoverPattern(p));
  const targets = allPaths().filter((p) => compiled.some((c) => c.test(p.path)));
  const outside = `${value}9`;
  return {
    ...base(r, value),
    description: `the value ${value} is answered as ${outside}, outside the allowed set`,
    response: (req, res) => {
      const body = bodyOf(req, res);
      const mine = targets.filter((p) => p.body === body);
      if (mine.length === 0) return res;
      const before = text(res);
      let after = before;
      for (const p of mine) {
        const steps = p.path.slice(p.path.indexOf(':') + 1).split('/');
        const edit = { op: 'value' as const, value: (old: unknown) => (String(old) === value ? outside : old) };
        after = p.format === 'json' ? editJson(after, steps, edit) : editXml(after, steps, edit);
      }
      return after === before ? res : withText(res, after);
    },
  };
}

function parameterIgnored(
  r: Rule,
  value: string,
  values: readonly string[],
  names: readonly string[],
): GeneratedMutant {
  const other = values.find((v) => v !== value)!;
  const ops = new Set(r.appliesTo ?? []);
  // rules that hold only for this member (`params.portalcc: est`) break with it: FAILing them is precise
  const dependent = catalogue
    .filter((x) => x.id !== r.id && names.some((n) => String(x.params?.[n] ?? '') === value))
    .map((x) => x.id);
  // a member carried as a part of the id (`params.idPart`: insertrow id {SerNr}:{afterRow}:{rowType}, portal §2
  // "Identifier formats") is edited there: no parameter of the rule's name is ever sent
  const idPart = typeof r.params?.idPart === 'number' ? r.params.idPart - 1 : undefined;
  return {
    ...base(r, value),
    ...(dependent.length > 0 ? { alsoBreaks: dependent } : {}),
    description:
      idPart === undefined
        ? `${names[0]}=${value} is answered as ${names[0]}=${other}`
        : `an id whose part ${idPart + 1} is ${value} is answered as if it were ${other}`,
    request: (req) => {
      if (!isPortal(req) || (ops.size > 0 && !ops.has(portalAction(req) ?? ''))) return req;
      if (idPart !== undefined) {
        const parts = (queryOf(req).get('id') ?? '').split(':');
        if (parts[idPart] !== value) return req;
        parts[idPart] = other;
        return withQuery(req, (q) => q.set('id', parts.join(':')));
      }
      const name = names.find((n) => queryOf(req).get(n) === value);
      return name === undefined ? req : withQuery(req, (q) => q.set(name, other));
    },
  };
}

/** The parameter names a values rule may be about: its name, and the last word of it (`INSERTROW_ROWTYPE` -> rowtype). */
const parameterNames = (r: Rule) => {
  const last = r.id.split('.').at(-1)!.toLowerCase();
  return [...new Set([last, last.split('_').at(-1)!])];
};

/** Rules with members that no catalogue mutant takes away, with the reason (README "Generated mutants"). */
export function notGenerated(list: readonly Rule[] = catalogue): { rule: string; reason: string }[] {
  const made = new Set(catalogueMutants(list).map((m) => m.breaks[0]));
  return list
    .filter((r) => r.standing !== 'unspecified' && !made.has(r.id))
    .flatMap((r) => {
      const lists = Object.entries(r.params ?? {}).filter(([, v]) => Array.isArray(v));
      if (lists.length === 0) return [];
      const what = lists.map(([k]) => k).join(', ');
      return [
        {
          rule: r.id,
          reason: `members in params.${what}: no proxy edit takes one away (JSON request body, formula or not a wire value)`,
        },
      ];
    });
}

/** The catalogue-generated mutants, one per member. */
export function catalogueMutants(list: readonly Rule[] = catalogue): GeneratedMutant[] {
  const out: GeneratedMutant[] = [];
  for (const r of list) {
    if (r.standing === 'unspecified') continue;
    if (r.api === 'PORTAL' && /REGISTERS$/.test(r.id) && r.registers && r.appliesTo)
      for (const register of r.registers) out.push(registerRefused(r, register));
    const fields = r.params?.fields;
    if (Array.isArray(fields) && r.appliesTo?.includes('pastespecial'))
      for (const f of fields as readonly string[]) out.push(fieldNotSearched(r, f, fields as readonly string[]));
    if (r.appliesTo?.includes('windowactions') && r.registers)
      for (const part of ['header', 'rows'] as const) {
        const members = r.params?.[part];
        if (Array.isArray(members)) for (const f of members as readonly string[]) out.push(triggerRefused(r, f, part));
      }
    const values = r.params?.values;
    if (Array.isArray(values) && values.length > 1) {
      const members = (values as readonly (string | number)[]).map(String);
      const valuePatterns = (r.covers ?? []).filter((c) => c.endsWith('#value')).map((c) => c.slice(0, -6));
      for (const v of members)
        out.push(
          valuePatterns.length > 0
            ? valueOutsideSet(r, v, valuePatterns)
            : parameterIgnored(r, v, members, parameterNames(r)),
        );
    }
  }
  return out;
}
