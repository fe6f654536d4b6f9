/**
 * specs/behaviours.yaml: what the operations do (their parameters, writes, accepted requests, change feeds,
 * transitions and computed fields), each linked to the rule of the catalogue that states it (issue 28). Checked
 * against the catalogue and the OpenAPI specs on load: a broken entry throws a BehaviourCatalogueError naming it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specsDir } from './paths.js';
import { getRule } from './rules.js';
import type { Rule, RuleApi, RuleId } from './rules-types.js';
import { loadSpec } from './specs.js';
import { parseYamlCached } from './yaml-cache.js';

/** What every entry carries: the API, the operation (REST: list, create-form, ...; portal: action, sub-action or list), the rule. */
export interface BehaviourBase {
  readonly api: RuleApi;
  readonly operation: string;
  readonly rule: RuleId;
  /** Rules that state the same behaviour in a combination: a FAIL of one is precise, none is required. */
  readonly alsoBreaks?: readonly RuleId[];
  /**
   * Why no black-box observation can FAIL the rule when this behaviour breaks, quoting the docs (the Kanban response
   * is not shown, §4 rule 14): the mutant leaves the rule `undecided` (a FAIL or the SKIP "no observation reached the
   * case that tells right from wrong", never a PASS) instead of breaking it.
   */
  readonly undecided?: string;
}

/** A documented request parameter and the rule that states what it does. */
export interface ParameterBehaviour extends BehaviourBase {
  readonly name: string;
  /** Where it travels: the query (default) or a member of the JSON request body. */
  readonly in: 'query' | 'body';
  /** Only values matching this regular expression. */
  readonly matches?: string;
}

/** A parameter the docs say is not used (`name`), and the documented one it must not replace (`instead`). */
export interface DecoyBehaviour extends BehaviourBase {
  readonly name: string;
  readonly in: 'query' | 'body';
  readonly instead: string;
}

/** A write or sub-action and the rule that states its effect; `names` is what the request names, if it has a neighbour. */
export interface WriteBehaviour extends BehaviourBase {
  readonly names?: 'record' | 'rows' | 'after-row';
  /**
   * The rule the neighbour-instead variant breaks when it is not this entry's (deleterow's rows each taken one off are
   * a numbering of the rows: PORTAL.ROWS.DELETEROW_ROWS_1_BASED, as the hand-written `deleterow-0-based`); the
   * entry's rule is then among the ones it also breaks.
   */
  readonly neighbourBreaks?: RuleId;
}

/** The requests an `accepts` entry is about (all of the given conditions hold). */
export interface AcceptCondition {
  /** A member of a JSON request record. */
  readonly member?: string;
  /** A record field (form set_field.<field> or a JSON record member), with `value` when given. */
  readonly field?: string;
  readonly value?: string;
  /** The portal id matches this regular expression. */
  readonly id?: string;
  /** A query parameter, matching `matches` when given. */
  readonly param?: string;
  readonly matches?: string;
  /** At least this many distinct query parameters (compcode aside). */
  readonly params?: number;
  /** At least this many records in a JSON body. */
  readonly records?: number;
}

/** A request the docs say is accepted, and the rule that says so. */
export interface AcceptBehaviour extends BehaviourBase {
  readonly when?: AcceptCondition;
}

/** A change feed and the rule of what it reports. */
export interface FeedBehaviour extends BehaviourBase {
  readonly name: 'updates_after' | 'deletes_after';
}

/** A state change an operation makes. */
export interface TransitionBehaviour extends BehaviourBase {
  readonly field: string;
  readonly from?: string;
  readonly to: string;
  /** The form field that asks for it (REST: `set_field.OKFlag`), when a parameter does. */
  readonly trigger?: string;
}

/** A field a field trigger computes. */
export interface ComputedBehaviour extends BehaviourBase {
  readonly register: string;
  readonly part: 'header' | 'rows';
  readonly triggers: readonly string[];
  readonly field: string;
}

