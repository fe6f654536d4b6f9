/**
 * summary.md: a short Markdown account that fits a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`):
 * totals, a table per rule area, the failures with their replay commands, the residue and the problems.
 */
import { signatureLine } from '../attest/signature-line.js';
import { coverageLine } from './coverage-line.js';
import { fixturesMd } from './fixtures-section.js';
import type { ResultsDocument, VerdictCounts } from './results.js';

/** At most this many failures are written out; the rest are counted (job summaries are limited to 1 MiB). */
const MAX_FAILURES = 50;
const MAX_TEXT = 2000;

/** Escapes text for a Markdown table cell. */
export function mdCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function clip(text: string): string {
  return text.length > MAX_TEXT
    ? `${text.slice(0, MAX_TEXT)}... (${text.length - MAX_TEXT} more characters in results.json)`
    : text;
}

function row(label: string, c: VerdictCounts): string {
  return `| ${label} | ${c.rules} | ${c.PASS} | ${c.FAIL} | ${c.ERROR} | ${c.WARN} | ${c.SKIP} | ${c.NONE} |`;
}

/** Renders summary.md from a results document. */
export function renderSummaryMd(doc: ResultsDocument): string {
  const { run, totals } = doc;
  const head =
    run.outcome === 'pass'
      ? 'PASS'
      : run.outcome === 'fail'
        ? `FAIL (${[
            totals.FAIL > 0 ? `${totals.FAIL} rule${totals.FAIL === 1 ? '' : 's'} failed` : '',
            totals.ERROR > 0 ? `${totals.ERROR} rule${totals.ERROR === 1 ? '' : 's'} could not be judged` : '',
          ]
            .filter(Boolean)
            .join(', ')})`
        : 'ERROR (the run could not be completed)';
  const out: string[] = [
    ...(doc.coverage.judged ? [`**${coverageLine(doc.coverage.judged)}**`, ''] : []),
    `## erpcert conform: ${head}`,
    '',
    `Target \`${run.target.url}\`${run.target.embedded ? ' (embedded reference server)' : ''} · profile ${run.profile}` +
      ` · ${run.startedAt} · ${(run.durationMs / 1000).toFixed(1)} s · erpcert ${doc.tool.version}` +
      ` · spec REST ${doc.spec.versions.rest}, portal ${doc.spec.versions.portal} (sha256 \`${doc.spec.sha256.slice(0, 12)}\`)` +
      `${run.only ? ` · only \`${run.only}\`` : ''}${run.shard ? ` · shard ${run.shard}` : ''} · run tag \`${run.runTag}\``,
    '',
    `Signature: ${signatureLine(doc.attestation)}`,
    '',
    '| Area | Rules | PASS | FAIL | ERROR | WARN | SKIP | not judged |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row('**Total**', totals),
    ...doc.areas.map((a) => row(a.area, a)),
    '',
    'PASS: the rule held in at least one observation. FAIL: a documented or inferred rule is broken. ERROR: the rule',
    'could not be judged (the target answered 5xx, a body that does not parse, a reset or a timeout; or the suite',
    'failed without naming a rule). WARN: advisory (strict profile). SKIP: the target lacks data, permission or',
    'module, or no check observed the rule. Not judged: no test covers the rule, or it is unspecified and the',
    'profile is not strict.',
  ];
  if (doc.failures.length > 0) {
    out.push('', '### Failures and errors', '');
    for (const f of doc.failures.slice(0, MAX_FAILURES)) {
      const titles = f.rules.map((id) => `${id}: ${doc.rules.find((r) => r.id === id)?.title ?? ''}`);
      out.push(`#### ${f.verdict} ${mdCell(titles.join('; '))}`, '', mdCell(clip(f.message)), '');
      if (f.counterexample !== null) out.push('Counterexample:', '', fence(clip(f.counterexample)), '');
      out.push('Reproduce with:', '', fence(f.replay, 'sh'), '');
    }
    if (doc.failures.length > MAX_FAILURES) {
      out.push(
        `... and ${doc.failures.length - MAX_FAILURES} more failures and errors: see report.html or results.json.`,
        '',
      );
    }
  }
  const { cleanup } = doc;
  out.push(
    '',
    '### Cleanup',
    '',
    `${cleanup.ledgerEntries} record(s) created: ${cleanup.deleted} deleted, ${cleanup.alreadyGone} already gone, ` +
      `${cleanup.residue.filter((r) => r.status === 'closed').length} closed, ${cleanup.residue.filter((r) => r.status === 'left').length} left behind.`,
  );
  if (cleanup.residue.length > 0) {
    out.push('', '| Register | Key | Company | Status | Reason |', '|---|---|---|---|---|');
    for (const r of cleanup.residue) {
      out.push(`| ${mdCell(r.register)} | ${mdCell(r.key)} | ${r.company ?? ''} | ${r.status} | ${mdCell(r.reason)} |`);
    }
  }
  out.push(...fixturesMd(doc));
  if (doc.problems.length > 0) {
    out.push('', '### Problems of the run', '', ...doc.problems.slice(0, 50).map((p) => `- ${mdCell(clip(p))}`));
  }
  out.push('', `Repeat this run: \`${run.command}\``, '');
  return out.join('\n');
}
