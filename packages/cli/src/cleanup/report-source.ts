/**
 * A report folder as `erpcert cleanup DIR` reads it: which run it was (conformance or load), its run tag, the
 * target it ran against, and its ledger (`ledger.jsonl`, suites/conformance/src/runner/ledger.ts).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../options.js';
import { type LedgerEntry, readLedger } from '../reports/runner.js';
import { tagKind } from './tag-match.js';

/** The target a run used, as its results.json records it (never a password). */
export interface ReportTarget {
  readonly url: string;
  readonly embedded: boolean;
  readonly user: string | null;
  readonly compcode: number | null;
  readonly companyIn: 'query' | 'path';
  readonly portalPath: string;
}

/** A report folder, read. */
export interface ReportSource {
  readonly kind: 'conformance' | 'load';
  /** The folder's name (reports show no local path). */
  readonly folder: string;
  readonly target: ReportTarget;
  /** Conformance: results.json `run.runTag`; load: the ledger entries' `tag`; undefined when the ledger is empty. */
  readonly runTag: string | undefined;
  /** Whether the folder has a ledger.jsonl. */
  readonly hasLedger: boolean;
  /** The records the run created and did not remove itself, in creation order. */
  readonly entries: readonly LedgerEntry[];
  readonly problems: readonly string[];
}

const notAReport = (dir: string, why: string) =>
  new UsageError(
    `${dir} is not a report folder of erpcert conform or erpcert load (${why}); name the folder of a run, or use --tag TAG`,
  );

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function targetOf(run: Record<string, unknown> | undefined, dir: string): ReportTarget {
  const t = obj(run?.target);
  if (!t || typeof t.url !== 'string') throw notAReport(dir, 'results.json names no target');
  return {
    url: t.url,
    embedded: t.embedded === true,
    user: typeof t.user === 'string' ? t.user : null,
    compcode: typeof t.compcode === 'number' ? t.compcode : null,
    companyIn: t.companyIn === 'path' ? 'path' : 'query',
    portalPath: typeof t.portalPath === 'string' ? t.portalPath : '/WebErpAPI.hal',
  };
}

/** Reads a report folder; throws UsageError (exit 2) when it is not one. */
export function readReportSource(dir: string): ReportSource {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw notAReport(dir, 'no such folder');
  const file = join(dir, 'results.json');
  if (!existsSync(file)) throw notAReport(dir, 'it has no results.json');
  let doc: Record<string, unknown> | undefined;
  try {
    doc = obj(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    doc = undefined;
  }
  if (!doc) throw notAReport(dir, 'its results.json is not a JSON object');
  const run = obj(doc.run);
  const kind =
    doc.kind === 'erpcert-conformance'
      ? 'conformance'
      : typeof doc.schema === 'string' && doc.schema.startsWith('erpcert-load-results/')
        ? 'load'
        : undefined;
  if (!kind) throw notAReport(dir, 'its results.json is neither a conformance nor a load result');
  const target = targetOf(run, dir);
  const ledgerFile = join(dir, 'ledger.jsonl');
  const hasLedger = existsSync(ledgerFile);
  const { entries, problems } = readLedger(ledgerFile);
  let runTag: string | undefined;
  if (kind === 'conformance') {
    runTag = typeof run?.runTag === 'string' ? run.runTag : undefined;
    if (runTag === undefined || tagKind(runTag) !== 'conformance')
      throw notAReport(dir, 'its results.json has no run tag like EC4K2Q');
  } else {
    const tags = [...new Set(entries.map((e) => e.tag).filter((t): t is string => t !== undefined))];
    if (tags.length > 1) throw notAReport(dir, `its ledger names several run tags (${tags.join(', ')})`);
    if (entries.length > 0 && (tags.length === 0 || tagKind(tags[0]!) !== 'load'))
      throw notAReport(dir, 'its ledger entries carry no load run tag like erpcert-load-1a2b3c4d');
    runTag = tags[0];
  }
  return { kind, folder: basename(dir), target, runTag, hasLedger, entries, problems };
}
