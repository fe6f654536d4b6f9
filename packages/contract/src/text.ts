/**
 * `@erpcert/contract/text`: the text helpers that need no Node API, on their own entry point so that a bundle for
 * another runtime (the k6 scripts' `dist/vendor/erpcert-text.js`, load/k6/scripts/build-vendor.mjs) holds them and
 * nothing else of the package. The package's main entry exports them too.
 */
export { isCalendarDate } from './calendar-date.js';
export { escapeRegExp } from './escape-regexp.js';
export { markdownCell } from './markdown-cell.js';
export {
  escapeXml,
  escapeXmlAttribute,
  escapeXmlContent,
  hasForbiddenXmlChar,
  replaceForbiddenXmlChars,
  unescapeXml,
} from './xml-escape.js';