/** specs/behaviours.yaml, checked. */
export interface BehaviourCatalogue {
  readonly parameters: readonly ParameterBehaviour[];
  readonly decoys: readonly DecoyBehaviour[];
  readonly writes: readonly WriteBehaviour[];
  readonly accepts: readonly AcceptBehaviour[];
  readonly feeds: readonly FeedBehaviour[];
  readonly transitions: readonly TransitionBehaviour[];
  readonly computed: readonly ComputedBehaviour[];
}

/** An entry of specs/behaviours.yaml that does not hold. */
export class BehaviourCatalogueError extends Error {
  override readonly name = 'BehaviourCatalogueError';
}

type Node = Record<string, unknown>;
const PORTAL_SPEC = 'portal-action';
const REST_SPEC = 'record-rest';

/** `#/components/parameters/x` -> its name; an inline parameter -> its name. */
function parameterName(doc: Node, p: Node): string | undefined {
  const ref = p.$ref;
  if (typeof ref === 'string') {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((n, k) => (n as Node | undefined)?.[k], doc) as Node | undefined;
    return typeof target?.name === 'string' ? target.name : undefined;
  }
  return typeof p.name === 'string' ? p.name : undefined;
}

/** The REST operation of an operationId and method (listIVVc -> list; a POST is both creates). */
function restOperations(operationId: string, method: string): string[] {
  if (operationId === 'apiRoot') return ['root'];
  if (operationId.startsWith('list')) return ['list'];
  if (method === 'post') return ['create-form', 'create-json'];
  if (method === 'patch') return ['update'];
  if (method === 'get') return ['get-by-key'];
  return [];
}

/** The operation of a portal path's `x-erpcert-dispatch`: the action, the sub-action of action=action, or list. */
function portalOperation(dispatch: Node | undefined): string | undefined {
  if (!dispatch) return undefined;
  if (dispatch.action === 'action') return typeof dispatch.register === 'string' ? dispatch.register : undefined;
  if (typeof dispatch.action === 'string') return dispatch.action;
  return typeof dispatch.register === 'string' ? 'list' : undefined;
}

/**
 * Every operation of the two OpenAPI specs with the request parameters the spec documents for it (query and path
 * parameters; members of a JSON request body as `body:<name>`). Keyed `<API> <operation>`; `filter.*` stands for
 * the filter parameters of REST lists.
 */
export function specOperations(): ReadonlyMap<string, ReadonlySet<string>> {
  const out = new Map<string, Set<string>>();
  const add = (key: string, names: readonly string[]) => {
    const set = out.get(key) ?? new Set<string>();
    for (const n of names) set.add(n.startsWith('filter.') ? 'filter.*' : n);
    out.set(key, set);
  };
  for (const [api, spec] of [
    ['REST', REST_SPEC],
    ['PORTAL', PORTAL_SPEC],
  ] as const) {
    const doc = loadSpec(spec) as unknown as Node;
    for (const item of Object.values((doc.paths ?? {}) as Record<string, Node>))
      for (const [method, op] of Object.entries(item) as [string, Node][]) {
        if (typeof op !== 'object' || op === null || typeof op.operationId !== 'string') continue;
        const names = ((op.parameters ?? []) as Node[]).flatMap((p) => parameterName(doc, p) ?? []);
        const body = bodyMembers(doc, op);
        const ops =
          api === 'REST'
            ? restOperations(op.operationId, method)
            : [portalOperation(op['x-erpcert-dispatch'] as Node | undefined) ?? []].flat();
        for (const o of ops) add(`${api} ${o}`, [...names, ...body.map((b) => `body:${b}`)]);
      }
  }
  return out;
}

/** The members of the JSON request body schema of an operation (one level, through a $ref). */
function bodyMembers(doc: Node, op: Node): string[] {
  const content = ((op.requestBody as Node | undefined)?.content ?? {}) as Record<string, Node>;
  const out: string[] = [];
  for (const [type, media] of Object.entries(content)) {
    if (!/json/.test(type)) continue;
    let schema = media.schema as Node | undefined;
    if (typeof schema?.$ref === 'string')
      schema = schema.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((n, k) => (n as Node | undefined)?.[k], doc) as Node | undefined;
    out.push(...Object.keys((schema?.properties ?? {}) as Node));
  }
  return out;
}

