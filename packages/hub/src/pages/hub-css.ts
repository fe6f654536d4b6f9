/**
 * The hub's stylesheet, served from /assets/hub.css (the pages' Content-Security-Policy allows styles from the hub
 * itself and no inline style). Colours keep a contrast of at least 4.5:1 on their backgrounds; focus is always
 * visible; verdicts carry their word beside the colour.
 */
export const HUB_CSS = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #4f5661; --bg: #ffffff; --line: #c9ced6; --link: #0b57c2;
  --pass: #0f6b2f; --pass-bg: #e3f4e8; --fail: #a1121c; --fail-bg: #fde7e9; --error: #7a3e00; --error-bg: #fff0d6;
  --skip: #44505e; --skip-bg: #eceff3; --focus: #b45309; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible, main:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5em 1em; }
.skip:focus { left: .5em; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; gap: 2em; align-items: center; padding: .6em 1.5em; background: #14213d; }
.top a, .top .brand { color: #ffffff; }
.brand { font-weight: 700; text-decoration: none; font-size: 1.1em; }
.account { margin-left: auto; display: flex; gap: .6em; align-items: center; }
.account form { margin: 0; }
.secret { font-family: monospace; word-break: break-all; background: #fff7d6; padding: .4em; }
form.inline { display: inline; }
.top ul { display: flex; gap: 1.2em; list-style: none; margin: 0; padding: 0; }
.top a[aria-current="page"] { text-decoration-thickness: 3px; }
main { padding: 1em 1.5em 2em; max-width: 96em; }
h1 { font-size: 1.5em; margin: .3em 0 .6em; overflow-wrap: anywhere; }
h2 { font-size: 1.2em; margin: 1.4em 0 .5em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .4em; overflow-wrap: anywhere; }
.crumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: .4em; padding: 0; margin: 0; color: var(--muted); }
.crumbs li + li::before { content: "›"; margin-right: .4em; }
.bottom { border-top: 1px solid var(--line); padding: .5em 1.5em; color: var(--muted); }
.muted { color: var(--muted); }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid var(--line); padding: .25em .55em; text-align: left; vertical-align: top; }
thead th { background: #f1f3f6; }
th[scope="rowgroup"] { background: #f7f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.v { display: inline-block; min-width: 3.6em; padding: 0 .35em; border-radius: 3px; font-weight: 600; font-size: .9em; text-align: center; }
.v-pass { color: var(--pass); background: var(--pass-bg); }
.v-fail { color: var(--fail); background: var(--fail-bg); }
.v-error, .v-warn { color: var(--error); background: var(--error-bg); }
.v-skip, .v-none, .v-known, .v-info, .v-absent { color: var(--skip); background: var(--skip-bg); }
.totals { display: inline-flex; flex-wrap: wrap; gap: .5em; }
.strip { display: flex; flex-wrap: wrap; gap: 3px; list-style: none; margin: .3em 0; padding: 0; }
.mark { display: inline-block; width: 1.5em; height: 1.5em; line-height: 1.5em; text-align: center; border-radius: 3px; text-decoration: none; font-weight: 700; }
.mark.v-pass { background: var(--pass); color: #fff; }
.mark.v-fail { background: var(--fail); color: #fff; }
.mark.v-error { background: var(--error); color: #fff; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(22em, 1fr)); gap: 1em; list-style: none; padding: 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .6em 1em; }
.card h2 { margin-top: .2em; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1em; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
form.filters { display: flex; flex-wrap: wrap; gap: .8em; align-items: flex-end; margin: .5em 0 1em; }
form.filters label, form.stack label { display: flex; flex-direction: column; font-weight: 600; font-size: .9em; gap: .2em; }
form.stack { display: grid; gap: .8em; max-width: 32em; }
form.stack .field { display: flex; flex-direction: column; gap: .2em; }
form.stack .field label { font-weight: 600; font-size: .9em; }
form.stack label:has(> input[type="checkbox"]) { flex-direction: row; align-items: center; gap: .5em; }
caption { text-align: left; font-weight: 600; padding: .3em 0; }
input, select, button, textarea { font: inherit; padding: .3em .5em; border: 1px solid #6b7280; border-radius: 4px; background: #fff; color: var(--fg); }
button { background: #14213d; color: #fff; border-color: #14213d; cursor: pointer; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: .6em; overflow: auto; max-height: 32em; white-space: pre-wrap; overflow-wrap: anywhere; }
.alert { border: 2px solid var(--fail); background: var(--fail-bg); padding: .6em 1em; color: var(--fail); }
.note { list-style: none; border-left: 4px solid var(--error); padding: .3em .8em; background: var(--error-bg); }
.failure { border: 1px solid var(--line); border-radius: 6px; padding: .2em 1em 1em; margin: 1em 0; }
.matrix td { text-align: center; padding: .1em .3em; }
.matrix .v { min-width: 3em; }
.matrix td.steady { text-align: left; }
.chart { max-width: 44em; width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
.chart .axis { stroke: #4f5661; stroke-width: 1; }
.chart .grid { stroke: #e3e6ea; stroke-width: 1; }
.chart text { font-size: 11px; fill: #1b1f24; }
.chart .series-a { stroke: #0b57c2; stroke-width: 2; fill: none; }
.chart .series-b { stroke: #a1121c; stroke-width: 2; fill: none; }
.chart .dot-a { fill: #0b57c2; }
.chart .dot-b { fill: #a1121c; }
.chart .documented { stroke: #0f6b2f; stroke-width: 2; stroke-dasharray: 6 4; }
.legend { display: flex; gap: 1.2em; list-style: none; padding: 0; font-size: .9em; }
.key { display: inline-block; width: 1.6em; height: 0; border-top: 3px solid; vertical-align: middle; margin-right: .3em; }
.key-a { border-color: #0b57c2; } .key-b { border-color: #a1121c; } .key-doc { border-color: #0f6b2f; border-top-style: dashed; }
.scroll { overflow-x: auto; }
`;
