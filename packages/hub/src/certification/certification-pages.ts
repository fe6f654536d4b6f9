/**
 * The certification pages, server-rendered without script, every value from a user or a run shown as text through
 * the pages' one escaping helper (pages/html.ts):
 * - a run's certification (`/runs/:id/certification`): where it was submitted, a form to submit it to a certifying
 *   body, its share links and a form to make one (the link shown once);
 * - the certification inbox (`/certification`): what the user's organisations submitted and what was submitted to
 *   the bodies it certifies for;
 * - a submission's review (`/submissions/:id/review`): the run, its signature checked again by `erpcert verify`'s
 *   checks, and the certifier's form (certified or rejected, with a note);
 * - the public list of certified implementations (`/certified/implementations`) with their badges.
 */
import type { SignatureCheck } from '../ingest/signature-status.js';
import { signatureText } from '../ingest/signature-status.js';
import { type Html, href, html } from '../pages/html.js';
import { page, totalsLine, verdict, when } from '../pages/layout.js';
import type { RunSummary } from '../store/run-summary.js';
import type { CertifiedRun, OrganisationRef, Submission } from './certification-store.js';
import { badgeUrl, reportUrl } from './routes-common.js';
import type { ShareLink } from './share-links.js';
import { DEFAULT_SHARE_DAYS, MAX_SHARE_DAYS } from './share-links.js';

const csrfField = (csrf: string | undefined) => (csrf ? html`<input type="hidden" name="csrf" value="${csrf}">` : '');

const alert = (error: string | undefined) =>
  error ? html`<p class="alert" role="alert" id="certification-error">${error}</p>` : '';

function stateWord(s: Submission): Html {
  const v = s.state === 'certified' ? 'PASS' : s.state === 'rejected' ? 'FAIL' : 'NONE';
  return html`<span class="v v-${v.toLowerCase()}">${s.state}</span>`;
}

function submissionRows(list: readonly Submission[]): Html {
  if (list.length === 0) return html`<p class="muted">No submissions.</p>`;
  return html`<div class="scroll"><table aria-label="Submissions">
<thead><tr><th scope="col">Submission</th><th scope="col">Run</th><th scope="col">From</th><th scope="col">To</th><th scope="col">State</th><th scope="col">Submitted</th><th scope="col">Decided</th><th scope="col">Note</th></tr></thead>
<tbody>${list.map(
    (s) =>
      html`<tr><th scope="row"><a href="${href(['submissions', s.id, 'review'])}">#${s.id}</a></th><td><a href="${href(['submissions', s.id, 'run'])}">#${s.runId}</a></td><td>${s.organisation.name}</td><td>${s.certifier.name}</td><td>${stateWord(s)}</td><td>${when(s.submittedAt)}<br><span class="muted">${s.submittedBy}</span></td><td>${s.decidedAt ? html`${when(s.decidedAt)}<br><span class="muted">${s.decidedBy}</span>` : '—'}</td><td>${s.note ?? ''}</td></tr>`,
  )}</tbody></table></div>`;
}

export interface RunCertificationView {
  readonly run: RunSummary;
  readonly certified: CertifiedRun | undefined;
  readonly submissions: readonly Submission[];
  readonly bodies: readonly OrganisationRef[];
  readonly links: readonly ShareLink[];
  /** The actor may submit, share and revoke (engineer, admin). */
  readonly canWrite: boolean;
  readonly csrf: string | undefined;
  /** A share link just made: its URL, shown this once. */
  readonly newLink?: string;
  readonly error?: string;
  readonly now: string;
}

export function runCertificationPage(v: RunCertificationView): Html {
  const { run } = v;
  const others = v.bodies.filter((b) => b.id !== run.organisationId);
  const signed = run.signature.status === 'verified' || run.signature.status === 'not-registered';
  const body = html`${alert(v.error)}
<p><a href="${href(['runs', run.id])}">Run #${run.id}</a> · ${run.kind} · build ${run.build ?? '—'} · signature: ${run.signature.text}</p>
${
  v.certified
    ? html`<p class="note" id="frozen">Certified by ${v.certified.certifier.name} on ${when(v.certified.certifiedAt)}. This run is frozen: it cannot be deleted, relabelled or changed; a correction is a new run. <a href="${reportUrl(run.id)}">Its public report</a>.</p>`
    : ''
}
<h2>Submissions</h2>
${submissionRows(v.submissions)}
${
  v.canWrite && !v.certified
    ? signed
      ? others.length === 0
        ? html`<p class="muted">No certifying body is registered on this hub.</p>`
        : html`<form class="stack" method="post" action="${href(['runs', run.id, 'certification', 'submit'])}" aria-label="Submit for certification">
${csrfField(v.csrf)}
<label>Certifying body <select name="certifier" required>${others.map((b) => html`<option value="${b.slug}">${b.name}</option>`)}</select></label>
<button type="submit">Submit for certification</button>
</form>`
      : html`<p class="note" id="sign-first">This run is ${run.signature.text}: sign its folder with <code>erpcert certify</code>, publish the signed run, and submit that.</p>`
    : ''
}
<h2>Share links</h2>
${
  v.newLink
    ? html`<p class="note" role="status">The link is shown only now: copy it. <a id="share-url" href="${v.newLink}">${v.newLink}</a></p>`
    : ''
}
${
  v.links.length === 0
    ? html`<p class="muted">No share links.</p>`
    : html`<ul>${v.links.map(
        (l) =>
          html`<li>Link #${l.id} by ${l.createdBy}, ${
            l.revokedAt
              ? html`revoked ${when(l.revokedAt)}`
              : l.expiresAt <= v.now
                ? html`expired ${when(l.expiresAt)}`
                : html`until ${when(l.expiresAt)}`
          }${
            v.canWrite && !l.revokedAt && l.expiresAt > v.now
              ? html` <form class="inline" method="post" action="${href(['share-links', l.id, 'revoke'])}">${csrfField(v.csrf)}<button type="submit">Revoke link #${l.id}</button></form>`
              : ''
          }</li>`,
      )}</ul>`
}
${
  v.canWrite
    ? html`<form class="stack" method="post" action="${href(['runs', run.id, 'certification', 'share'])}" aria-label="Make a share link">
${csrfField(v.csrf)}
<label>Days the link opens the run <input name="days" type="number" min="1" max="${MAX_SHARE_DAYS}" value="${DEFAULT_SHARE_DAYS}" required></label>
<button type="submit">Make a read-only share link</button>
</form>`
    : ''
}`;
  return page({ title: `Certification of run #${run.id}`, crumbs: [[`Run #${run.id}`, href(['runs', run.id])]] }, body);
}

