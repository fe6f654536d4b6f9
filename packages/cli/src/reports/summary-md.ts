/**
 * summary.md: a short Markdown account that fits a CI job summary (GitHub's `$GITHUB_STEP_SUMMARY`):
 * totals, a table per rule area, the failures with their replay commands, the residue and the problems.
 */
import { markdownCell } from '@erpcert/contract';
import type { ResultsDocument, VerdictCounts } from '@erpcert/runs';
import { coverageLine } from '@erpcert/runs';
import { signatureLine } from '../attest/signature-line.js';
import { knownDeviationsVerdictLines } from '../known-deviations/apply-known-deviations.js';
import { causeGroups, causeOrder, failCountText, rootCauses } from './causes.js';
import { fixturesMd } from './fixtures-section.js';

/** At most this many failures are written out; the rest are counted (job summaries are limited to 1 MiB). */
const MAX_FAILURES = 50;
const MAX_TEXT = 2000;

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

function row(label: string, c: VerdictCounts, known: boolean): string {
  return `| ${label} | ${c.rules} | ${c.PASS} | ${failCountText(c.FAIL, c.following)} | ${c.ERROR} |${known ? ` ${c.KNOWN} |` : ''} ${c.WARN} | ${c.SKIP} | ${c.NONE} |`;
}

/** The known-deviations section: every KNOWN rule with its entry, and the entries that expired or are fixed. */
function knownMd(doc: ResultsDocument): string[] {
  const kd = doc.knownDeviations;
  if (kd === null) return [];
  const known = doc.rules.filter((r) => r.known !== null);
  const out = [
    '',
    '### Known deviations',
    '',
    `${kd.entries} entr${kd.entries === 1 ? 'y' : 'ies'} in \`${markdownCell(kd.file)}\`${kd.strict ? ' (--strict-baseline)' : ''}: ` +
      `${known.length} KNOWN, ${kd.fixed.length} fixed, ${kd.expired.length} expired, ${kd.unjudged.length} not judged in this run.` +
      `${kd.added !== null ? ` This run added ${kd.added.length} (--write-baseline).` : ''}`,
  ];
  if (known.length > 0) {
    out.push('', '| Rule | Verdict of the tests | Reason | Expires | Ticket |', '|---|---|---|---|---|');
    for (const r of known) {
      const k = r.known!;
      out.push(
        `| ${r.id} | ${k.verdict} | ${markdownCell(k.reason || '(no reason given yet)')} | ${k.expires ?? ''} | ${markdownCell(k.ticket ?? '')} |`,
      );
    }
  }
  const lines = knownDeviationsVerdictLines(kd);
  if (lines.length > 0) out.push('', ...lines.map((l) => `- ${markdownCell(l)}`));
  return out;
}

/** The causes section: each FAIL that other FAILs follow from, with them (nothing when none follows). */
function causesMd(doc: ResultsDocument): string[] {
  const groups = causeGroups(doc.rules);
  if (groups.length === 0) return [];
  return [
    '',
    '### Causes and the FAILs that follow from them',
    '',
    "A FAIL follows from another when its data passed through that rule's behaviour (`reliesOn` in rules.yaml) and",
    'that rule FAILed in this run (`causedBy` in results.json). It is still a FAIL; fix the cause first.',
    '',
    '| Cause | Following |',
    '|---|---|',
    ...groups.map((g) => `| ${g.cause} | ${g.followers.join(', ')} |`),
  ];
}

/** Renders summary.md from a results document. */
export function renderSummaryMd(doc: ResultsDocument): string {
  const { run, totals } = doc;
  const known = doc.knownDeviations !== null;
  const gateNotes = known ? knownDeviationsVerdictLines(doc.knownDeviations!) : [];
  const head =
    run.outcome === 'pass'
      ? `PASS${totals.KNOWN > 0 ? ` (${totals.KNOWN} known deviation${totals.KNOWN === 1 ? '' : 's'})` : ''}`
      : run.outcome === 'fail'
        ? `FAIL (${[
            totals.FAIL > 0
              ? `${totals.FAIL} rule${totals.FAIL === 1 ? '' : 's'} failed${totals.following ? `: ${totals.FAIL - totals.following} cause${totals.FAIL - totals.following === 1 ? '' : 's'}, ${totals.following} following` : ''}`
              : '',
            totals.ERROR > 0 ? `${totals.ERROR} rule${totals.ERROR === 1 ? '' : 's'} could not be judged` : '',
            totals.FAIL + totals.ERROR === 0 && gateNotes.length > 0 ? 'the baseline needs attention' : '',
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
    `| Area | Rules | PASS | FAIL | ERROR |${known ? ' KNOWN |' : ''} WARN | SKIP | not judged |`,
    `|---|---:|---:|---:|---:|${known ? '---:|' : ''}---:|---:|---:|`,
    row('**Total**', totals, known),
    ...doc.areas.map((a) => row(a.area, a, known)),
    '',
    'PASS: the rule held in at least one observation. FAIL: a documented or inferred rule is broken. ERROR: the rule',
    'could not be judged (the target answered 5xx, a body that does not parse, a reset or a timeout; or the suite',
    'failed without naming a rule). WARN: advisory (strict profile). SKIP: the target lacks data, permission or',
    'module, or no check observed the rule. Not judged: no test covers the rule, or it is unspecified and the',
    'profile is not strict.',
    ...(known ? ['KNOWN: a FAIL or ERROR of a rule the known-deviations file accepts; never counted as a PASS.'] : []),
  ];
  out.push(...knownMd(doc), ...causesMd(doc));
  const causedBy = (id: string) => doc.rules.find((r) => r.id === id)?.causedBy;
  // grouped under the cause: an entry that follows from another FAIL comes right after that FAIL's entry
  const failures = causeOrder(
    doc.failures.filter((f) => !f.known),
    (rule) => rootCauses(rule, causedBy),
  );
  if (failures.length > 0) {
    out.push('', '### Failures and errors', '');
    for (const f of failures.slice(0, MAX_FAILURES)) {
      const titles = f.rules.map((id) => `${id}: ${doc.rules.find((r) => r.id === id)?.title ?? ''}`);
      const follows = f.causedBy?.length ? ` (follows from ${f.causedBy.join(', ')})` : '';
      out.push(`#### ${f.verdict} ${markdownCell(titles.join('; '))}${follows}`, '', markdownCell(clip(f.message)), '');
      if (f.counterexample !== null) out.push('Counterexample:', '', fence(clip(f.counterexample)), '');
      out.push('Reproduce with:', '', fence(f.replay, 'sh'), '');
    }
    if (failures.length > MAX_FAILURES) {
      out.push(
        `... and ${failures.length - MAX_FAILURES} more failures and errors: see report.html or results.json.`,
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
      out.push(
        `| ${markdownCell(r.register)} | ${markdownCell(r.key)} | ${r.company ?? ''} | ${r.status} | ${markdownCell(r.reason)} |`,
      );
    }
  }
  out.push(...fixturesMd(doc));
  if (doc.problems.length > 0) {
    out.push('', '### Problems of the run', '', ...doc.problems.slice(0, 50).map((p) => `- ${markdownCell(clip(p))}`));
  }
  out.push('', `Repeat this run: \`${run.command}\``, '');
  return out.join('\n');
}