const KINDS = ['parameters', 'decoys', 'writes', 'accepts', 'feeds', 'transitions', 'computed'] as const;

function check(entry: Node, where: string, ops: ReadonlyMap<string, ReadonlySet<string>>): Rule {
  const fail = (why: string) => {
    throw new BehaviourCatalogueError(`specs/behaviours.yaml ${where}: ${why}`);
  };
  if (entry.api !== 'REST' && entry.api !== 'PORTAL') fail(`api must be REST or PORTAL, got ${String(entry.api)}`);
  const rule = getRule(String(entry.rule));
  if (!rule) return fail(`no rule ${String(entry.rule)} in specs/rules.yaml`) as never;
  if (rule.api !== entry.api) fail(`${rule.id} is a rule of the ${rule.api} API, the entry of ${String(entry.api)}`);
  if (rule.standing === 'unspecified') fail(`${rule.id} is unspecified: no mutant may break it`);
  if (!rule.observable) fail(`${rule.id} is not observable: no black-box test can see it broken`);
  const op = String(entry.operation);
  const params = ops.get(`${entry.api} ${op}`);
  if (!params) fail(`no operation ${op} of the ${String(entry.api)} API in the OpenAPI specs`);
  if (rule.appliesTo && !rule.appliesTo.includes(op)) fail(`${rule.id} does not apply to ${op} (appliesTo)`);
  for (const also of (entry.alsoBreaks ?? []) as string[]) if (!getRule(also)) fail(`alsoBreaks: no rule ${also}`);
  if (entry.neighbourBreaks !== undefined && !getRule(String(entry.neighbourBreaks)))
    fail(`neighbourBreaks: no rule ${String(entry.neighbourBreaks)}`);
  const named = (name: unknown, inBody: boolean) => {
    const key = inBody ? `body:${String(name)}` : String(name);
    if (!params?.has(key)) fail(`${String(name)} is not a documented ${inBody ? 'body member' : 'parameter'} of ${op}`);
  };
  if (where.startsWith('parameters')) named(entry.name, entry.in === 'body');
  if (where.startsWith('decoys')) {
    // the decoy is, by definition, not documented for the operation; the one it stands in for is
    if (entry.in !== 'body' && params?.has(String(entry.name))) fail(`${String(entry.name)} is documented for ${op}`);
    if (entry.instead !== 'register') named(entry.instead, false);
  }
  if (where.startsWith('feeds')) named(entry.name, false);
  if (typeof entry.matches === 'string') new RegExp(entry.matches);
  if (entry.undecided !== undefined && (typeof entry.undecided !== 'string' || entry.undecided.trim() === ''))
    fail('undecided must be the reason, quoting the docs, why no observation can FAIL the rule');
  if (where.startsWith('computed')) {
    if (rule.registers && !rule.registers.includes(String(entry.register)))
      fail(`${rule.id} is not about register ${String(entry.register)}`);
    if (!Array.isArray(entry.triggers) || entry.triggers.length === 0) fail('triggers must be a non-empty list');
  }
  return rule;
}

/** Reads and checks specs/behaviours.yaml (or `file`). */
export function loadBehaviours(file: string = join(specsDir, 'behaviours.yaml')): BehaviourCatalogue {
  const doc = parseYamlCached(readFileSync(file, 'utf8')) as Node;
  const ops = specOperations();
  const out: Record<string, Node[]> = {};
  for (const kind of KINDS) {
    const list = (doc[kind] ?? []) as Node[];
    if (!Array.isArray(list)) throw new BehaviourCatalogueError(`specs/behaviours.yaml: ${kind} must be a list`);
    out[kind] = list.map((e, i) => {
      check(e, `${kind}[${i}] (${String(e.rule)})`, ops);
      return kind === 'parameters' || kind === 'decoys' ? { in: 'query', ...e } : e;
    });
  }
  return out as unknown as BehaviourCatalogue;
}

let cached: BehaviourCatalogue | undefined;
/** specs/behaviours.yaml, loaded once per process. */
export function behaviours(): BehaviourCatalogue {
  cached ??= loadBehaviours();
  return cached;
}