export function inboxPage(o: { readonly toReview: readonly Submission[]; readonly ours: readonly Submission[] }): Html {
  const body = html`<h2>Submitted to the bodies you certify for</h2>
${submissionRows(o.toReview)}
<h2>Submitted by your organisations</h2>
${submissionRows(o.ours)}
<p><a href="/certified/implementations">The public list of certified implementations</a></p>`;
  return page({ title: 'Certification', nav: 'certification' }, body);
}

export interface ReviewView {
  readonly submission: Submission;
  readonly run: RunSummary;
  readonly check: SignatureCheck;
  readonly canDecide: boolean;
  readonly csrf: string | undefined;
  readonly error?: string;
}

export function reviewPage(v: ReviewView): Html {
  const { submission: s, run, check } = v;
  const body = html`${alert(v.error)}
<dl class="facts">
<dt>State</dt><dd>${stateWord(s)}</dd>
<dt>From</dt><dd>${s.organisation.name} · ${s.submittedBy} · ${when(s.submittedAt)}</dd>
<dt>To</dt><dd>${s.certifier.name}</dd>
<dt>Run</dt><dd><a href="${href(['submissions', s.id, 'run'])}">#${run.id}</a> · build ${run.build ?? '—'} · erpcert ${run.erpcertVersion}</dd>
<dt>Spec SHA-256</dt><dd><code>${run.specSha256 ?? '—'}</code></dd>
<dt>Verdicts</dt><dd>${totalsLine(run)}</dd>
<dt>Signature, checked now</dt><dd id="signature-check">${verdict(check.status === 'verified' ? 'PASS' : 'FAIL')} ${signatureText(check.status, check.key)}${check.detail ? html`<br><span class="muted">${check.detail}</span>` : ''}</dd>
${s.decidedAt ? html`<dt>Decided</dt><dd>${s.decidedBy} · ${when(s.decidedAt)}</dd><dt>Note</dt><dd id="decision-note">${s.note ?? ''}</dd>` : ''}
</dl>
<p>Review the run: <a id="review-run" href="${href(['submissions', s.id, 'run'])}">its page</a>, its rules, their evidence and its files, read-only.</p>
${
  v.canDecide && s.state === 'submitted'
    ? html`<form class="stack" method="post" action="${href(['submissions', s.id, 'review'])}" aria-label="Decide">
${csrfField(v.csrf)}
<label>Note (what the review found) <textarea name="note" rows="4" maxlength="2000" required></textarea></label>
<button type="submit" name="decision" value="certified"${check.status === 'verified' ? '' : html` disabled`}>Certify</button>
<button type="submit" name="decision" value="rejected">Reject</button>
</form>`
    : ''
}`;
  return page(
    { title: `Submission #${s.id}`, nav: 'certification', crumbs: [['Certification', '/certification']] },
    body,
  );
}

export function certifiedPage(list: readonly CertifiedRun[]): Html {
  const body = html`<p>Implementations whose conformance run a certifying body reviewed and certified. Each report opens the certified run, read-only; each badge has a stable address.</p>
${
  list.length === 0
    ? html`<p class="muted">Nothing is certified yet.</p>`
    : html`<div class="scroll"><table aria-label="Certified implementations">
<thead><tr><th scope="col">Implementation</th><th scope="col">Vendor</th><th scope="col">Version</th><th scope="col">erpcert</th><th scope="col">Spec SHA-256</th><th scope="col">Certified</th><th scope="col">By</th><th scope="col">Coverage</th><th scope="col">Report</th><th scope="col">Badge</th></tr></thead>
<tbody>${list.map(
        (c) =>
          html`<tr><th scope="row">${c.name}</th><td>${c.organisation.name}</td><td>${c.version ?? '—'}</td><td>${c.erpcertVersion}</td><td><code>${c.specSha256 ?? '—'}</code></td><td>${when(c.certifiedAt)}</td><td>${c.certifier.name}</td><td>${c.passed} of ${c.rules} rules PASS</td><td><a href="${reportUrl(c.runId)}">Run #${c.runId}</a></td><td><img src="${badgeUrl(c)}" alt="erpcert certified badge of ${c.name}" height="20"><br><code>${badgeUrl(c)}</code></td></tr>`,
      )}</tbody></table></div>`
}`;
  return page({ title: 'Certified implementations', bare: true }, body);
}

/** A share link that opens nothing (any more). */
export function goneSharePage(state: 'expired' | 'revoked' | 'unknown'): Html {
  const text =
    state === 'expired'
      ? 'This share link has expired. Ask whoever sent it for a new one.'
      : state === 'revoked'
        ? 'This share link was revoked. Ask whoever sent it for a new one.'
        : 'There is no such share link.';
  return page(
    { title: state === 'unknown' ? 'Not found' : 'Link no longer valid', bare: true },
    html`<p class="alert" role="alert" id="share-gone">${text}</p>`,
  );
}
