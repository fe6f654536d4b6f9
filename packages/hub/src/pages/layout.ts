/**
 * The frame of every page: landmarks (banner, navigation, main, contentinfo), a skip link, one `h1`, the hub's
 * stylesheet (served from a route: the Content-Security-Policy allows no inline style or script), and the marks that
 * show a verdict by colour and by text.
 */
import type { RunSummary } from '../store/run-summary.js';
import { type Html, href, html, type Part } from './html.js';
import { currentViewer } from './page-context.js';

export const STYLESHEET = '/assets/hub.css';

export interface PageOptions {
  readonly title: string;
  /** Which navigation entry is the current page. */
  readonly nav?:
    | 'targets'
    | 'saved'
    | 'compare'
    | 'matrix'
    | 'upload'
    | 'certification'
    | 'certified'
    | 'organisations'
    | 'account'
    | 'sign-in';
  /** Breadcrumb links before the title: [text, href]. */
  readonly crumbs?: readonly (readonly [string, string])[];
  /** A page for someone without an account (public, or a share link): no navigation into the hub. */
  readonly bare?: boolean;
}

const NAV: readonly (readonly [NonNullable<PageOptions['nav']>, string, string])[] = [
  ['targets', 'Targets', '/'],
  ['saved', 'Saved targets', '/saved-targets'],
  ['compare', 'Compare', '/compare'],
  ['matrix', 'Matrix', '/matrix'],
  ['upload', 'Upload a run', '/upload'],
  ['certification', 'Certification', '/certification'],
  ['certified', 'Certified implementations', '/certified/implementations'],
  ['organisations', 'Organisations', '/organisations'],
];

/**
 * The navigation of the signed-in viewer (none for nobody). Organisations is there for those who manage one: a hub
 * admin (every organisation, making them, certifying bodies) and an organisation's admins (members, tokens, audit);
 * anyone else finds their organisations and roles on their account page.
 */
function navFor(): typeof NAV {
  const v = currentViewer();
  if (!v) return [];
  const manages = v.hubAdmin === true || v.memberships.some((m) => m.role === 'admin');
  return manages ? NAV : NAV.filter(([key]) => key !== 'organisations');
}

/** The hidden field every form of a signed-in page carries (auth/csrf.ts checks it). */
export function csrfField(): Html {
  const v = currentViewer();
  return v ? html`<input type="hidden" name="csrf" value="${v.csrf}">` : html``;
}

/** Who is signed in, and the sign-out button; or the sign-in link. */
function accountBar(o: PageOptions): Html {
  const v = currentViewer();
  if (!v)
    return html`<p class="account"><a href="/sign-in"${o.nav === 'sign-in' ? html` aria-current="page"` : ''}>Sign in</a></p>`;
  return html`<div class="account"><a href="/account"${o.nav === 'account' ? html` aria-current="page"` : ''}>${v.email}</a>
<form method="post" action="/sign-out">${csrfField()}<button type="submit">Sign out</button></form></div>`;
}

export function page(o: PageOptions, body: Part): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · erpcert hub</title>
<link rel="stylesheet" href="${STYLESHEET}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
${
  o.bare
    ? html`<span class="brand">erpcert hub</span>`
    : html`<a class="brand" href="/">erpcert hub</a>
<nav aria-label="Hub">
<ul>${navFor().map(
        ([key, text, to]) =>
          html`<li><a href="${to}"${o.nav === key ? html` aria-current="page"` : ''}>${text}</a></li>`,
      )}</ul>
</nav>
${accountBar(o)}`
}
</header>
<main id="main" tabindex="-1">
${
  o.crumbs && o.crumbs.length > 0
    ? html`<nav aria-label="Breadcrumb" class="crumbs"><ol>${o.crumbs.map(
        ([text, to]) => html`<li><a href="${to}">${text}</a></li>`,
      )}<li aria-current="page">${o.title}</li></ol></nav>`
    : ''
}
<h1>${o.title}</h1>
${body}
</main>
<footer class="bottom"><p>${o.bare ? 'erpcert hub · a read-only page' : html`erpcert hub · every page is also in the JSON API under <a href="/api/v1/targets">/api/v1</a>`}</p></footer>
</body>
</html>
`;
}

const SYMBOL: Readonly<Record<string, string>> = {
  PASS: '✓',
  FAIL: '✗',
  ERROR: '!',
  WARN: '△',
  SKIP: '–',
  KNOWN: 'K',
  NONE: '·',
  INFO: 'i',
};

const VERDICTS = new Set(Object.keys(SYMBOL));

/** A verdict as a badge: its word in text, its colour from the class (never colour alone). */
export function verdict(v: string | null | undefined): Html {
  if (v === null || v === undefined) return html`<span class="v v-absent">absent</span>`;
  const known = VERDICTS.has(v.toUpperCase()) ? v.toUpperCase() : 'NONE';
  return html`<span class="v v-${known.toLowerCase()}">${v}</span>`;
}

/** A run's outcome as a word. */
export function outcomeWord(run: RunSummary): string {
  return run.outcome === 'pass' ? 'PASS' : run.outcome === 'fail' ? 'FAIL' : 'ERROR';
}

/** What a run is, in a few words (for marks, titles and table cells). */
export function runName(run: RunSummary): string {
  const parts = [`#${run.id}`, run.kind, run.build ? `build ${run.build}` : '', run.label ? `label ${run.label}` : ''];
  return parts.filter(Boolean).join(' · ');
}

/** The last runs of a target as a strip of marks, newest first; each mark a link with its text alternative. */
export function runStrip(runs: readonly RunSummary[], label: string): Html {
  if (runs.length === 0) return html`<p class="muted">no runs yet</p>`;
  return html`<ol class="strip" aria-label="${label}">${runs.map((r) => {
    const word = outcomeWord(r);
    return html`<li><a class="mark v-${word.toLowerCase()}" href="${href(['runs', r.id])}"><span aria-hidden="true">${SYMBOL[word]}</span><span class="sr">${runName(r)}: ${word}</span></a></li>`;
  })}</ol>`;
}

/** Counts of a run's verdicts: "3 PASS · 1 FAIL · ...", zeros left out. */
export function totalsLine(run: RunSummary): Html {
  const t = run.totals;
  const words = (['PASS', 'FAIL', 'ERROR', 'WARN', 'SKIP', 'KNOWN', 'NONE'] as const)
    .filter((k) => t[k] > 0)
    .map((k) => html`<span class="count">${verdict(k)} ${t[k]}</span>`);
  return html`<span class="totals">${words.length ? words : html`<span class="muted">nothing judged</span>`}</span>`;
}

/** An ISO time, shown as `YYYY-MM-DD HH:MM UTC`, in a `<time>`. */
export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  const shown = /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : iso;
  return html`<time datetime="${iso}">${shown}</time>`;
}
