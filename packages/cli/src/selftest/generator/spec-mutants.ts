/**
 * Mutants generated from the specs (issue 18 "From the specs"): for every documented path of every documented
 * response body (contract documented-paths.ts), remove it, rename it, or give it a wrong type or format (a date as
 * DD.MM.YYYY, a number for a string, an enum value in another case, an empty value, JSON null). A mutation the
 * docs allow is no deviation and is not generated: an optional element removed or renamed inside an open parent,
 * a value where the schema constrains nothing. Each mutant breaks the rule that owns its path in specs/rules.yaml
 * (`covers:`), so precision needs no hand-kept table.
 */
import {
  blameOf,
  type CoverIndex,
  coverIndex,
  type DocumentedPath,
  detectXmlBodyKind,
  documentedPaths,
  getRule,
  loadSpec,
  rules,
} from '@erpcert/contract';
import type { ProxyRequest, ProxyResponse } from '../proxy.js';
import { isJson, pathOf, portalAction, restRegister, text, withText } from '../wire.js';
import { editJson, editXml, type PathEdit } from './body-edit.js';
import type { GeneratedMutant } from './generated-mutant.js';

/** The JSON answers of portal actions, by action (portal-action-api.md §4: the JSON operations). */
const PORTAL_JSON_BODY: Readonly<Record<string, string>> = {
  activeeditfields: 'PortalActiveEditFieldsResponse',
  getreportfilters: 'PortalReportFilters',
  windowactions: 'PortalFieldTriggerResponse',
};

/** The documented body an answer is, by the request and the answer (undefined: none the generator knows). */
export function bodyOf(req: ProxyRequest, res: ProxyResponse): string | undefined {
  const rest = /^\/api\/\d+\//.test(pathOf(req));
  if (isJson(res)) {
    if (rest) {
      const register = restRegister(req);
      return register === undefined ? undefined : `${register}Envelope`;
    }
    return PORTAL_JSON_BODY[portalAction(req) ?? ''];
  }
  const detected = detectXmlBodyKind(text(res));
  if (detected === undefined) return undefined;
  // a portal failure of <error> elements alone is the failure shape of portal-result (PortalFailure)
  const kind = detected === 'error-only' && !rest ? 'portal-result' : detected;
  return rest === kind.startsWith('rest-') ? kind : undefined;
}

/** A mutation of one path: its name, the edit, and whether it takes the element away or breaks its value. */
interface Mutation {
  readonly name: string;
  readonly edit: PathEdit;
  readonly failure: 'element' | 'value' | 'null';
  readonly describe: string;
}

const DATE_PATTERN = /\[0-9\]\{4\}-\[0-9\]\{2\}-\[0-9\]\{2\}/;
const swapCase = (s: string) => {
  const out = s.replace(/[A-Za-z]/g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  return out === s ? `X${s}` : out;
};
const dmy = (old: unknown) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(old));
  return m ? `${m[3]}.${m[2]}.${m[1]}` : '31.12.2026';
};

