/**
 * The self-test's account of detection power: per mutant, what the suite caught, and the rate.
 * Written to `reports/selftest/<timestamp>/detection.json` and summed up in one line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchRules, repoRoot } from '@erpcert/contract';
import type { ResultsDocument } from '../reports/results.js';
import type { Mutant } from './proxy.js';

/** What one mutant's run showed. */
export interface MutantOutcome {
  readonly id: string;
  readonly description: string;
  readonly breaks: readonly string[];
  readonly select: string;
  /**
   * `detected`: FAIL on exactly the broken rules; `unspecific`: every broken rule FAILed, and others too;
   * `missed`: some broken rule did not FAIL; `uncovered`: no test of the suite names a broken rule, so the
   * mutant was not run (counts as missed in the rate); `error`: the run did not complete (exit 2).
   */
  readonly status: 'detected' | 'unspecific' | 'missed' | 'uncovered' | 'error';
  /** Rules of the selection that FAILed. */
  readonly failed: readonly string[];
  readonly exitCode: number | null;
  /** How often the proxy changed a request or a response (0: the suite never touched the broken behaviour). */
  readonly proxyHits: { readonly requests: number; readonly responses: number } | null;
  readonly durationMs: number;
  /** Problems the run reported, if any. */
  readonly problems: readonly string[];
}

/** detection.json. */
export interface DetectionReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly baseline: { readonly select: string; readonly failed: readonly string[]; readonly exitCode: number };
  readonly mutants: readonly MutantOutcome[];
  readonly total: number;
  readonly detected: number;
  /** detected / total. */
  readonly rate: number;
}

/** The `--only` glob of a mutant. */
export const selectionOf = (m: Mutant): string => m.select ?? m.breaks.join(',');

/**
 * Judges one mutant's run from its results document: every broken rule FAILed, and no other rule of the
 * selection did. (A FAIL outside the selection, found by a selected test, is listed in `failed` but does
 * not count against the mutant: breaking one behaviour may show through a neighbouring rule.)
 */
export function judge(m: Mutant, doc: ResultsDocument): MutantOutcome['status'] {
  if (doc.run.exitCode === 2) return 'error';
  const failed = new Set(doc.rules.filter((r) => r.verdict === 'FAIL').map((r) => r.id));
  if (!m.breaks.every((r) => failed.has(r))) return 'missed';
  const selected = new Set(matchRules(selectionOf(m)).map((r) => r.id));
  const elsewhere = [...failed].filter((r) => selected.has(r) && !m.breaks.includes(r));
  return elsewhere.length === 0 ? 'detected' : 'unspecific';
}

/** Sums the outcomes up: the rate counts `detected` only. */
export function detectionReport(
  startedAt: Date,
  baseline: DetectionReport['baseline'],
  outcomes: readonly MutantOutcome[],
): DetectionReport {
  const detected = outcomes.filter((o) => o.status === 'detected').length;
  return {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    baseline,
    mutants: outcomes,
    total: outcomes.length,
    detected,
    rate: outcomes.length === 0 ? 0 : detected / outcomes.length,
  };
}

/** One line for the test output. */
export function detectionLine(r: DetectionReport): string {
  const missed = r.mutants.filter((m) => m.status !== 'detected').map((m) => `${m.id} (${m.status})`);
  return (
    `erpcert self-test: ${r.detected}/${r.total} mutants detected (${(100 * r.rate).toFixed(1)}%)` +
    (missed.length > 0 ? `; not detected: ${missed.join(', ')}` : '')
  );
}

/** Writes detection.json under `reports/selftest/<timestamp>/` (or `dir`); returns the file. */
export function writeDetection(r: DetectionReport, dir?: string): string {
  const folder = dir ?? join(repoRoot, 'reports', 'selftest', r.startedAt.replace(/\.\d+Z$/, 'Z').replace(/:/g, '-'));
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'detection.json');
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`, 'utf8');
  return file;
}
