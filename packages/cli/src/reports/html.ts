/** Shared pieces of the HTML reports: escaping and the one inline stylesheet (no external assets). */

import { escapeXml } from '@erpcert/contract';

/**
 * Escapes a value for HTML element content and quoted attributes: the contract's escapeXml (the five entities, all
 * of which HTML 5 knows; characters XML forbids, which HTML forbids too, as U+FFFD); null and undefined are ''.
 */
export function esc(text: string | number | null | undefined): string {
  return escapeXml(String(text ?? ''));
}

/** A verdict as a coloured label; `NONE` reads "not judged". */
export function verdictBadge(verdict: string): string {
  const label = verdict === 'NONE' ? 'not judged' : verdict;
  return `<span class="v v-${esc(verdict.toLowerCase())}">${esc(label)}</span>`;
}

/** Screen and print styles of report.html and the reports index. */
export const STYLE = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg-alt: #f6f8fa;
  --pass: #1a7f37; --fail: #cf222e; --error: #bc4c00; --warn: #9a6700; --skip: #57606a; --none: #8c959f; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0 auto; max-width: 1200px; padding: 24px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 16px 0 6px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg-alt); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:nth-child(even) { background: #fbfcfd; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--bg-alt); border: 1px solid var(--line); padding: 8px; white-space: pre-wrap; word-break: break-all; margin: 4px 0 8px; }
.muted { color: var(--muted); } .small { font-size: 12px; }
.v { display: inline-block; min-width: 48px; text-align: center; font-weight: 700; font-size: 12px; border-radius: 3px; padding: 1px 6px; color: #fff; }
.v-pass { background: var(--pass); } .v-fail { background: var(--fail); } .v-error { background: var(--error); } .v-warn { background: var(--warn); }
.v-skip { background: var(--skip); } .v-known { background: #6e40c9; } .v-none { background: #fff; color: var(--none); border: 1px solid var(--none); }
.outcome { font-size: 16px; font-weight: 700; padding: 6px 10px; border-radius: 4px; display: inline-block; color: #fff; }
.outcome-pass { background: var(--pass); } .outcome-fail { background: var(--fail); } .outcome-error { background: var(--warn); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; word-break: break-all; }
.failure { border: 1px solid var(--fail); border-left-width: 4px; padding: 8px 12px; margin: 12px 0; }
.failure[data-verdict="ERROR"] { border-color: var(--error); }
.ids { font-family: ui-monospace, Menlo, Consolas, monospace; }
ul.idlist { columns: 3 240px; padding-left: 18px; margin: 4px 0; }
a { color: #0969da; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; } tr, .failure { break-inside: avoid; }
  .v, .outcome { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  pre { max-height: none; }
}
`;

/** A complete, self-contained HTML page. */
export function page(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