/** The mutations the schema of `p` makes deviations; the ones the docs allow are left out. */
export function mutationsOf(p: DocumentedPath): Mutation[] {
  const out: Mutation[] = [];
  const last = p.path.slice(p.path.lastIndexOf('/') + 1).replace(/^.*:/, '');
  if (p.required) out.push({ name: 'remove', edit: { op: 'remove' }, failure: 'element', describe: 'left out' });
  if (p.required || p.closedParent) {
    const to = last.startsWith('@') ? `${last.slice(1)}X` : `${last}X`;
    out.push({ name: 'rename', edit: { op: 'rename', to }, failure: 'element', describe: `renamed to ${to}` });
  }
  const json = p.format === 'json';
  const scalar = ['string', 'number', 'integer', 'boolean'].includes(p.type ?? '');
  const value = (name: string, v: (old: unknown) => unknown, describe: string, failure: 'value' | 'null' = 'value') =>
    out.push({ name, edit: { op: 'value', value: v }, failure, describe });
  if (p.valueFormat === 'date' || (p.pattern !== undefined && DATE_PATTERN.test(p.pattern)))
    value('date-dmy', dmy, 'a date written DD.MM.YYYY');
  const enumStrings = [...(p.enum ?? []), ...(p.const === undefined ? [] : [p.const])].filter(
    (e) => typeof e === 'string',
  );
  if (enumStrings.length > 0 && enumStrings.some((e) => /[A-Za-z]/.test(e as string)))
    value('enum-case', (old) => swapCase(String(old)), 'an allowed value in another letter case');
  const enumNumbers = (p.enum ?? []).filter((e) => typeof e === 'number') as number[];
  if (enumNumbers.length > 0) {
    const outside = Math.max(...enumNumbers) + 1;
    value('enum-outside', () => (json ? outside : String(outside)), `the value ${outside}, outside the allowed set`);
  }
  if (json && p.type === 'string')
    value(
      'number',
      (old) => (Number.isFinite(Number(old)) && String(old).trim() !== '' ? Number(old) : 1),
      'a number instead of a string',
    );
  if (p.type === 'number' || p.type === 'integer') value('not-a-number', () => 'abc', 'text where a number belongs');
  if (json && p.type === 'boolean') value('boolean-as-text', (old) => String(old), 'a boolean written as a string');
  const emptyRefused =
    (p.minLength ?? 0) > 0 ||
    (p.pattern !== undefined && !new RegExp(p.pattern).test('')) ||
    enumStrings.length > 0 ||
    (!json && (p.type === 'number' || p.type === 'integer')) ||
    (json && p.type !== undefined && p.type !== 'string' && scalar);
  if (emptyRefused && scalar) value('empty', () => '', 'an empty value');
  // an array member (the records, `rows`) is made null itself: nulling each element never shows on an empty list
  if (json && p.array)
    out.push({
      name: 'null',
      edit: { op: 'value', value: () => null, whole: true },
      failure: 'null',
      describe: 'JSON null',
    });
  else if (json && p.type !== undefined) value('null', () => null, 'JSON null', 'null');
  return out;
}

/** The spec-generated mutants; `index` says which rule owns each path (specs/rules.yaml `covers:`). */
export function specMutants(index: CoverIndex = coverIndex(rules)): GeneratedMutant[] {
  const paths = documentedPaths(
    (['record-rest', 'portal-action'] as const).map((name) => ({ name, doc: loadSpec(name) })),
  );
  const out: GeneratedMutant[] = [];
  for (const p of paths) {
    // JSON failures of the portal are answers to requests that failed: the generator mutates successes
    if (p.body === 'PortalJsonFailure') continue;
    const colon = p.path.indexOf(':');
    const steps = p.path.slice(colon + 1).split('/');
    // the XML failure form (PortalFailure) shares data/res/@errstr with the success form of the operation result:
    // its <error> element comes only in failures, and a failure's errstr emptied is the documented success
    // (portal-action-api.md §2 "Result element shapes": "Empty errstr means success"), no deviation of the shape
    const failureOnly = p.schema === 'PortalFailure';
    if (failureOnly && steps[0] === 'error') continue;
    for (const m of mutationsOf(p)) {
      if (failureOnly && m.name === 'empty') continue;
      const rule = blameOf(index, p.path, m.failure);
      const r = rule === undefined ? undefined : getRule(rule);
      if (!r || r.standing === 'unspecified') continue;
      const apply = (body: string) =>
        p.format === 'json' ? editJson(body, steps, m.edit) : editXml(body, steps, m.edit);
      out.push({
        id: `spec:${p.path}:${m.name}`,
        description: `${p.format.toUpperCase()} ${p.body} ${p.path.slice(colon + 1)}: ${m.describe}`,
        breaks: [r.id],
        family: 'spec',
        area: r.area,
        ...(r.observable ? {} : { unobservable: r.why ?? 'observable: false' }),
        response: (req, res) => {
          if (bodyOf(req, res) !== p.body) return res;
          const before = text(res);
          const after = apply(before);
          return after === before ? res : withText(res, after);
        },
      });
    }
  }
  return out;
}
