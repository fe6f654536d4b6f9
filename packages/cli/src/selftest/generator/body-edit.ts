/**
 * Edits of one documented path (contract body-paths.ts, without the body name) in an XML or JSON answer, for the
 * generated mutants: remove the element, attribute or member, rename it, or replace its value. Every occurrence
 * is edited (each record of a list). The body comes back unchanged when the path is not in it.
 */

import { escapeXml, unescapeXml } from '@erpcert/contract';

/** What to do at the path. */
export type PathEdit =
  | { readonly op: 'remove' }
  | { readonly op: 'rename'; readonly to: string }
  /**
   * A new value. On a JSON array the value of each element is changed (a list of scalars), unless `whole`: then the
   * member itself (`rows: null`, not a list of null rows, which an empty list never shows).
   */
  | { readonly op: 'value'; readonly value: (old: unknown) => unknown; readonly whole?: boolean };

interface Span {
  /** Start of `<name`. */
  readonly start: number;
  /** End of the start tag (after `>`). */
  readonly openEnd: number;
  /** Start of `</name>` (= openEnd for a self-closing element). */
  readonly closeStart: number;
  /** End of the element. */
  readonly end: number;
  readonly selfClosing: boolean;
}

const TAG =
  /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[[\s\S]*?\]\]>/g;

/** The spans of the elements at `steps` (element names from the top level down). */
function elementSpans(body: string, steps: readonly string[]): Span[] {
  const out: Span[] = [];
  const stack: { name: string; start: number; openEnd: number }[] = [];
  // the element named `name` under the open elements of `stack` is at `steps`
  const here = (name: string) =>
    stack.length + 1 === steps.length && name === steps.at(-1) && stack.every((s, i) => s.name === steps[i]);
  TAG.lastIndex = 0;
  for (let m = TAG.exec(body); m; m = TAG.exec(body)) {
    if (m[2] === undefined) continue;
    const [whole, closing, name, , selfClose] = m as unknown as [string, string, string, string, string];
    const tagEnd = m.index + whole.length;
    if (closing) {
      const top = stack.pop();
      if (top && here(top.name))
        out.push({ start: top.start, openEnd: top.openEnd, closeStart: m.index, end: tagEnd, selfClosing: false });
    } else if (selfClose) {
      if (here(name)) out.push({ start: m.index, openEnd: tagEnd, closeStart: tagEnd, end: tagEnd, selfClosing: true });
    } else stack.push({ name, start: m.index, openEnd: tagEnd });
  }
  return out;
}

/** Applies `edit` at `steps` of an XML body (`@name` as the last step is an attribute). */
export function editXml(body: string, steps: readonly string[], edit: PathEdit): string {
  const last = steps.at(-1) ?? '';
  const attribute = last.startsWith('@') ? last.slice(1) : undefined;
  const spans = elementSpans(body, attribute === undefined ? steps : steps.slice(0, -1));
  let out = body;
  // from the end, so that earlier offsets stay valid
  for (const s of [...spans].reverse()) {
    const open = out.slice(s.start, s.openEnd);
    if (attribute !== undefined) {
      const re = new RegExp(`(\\s+)${attribute.replace(/[.-]/g, '\\$&')}(\\s*=\\s*)("([^"]*)"|'([^']*)')`);
      const m = re.exec(open);
      if (!m) continue;
      const old = unescapeXml(m[4] ?? m[5] ?? '');
      const replacement =
        edit.op === 'remove'
          ? ''
          : edit.op === 'rename'
            ? `${m[1]}${edit.to}${m[2]}${m[3]}`
            : `${m[1]}${attribute}${m[2]}"${escapeXml(String(edit.value(old)))}"`;
      const changed = open.slice(0, m.index) + replacement + open.slice(m.index + m[0].length);
      out = out.slice(0, s.start) + changed + out.slice(s.openEnd);
      continue;
    }
    if (edit.op === 'remove') out = out.slice(0, s.start) + out.slice(s.end);
    else if (edit.op === 'rename') {
      const renamedOpen = open.replace(/^<[^\s/>]+/, `<${edit.to}`);
      const close = s.selfClosing ? '' : `</${edit.to}>`;
      out = out.slice(0, s.start) + renamedOpen + out.slice(s.openEnd, s.closeStart) + close + out.slice(s.end);
    } else {
      const inner = out.slice(s.openEnd, s.closeStart);
      if (/<[A-Za-z_]/.test(inner)) continue; // an element with children has no text value to replace
      const value = escapeXml(String(edit.value(unescapeXml(inner))));
      const openTag = s.selfClosing ? open.replace(/\s*\/>$/, '>') : open;
      const tagName = /^<([^\s/>]+)/.exec(open)![1];
      out = `${out.slice(0, s.start)}${openTag}${value}</${tagName}>${out.slice(s.end)}`;
    }
  }
  return out;
}

/** Applies `edit` at `steps` of a parsed JSON value, in place; arrays are walked through. Returns the count of edits. */
export function editJsonValue(value: unknown, steps: readonly string[], edit: PathEdit): number {
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + editJsonValue(v, steps, edit), 0);
  if (value === null || typeof value !== 'object' || steps.length === 0) return 0;
  const obj = value as Record<string, unknown>;
  const [head, ...rest] = steps as [string, ...string[]];
  if (!(head in obj)) return 0;
  if (rest.length > 0) return editJsonValue(obj[head], rest, edit);
  if (edit.op === 'remove') delete obj[head];
  else if (edit.op === 'rename') {
    obj[edit.to] = obj[head];
    delete obj[head];
  } else if (Array.isArray(obj[head]) && !edit.whole) obj[head] = (obj[head] as unknown[]).map((v) => edit.value(v));
  else obj[head] = edit.value(obj[head]);
  return 1;
}

/** Applies `edit` at `steps` of a JSON body text; the same text when nothing changed or it is not JSON. */
export function editJson(body: string, steps: readonly string[], edit: PathEdit): string {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return body;
  }
  return editJsonValue(doc, steps, edit) > 0 ? JSON.stringify(doc) : body;
}
