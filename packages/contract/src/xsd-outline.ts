/**
 * A shallow outline of an XML body: the top-level elements and their first levels, with attributes.
 * It routes a body (which kind, is it a failure, where does the root start); it does not validate.
 * libxml2 does the validating, including well-formedness.
 */

import { unescapeXml } from './xml-escape.js';

/** One element of the outline. */
export interface XmlOutlineElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** Child elements, filled only down to the outline's depth. */
  readonly children: readonly XmlOutlineElement[];
}

/** The outline of a body. */
export interface XmlOutline {
  /** Top-level elements in document order (a body may have several: `<error/><data>...</data>`). */
  readonly roots: readonly XmlOutlineElement[];
  /** End offset of the XML declaration (`<?xml ...?>`), 0 when there is none. */
  readonly declarationEnd: number;
  /** End offset of the DOCTYPE declaration, 0 when there is none. */
  readonly doctypeEnd: number;
}

interface MutableElement {
  name: string;
  attributes: Record<string, string>;
  children: MutableElement[];
}

const namePattern = /^[^\s/>=]+/;
const attributePattern = /\s*([^\s/>=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;

/** Skips a DOCTYPE declaration starting at `start`, internal subset and quoted strings included. */
function doctypeEndAt(body: string, start: number): number {
  let depth = 0;
  let quote = '';
  for (let i = start + 2; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return -1;
}

/**
 * Outlines `body` down to `depth` levels (1 = top-level elements only). Returns undefined when the body is
 * not well-formed enough to outline; the caller then leaves the diagnosis to libxml2.
 */
export function outlineXml(body: string, depth = 3): XmlOutline | undefined {
  const roots: MutableElement[] = [];
  const stack: { name: string; element?: MutableElement }[] = [];
  let declarationEnd = 0;
  let doctypeEnd = 0;
  let i = 0;
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    if (lt < 0) break;
    if (body.startsWith('<?', lt)) {
      const end = body.indexOf('?>', lt + 2);
      if (end < 0) return undefined;
      if (/^<\?xml\s/.test(body.slice(lt, lt + 6)) && body.slice(0, lt).trim() === '') declarationEnd = end + 2;
      i = end + 2;
    } else if (body.startsWith('<!--', lt)) {
      const end = body.indexOf('-->', lt + 4);
      if (end < 0) return undefined;
      i = end + 3;
    } else if (body.startsWith('<![CDATA[', lt)) {
      const end = body.indexOf(']]>', lt + 9);
      if (end < 0 || stack.length === 0) return undefined;
      i = end + 3;
    } else if (body.startsWith('<!DOCTYPE', lt)) {
      const end = doctypeEndAt(body, lt);
      if (end < 0 || stack.length > 0 || roots.length > 0) return undefined;
      doctypeEnd = end;
      i = end;
    } else if (body.startsWith('</', lt)) {
      const gt = body.indexOf('>', lt);
      const top = stack.pop();
      if (gt < 0 || !top || body.slice(lt + 2, gt).trim() !== top.name) return undefined;
      i = gt + 1;
    } else {
      const name = namePattern.exec(body.slice(lt + 1, lt + 200))?.[0];
      if (!name) return undefined;
      const attributes: Record<string, string> = {};
      let p = lt + 1 + name.length;
      for (;;) {
        attributePattern.lastIndex = p;
        const m = attributePattern.exec(body);
        if (!m) break;
        attributes[m[1]!] = unescapeXml(m[2] ?? m[3] ?? '');
        p = attributePattern.lastIndex;
      }
      while (p < body.length && /\s/.test(body[p]!)) p++;
      const selfClosing = body.startsWith('/>', p);
      if (!selfClosing && body[p] !== '>') return undefined;
      const parent = stack[stack.length - 1];
      let element: MutableElement | undefined;
      if (stack.length < depth && (stack.length === 0 || parent?.element)) {
        element = { name, attributes, children: [] };
        if (parent?.element) parent.element.children.push(element);
        else roots.push(element);
      }
      if (!selfClosing) stack.push({ name, element });
      i = p + (selfClosing ? 2 : 1);
    }
  }
  if (stack.length > 0) return undefined;
  return { roots, declarationEnd, doctypeEnd };
}
