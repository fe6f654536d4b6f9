/**
 * cleanup.json, the report `erpcert cleanup` writes (into the run's report folder, or `--out`), and the summary it
 * prints: what it removed, and every record of the run that stays on the target, by key, with why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CleanupItem, CleanupPlan, ResidueItem } from './cleanup-plan.js';

/** cleanup.json. */
export interface CleanupDocument {
  readonly schema: 'erpcert-cleanup/1';
  readonly tool: { readonly name: 'erpcert'; readonly version: string };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly source: {
    /** `report`: a report folder's ledger; `tag`: a search for the run tag; `fixtures`: the fixture set only. */
    readonly from: 'report' | 'tag' | 'fixtures';
    readonly report: { readonly kind: 'conformance' | 'load'; readonly folder: string } | null;
    readonly runTag: string | null;
    /** Set when the fixture set was cleaned up too (`--fixtures`). */
    readonly fixturePrefix: string | null;
  };
  readonly target: {
    readonly url: string;
    readonly user: string | null;
    readonly compcode: number | null;
    readonly companyIn: 'query' | 'path';
    readonly portalPath: string;
  };
  /** Registers read to find or check the records. */
  readonly searched: readonly string[];
  readonly totals: {
    /** Records the cleanup considered (ledger entries, or records found). */
    readonly records: number;
    readonly deleted: number;
    readonly alreadyGone: number;
    readonly closed: number;
    readonly kept: number;
    readonly failed: number;
    readonly untouched: number;
  };
  /** Every record of the run or fixture set that stays on the target, by key. */
  readonly residue: readonly ResidueItem[];
  readonly problems: readonly string[];
  /** 0 nothing removable was left; 1 some removal failed. */
  readonly exitCode: 0 | 1;
}

/** Counts of a residue list by status. */
export function residueCounts(residue: readonly ResidueItem[]) {
  const n = (s: ResidueItem['status']) => residue.filter((r) => r.status === s).length;
  return { closed: n('closed'), kept: n('kept'), failed: n('failed'), untouched: n('untouched') };
}

/** Writes cleanup.json into `dir`; returns its path. */
export function writeCleanupReport(doc: CleanupDocument, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'cleanup.json');
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`, 'utf8');
  return file;
}

const label = (e: CleanupItem) => `${e.register} ${e.key}${e.company !== null ? ` (company ${e.company})` : ''}`;

/** The `--dry-run` listing: what would be done with every record, and nothing done. */
export function renderPlan(plan: CleanupPlan): string {
  const lines = [
    ...plan.act.map(
      (e) =>
        `would ${e.disposal.kind === 'delete' ? 'delete' : 'close'}  ${label({ ...e, company: e.company ?? null })}: ${e.disposal.how}${e.confirmed ? ' (confirmed)' : ''}; tag in ${e.place}`,
    ),
    ...plan.residue.map((r) => `would leave  ${label(r)} [${r.status}]: ${r.reason}`),
    ...plan.alreadyGone.map((r) => `gone already ${label(r)}`),
  ];
  const removable = plan.act.length;
  return `${lines.join('\n')}${lines.length ? '\n' : ''}\nDry run: ${removable} record(s) would be deleted or closed, ${plan.residue.length} left, ${plan.alreadyGone.length} already gone. Nothing was touched.\n`;
}

/** The summary printed after a cleanup: counts, then the residue by key (the first `max`; all are in cleanup.json). */
export function renderSummary(doc: CleanupDocument, max = 30): string {
  const t = doc.totals;
  const what = doc.source.runTag ? `run ${doc.source.runTag}` : `fixture set ${doc.source.fixturePrefix}`;
  const lines = [
    `Cleanup of ${what}${doc.source.runTag && doc.source.fixturePrefix ? ` and fixture set ${doc.source.fixturePrefix}` : ''} on ${doc.target.url}:`,
    `  ${t.records} record(s): ${t.deleted} deleted, ${t.alreadyGone} already gone, ${t.closed} closed, ${t.kept} kept (no documented way to remove), ${t.failed} failed, ${t.untouched} untouched (no tag)`,
  ];
  if (doc.residue.length > 0) {
    lines.push('', 'Left on the target:');
    const order: ResidueItem['status'][] = ['failed', 'untouched', 'closed', 'kept'];
    const sorted = [...doc.residue].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status));
    for (const r of sorted.slice(0, max)) lines.push(`  ${r.status.padEnd(9)} ${label(r)}: ${r.reason}`);
    if (doc.residue.length > max) lines.push(`  ... and ${doc.residue.length - max} more: see cleanup.json`);
  }
  for (const p of doc.problems.slice(0, 10)) lines.push(`problem: ${p}`);
  return `${lines.join('\n')}\n`;
}
