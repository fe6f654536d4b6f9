/**
 * Paths into documented response bodies, and the `covers:` patterns of specs/rules.yaml that say which rule
 * states each path (issue 18 "Rules own the parts of bodies"). The syntax is defined once, in the header of
 * specs/rules.yaml:
 *
 *   path    = body ":" step *( "/" step )
 *   body    = an XSD kind of specs/xsd (`rest-envelope`, `portal-list`, ...) for an XML body, or the name of
 *             the OpenAPI component schema of a JSON body (`IVVcEnvelope`, `PortalActiveEditFieldsResponse`)
 *   step    = an element or member name, `@name` for an XML attribute (JSON members keep their own `@`);
 *             array items add no step, a wrapped XML array adds its wrapper and its item element
 *   pattern = a path in which `*` stands for any run of characters inside one step or the body name, and a
 *             step `**` for any number of steps; a trailing `#value` makes the pattern own only the value of
 *             the path (its type, format, allowed values), not its presence or name; a trailing `#null`
 *             only a JSON null there
 */

import { escapeRegExp } from './escape-regexp.js';

/** A `covers:` entry that cannot be used. */
export class BodyPathPatternError extends Error {
  override readonly name = 'BodyPathPatternError';
}

/** What part of a path a pattern owns: the whole element or member, or only its value. */
export type CoverAspect = 'element' | 'value' | 'null';

/** One compiled `covers:` pattern. */
export interface CoverPattern {
  readonly source: string;
  readonly aspect: CoverAspect;
  /** Specificity: fewer `**`, then fewer `*`, then more literal characters win (see {@link compareSpecificity}). */
  readonly deepWildcards: number;
  readonly wildcards: number;
  readonly literals: number;
  readonly test: (path: string) => boolean;
}

const STEP = /^(?:\*\*|@?[A-Za-z0-9_.*-]+|@\*)$/;
const BODY = /^[A-Za-z0-9*-]+$/;

/** Compiles one `covers:` entry; throws {@link BodyPathPatternError} for an entry outside the syntax. */
export function compileCoverPattern(entry: string): CoverPattern {
  const aspect: CoverAspect = entry.endsWith('#value') ? 'value' : entry.endsWith('#null') ? 'null' : 'element';
  const source = aspect === 'element' ? entry : entry.slice(0, -`#${aspect}`.length);
  const colon = source.indexOf(':');
  if (colon <= 0) throw new BodyPathPatternError(`${JSON.stringify(entry)}: expected <body>:<step>/<step>...`);
  const body = source.slice(0, colon);
  const steps = source.slice(colon + 1).split('/');
  if (!BODY.test(body)) throw new BodyPathPatternError(`${JSON.stringify(entry)}: body ${JSON.stringify(body)}`);
  const bad = steps.find((s) => !STEP.test(s) || (s.includes('**') && s !== '**'));
  if (bad !== undefined) throw new BodyPathPatternError(`${JSON.stringify(entry)}: step ${JSON.stringify(bad)}`);
  const one = (s: string) => s.split('*').map(escapeRegExp).join('[^/:]*');
  let re = `^${one(body)}:`;
  steps.forEach((s, i) => {
    if (s === '**') re += i === steps.length - 1 ? '.*' : '(?:[^/]+/)*';
    else re += one(s) + (i === steps.length - 1 ? '' : '/');
  });
  const regex = new RegExp(`${re}$`);
  const stars = (source.match(/\*/g) ?? []).length;
  const deep = steps.filter((s) => s === '**').length;
  return Object.freeze({
    source: entry,
    aspect,
    deepWildcards: deep,
    wildcards: stars - 2 * deep,
    literals: source.replace(/\*/g, '').length,
    test: (path: string) => regex.test(path),
  });
}

/** Negative when `a` is more specific than `b`, 0 when neither is. */
export function compareSpecificity(a: CoverPattern, b: CoverPattern): number {
  return a.deepWildcards - b.deepWildcards || a.wildcards - b.wildcards || b.literals - a.literals;
}

