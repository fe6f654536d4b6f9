import type { XmlBodyKind } from './xsd-kinds.js';
import { outlineXml, type XmlOutlineElement } from './xsd-outline.js';

/** Registers that pastespecial serves (portal-action-api.md §2 "Registers per operation"). */
const lookupRegisters = new Set(['INVc', 'CUVc', 'VEVc', 'AllCUVc', 'UserVc']);

function kindOfResult(res: XmlOutlineElement): XmlBodyKind {
  const a = res.attributes;
  if (res.children.some((c) => c.name === 'supported') || 'dateformat' in a || 'apiversion' in a) return 'portal-login';
  if ('uuid' in a) return 'portal-upload-result';
  if ('newdata' in a) return 'portal-conversion-result';
  if ('hasapi' in a) return 'portal-hasusernewapi';
  return 'portal-result';
}

/**
 * A settings block (`<data register><VATCodeBlock><rows>...`): one child named after the envelope's register, without
 * the `url` every record carries, holding `<rows>`.
 */
function isBlock(data: XmlOutlineElement): boolean {
  const [only, ...more] = data.children;
  return (
    only !== undefined &&
    more.length === 0 &&
    only.name === data.attributes.register &&
    !('url' in only.attributes) &&
    only.children.some((c) => c.name === 'rows')
  );
}

function kindOfData(data: XmlOutlineElement): XmlBodyKind {
  const a = data.attributes;
  if ('register' in a && 'systemversion' in a) return isBlock(data) ? 'rest-block' : 'rest-envelope';
  if ('totalpages' in a || 'perpage' in a || 'count' in a) return 'portal-list';
  if ('total' in a) return 'portal-arap-list';
  const names = data.children.map((c) => c.name);
  if (names.includes('DummyVc')) return 'portal-approval';
  const first = data.children[0];
  if (first?.name === 'res') return kindOfResult(first);
  if (first?.name === 'file') return 'portal-document';
  if (names.length === 0) return 'open';
  if (names.every((n) => n === 'attachment')) return 'portal-attachments';
  if (names.every((n) => n === names[0]) && lookupRegisters.has(names[0]!)) return 'portal-lookup';
  return 'open';
}

/**
 * Guesses the kind of an XML body from its top-level elements and attributes, without validating it.
 * Returns undefined when the body cannot be outlined or has no recognisable root. An empty `<data/>` (an empty
 * lookup or attachment list look the same) and unknown shapes are `open`.
 */
export function detectXmlBodyKind(body: string): XmlBodyKind | undefined {
  const outline = outlineXml(body.startsWith('\uFEFF') ? body.slice(1) : body);
  if (!outline) return undefined;
  const main = outline.roots.filter((r) => r.name !== 'error' && r.name !== 'message');
  if (main.length === 0) return outline.roots.length > 0 ? 'error-only' : undefined;
  if (main.length > 1) return undefined;
  const root = main[0]!;
  if (root.name === 'root') return 'portal-upload-request';
  return root.name === 'data' ? kindOfData(root) : undefined;
}
