import { escapeXml } from '@erpcert/contract';

/** Attributes as XML text: ` a="1" b="x"`, values escaped, in the given order. */
export function attrs(values: Readonly<Record<string, string | number>>): string {
  let out = '';
  for (const [k, v] of Object.entries(values)) out += ` ${k}="${escapeXml(String(v))}"`;
  return out;
}

/** `<res errstr="" .../>` with the fields as attributes (README "XML conventions" 1). */
export function resXml(values: Readonly<Record<string, string | number>> = {}, errstr = ''): string {
  return `<res${attrs({ errstr, ...values })}/>`;
}

/** A success: `<data><res errstr="" .../>{inner}</data>` (portal-action-api.md §2 "Operation result"). */
export function okXml(values: Readonly<Record<string, string | number>> = {}, inner = ''): string {
  return `<data>${resXml(values)}${inner}</data>\n`;
}

/** A failure: `<data><res errstr="<text>"/></data>` (portal-action-api.md §7). */
export function failureXml(errstr: string): string {
  return `<data>${resXml({}, errstr)}</data>\n`;
}

/** `<Name>text</Name>`, or `<Name/>` when empty. */
export function elementXml(name: string, value: string): string {
  return value === '' ? `<${name}/>` : `<${name}>${escapeXml(value)}</${name}>`;
}

/** A record element named after the register, one child element per field (README "XML conventions" 6, 7). */
export function recordElementXml(register: string, fields: Iterable<readonly [string, string]>): string {
  let out = `<${register}>`;
  for (const [k, v] of fields) out += elementXml(k, v);
  return `${out}</${register}>`;
}