/** A rule's patterns, for {@link ownersOf}. */
export interface CoveringRule {
  readonly id: string;
  readonly covers?: readonly string[];
}

/**
 * Who owns a path. `element`: the most specific element pattern (the rule that states the element or member:
 * its presence, its name and, unless a more specific pattern claims it, its value). `value`: the most specific
 * element or `#value` pattern, `#value` winning a tie (the rule blamed for a wrong type, format or value).
 * `null`: the most specific pattern of any aspect, `#null` then `#value` winning a tie (the rule blamed for a
 * JSON null).
 */
export interface PathOwners {
  readonly element?: string;
  readonly value?: string;
  readonly null?: string;
  /** Rules tied at the top specificity for an aspect: the catalogue is ambiguous there. */
  readonly ties: readonly string[];
}

/** An index of the `covers:` patterns of a catalogue. */
export interface CoverIndex {
  owners(path: string): PathOwners;
  /** Every pattern, with its rule. */
  readonly patterns: readonly { readonly rule: string; readonly pattern: CoverPattern }[];
}

type Hit = { readonly rule: string; readonly pattern: CoverPattern };

/** The single rule at the top of `hits` (ordered by `order`), or the tie. */
function top(hits: Hit[], order: (a: Hit, b: Hit) => number): { owner?: string; ties: string[] } {
  if (hits.length === 0) return { ties: [] };
  hits.sort(order);
  const first = hits[0]!;
  const rulesAtTop = [...new Set(hits.filter((h) => order(h, first) === 0).map((h) => h.rule))];
  return rulesAtTop.length === 1 ? { owner: rulesAtTop[0]!, ties: [] } : { ties: rulesAtTop };
}

/** Builds the index of `rules`' `covers:` patterns. */
export function coverIndex(rules: readonly CoveringRule[]): CoverIndex {
  const patterns: Hit[] = rules.flatMap((r) =>
    (r.covers ?? []).map((c) => ({ rule: r.id, pattern: compileCoverPattern(c) })),
  );
  const cache = new Map<string, PathOwners>();
  const bySpecificity = (a: Hit, b: Hit) => compareSpecificity(a.pattern, b.pattern);
  const rank = (order: readonly CoverAspect[]) => (a: Hit, b: Hit) =>
    bySpecificity(a, b) || order.indexOf(a.pattern.aspect) - order.indexOf(b.pattern.aspect);
  return {
    patterns,
    owners(path) {
      let hit = cache.get(path);
      if (!hit) {
        const matching = patterns.filter((p) => p.pattern.test(path));
        const e = top(
          matching.filter((p) => p.pattern.aspect === 'element'),
          bySpecificity,
        );
        const v = top(
          matching.filter((p) => p.pattern.aspect !== 'null'),
          rank(['value', 'element']),
        );
        const n = top([...matching], rank(['null', 'value', 'element']));
        hit = Object.freeze({
          ...(e.owner === undefined ? {} : { element: e.owner }),
          ...(v.owner === undefined ? {} : { value: v.owner }),
          ...(n.owner === undefined ? {} : { null: n.owner }),
          ties: [...new Set([...e.ties, ...v.ties, ...n.ties])],
        });
        cache.set(path, hit);
      }
      return hit;
    },
  };
}

/** How a body failed at a path: the element or member is missing, unexpected or renamed, or its value is wrong. */
export type PathFailure = 'element' | 'value' | 'null';

/**
 * The rule blamed for a failure at `path`: the value owner for a wrong value (else the element owner), the
 * element owner for a missing or unexpected element; the nearest owned ancestor when the path itself has
 * no owner (an undocumented child of a documented record is the record's business).
 */
export function blameOf(index: CoverIndex, path: string, failure: PathFailure): string | undefined {
  for (let p = path; ; ) {
    const o = index.owners(p);
    const rule = p !== path || failure === 'element' ? o.element : failure === 'value' ? o.value : o.null;
    if (rule !== undefined) return rule;
    const cut = p.lastIndexOf('/');
    if (cut < 0) return undefined;
    p = p.slice(0, cut);
  }
}
