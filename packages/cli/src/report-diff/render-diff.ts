/**
 * The diff of two report folders as a terminal table and as Markdown (for a pull request comment or a CI job
 * summary: `erpcert report diff OLD NEW --md diff.md`, then `cat diff.md >> "$GITHUB_STEP_SUMMARY"`).
 */

import { markdownCell } from '@erpcert/contract';
import type { ConformanceDiff, LoadDiff, LoadFigureDiff } from '@erpcert/runs';
import { formatChange, formatNumber } from '@erpcert/runs';

/** A diff of either kind, with the folders as the user named them. */
export type ReportDiff = (ConformanceDiff | LoadDiff) & {
  readonly folders: { readonly old: string; readonly new: string };
};

function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (r: readonly string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)];
}

function mdTable(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(markdownCell).join(' | ')} |`),
  ];
}

const KIND_LABEL = { 'new-fail': 'NEW FAIL', fixed: 'fixed', changed: 'changed' } as const;
const spreadText = (f: LoadFigureDiff) =>
  f.spreadUnit === 'count' ? `±${formatNumber(f.spread)}` : `±${Math.round(f.spread * 1000) / 10} %`;

function conformanceRows(d: ConformanceDiff): string[][] {
  return d.changes.map((c) => [KIND_LABEL[c.kind], c.rule, c.before, c.after]);
}

function conformanceHeadline(d: ConformanceDiff): string {
  return (
    `${d.newFails.length} new FAIL(s), ${d.fixed.length} fixed, ${d.changes.length - d.newFails.length - d.fixed.length} other change(s), ` +
    `${d.unchanged} rule(s) unchanged${d.onlyOld + d.onlyNew > 0 ? `; ${d.onlyOld} rule(s) only in the old run, ${d.onlyNew} only in the new one` : ''}`
  );
}

function loadFacts(d: LoadDiff): { moved: LoadFigureDiff[]; headline: string } {
  const moved = d.figures.filter((f) => f.moved);
  const worse = moved.filter((f) => f.direction === 'worse').length;
  return {
    moved,
    headline:
      `${d.verdictChanges.length} scenario verdict(s) changed; ${moved.length} of ${d.figures.length} figure(s) moved beyond their spread ` +
      `(${worse} worse, ${moved.length - worse} better; spread floor ${Math.round(d.spreadFloor * 1000) / 10} %)`,
  };
}

const loadHead = ['scenario', 'figure', 'old', 'new', 'change', 'spread', ''];
const loadRow = (f: LoadFigureDiff) => [
  f.scenario,
  f.figure,
  formatNumber(f.before),
  formatNumber(f.after),
  formatChange(f.change),
  spreadText(f),
  f.direction,
];

/** The diff as text for the terminal. */
export function renderDiffText(d: ReportDiff): string {
  const lines = [`erpcert report diff: ${d.folders.old} -> ${d.folders.new} (${d.kind})`];
  if (d.kind === 'conformance') {
    lines.push(conformanceHeadline(d));
    if (d.changes.length > 0) lines.push('', ...table(['', 'rule', 'old', 'new'], conformanceRows(d)));
  } else {
    const { moved, headline } = loadFacts(d);
    lines.push(headline);
    if (d.verdictChanges.length > 0)
      lines.push(
        '',
        ...table(
          ['scenario', 'old', 'new'],
          d.verdictChanges.map((v) => [v.scenario, v.before, v.after]),
        ),
      );
    if (moved.length > 0) lines.push('', ...table(loadHead, moved.map(loadRow)));
    if (d.onlyOld.length > 0) lines.push(`only in the old run: ${d.onlyOld.join(', ')}`);
    if (d.onlyNew.length > 0) lines.push(`only in the new run: ${d.onlyNew.join(', ')}`);
  }
  for (const n of d.notes) lines.push(`note: ${n}`);
  return `${lines.join('\n')}\n`;
}

/** The diff as Markdown. */
export function renderDiffMd(d: ReportDiff): string {
  const out = [`### erpcert: what changed since \`${markdownCell(d.folders.old)}\``, ''];
  if (d.kind === 'conformance') {
    out.push(
      `Conformance, ${d.old.startedAt} (${d.old.profile}) to ${d.new.startedAt} (${d.new.profile}): ${conformanceHeadline(d)}.`,
    );
    if (d.newFails.length > 0) out.push('', `**New FAILs**: ${d.newFails.map((r) => `\`${r}\``).join(', ')}`);
    if (d.fixed.length > 0) out.push('', `**Fixed**: ${d.fixed.map((r) => `\`${r}\``).join(', ')}`);
    if (d.changes.length > 0)
      out.push(
        '',
        ...mdTable(
          ['', 'Rule', 'Old', 'New', 'Reason (new run)'],
          d.changes.map((c) => [KIND_LABEL[c.kind], c.rule, c.before, c.after, (c.reason ?? '').slice(0, 200)]),
        ),
      );
  } else {
    const { moved, headline } = loadFacts(d);
    out.push(`Load, ${d.old.startedAt} (${d.old.engine}) to ${d.new.startedAt} (${d.new.engine}): ${headline}.`);
    if (d.verdictChanges.length > 0)
      out.push(
        '',
        ...mdTable(
          ['Scenario', 'Old verdict', 'New verdict'],
          d.verdictChanges.map((v) => [v.scenario, v.before, v.after]),
        ),
      );
    if (moved.length > 0)
      out.push(
        '',
        ...mdTable(
          loadHead.map((h, i) => (i === 6 ? 'Direction' : h)),
          moved.map(loadRow),
        ),
      );
    if (d.onlyOld.length > 0) out.push('', `Only in the old run: ${d.onlyOld.join(', ')}`);
    if (d.onlyNew.length > 0) out.push('', `Only in the new run: ${d.onlyNew.join(', ')}`);
  }
  if (d.notes.length > 0) out.push('', ...d.notes.map((n) => `- Note: ${markdownCell(n)}`));
  out.push('');
  return out.join('\n');
}
