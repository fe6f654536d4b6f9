import { type DocumentedFigure, type LoadScenarioResult, scenarios } from '@erpcert/load-k6';
import type { FigureComparison, LoadScenarioEntry } from './load-results.js';

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** `1234567` -> `1.23 MB`; under a megabyte in kB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${round(bytes / 1_000_000)} MB`;
  if (bytes >= 1000) return `${round(bytes / 1000, 1)} kB`;
  return `${bytes} B`;
}

/** A number with thousands separators and at most two decimals. */
export function formatNumber(n: number): string {
  return round(n).toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** The documented side of the verdict table, in the docs' words (the Limits row after its `|`). */
function documentedText(d: DocumentedFigure): string {
  if (!d.ratePerSecond && !d.read) return 'none';
  return d.quote.split('|')[1]?.trim() ?? d.quote;
}

/** Documented vs measured for one result (record-rest-api.md §8 "Limits"). */
export function compare(d: DocumentedFigure, r: LoadScenarioResult): FigureComparison {
  if (d.ratePerSecond) {
    const achieved = r.achievedRate ?? 0;
    return {
      documented: documentedText(d),
      measured: `${formatNumber(achieved)}/s checked (offered ${formatNumber(r.offeredRate ?? 0)}/s)`,
      ratio: round(achieved / d.ratePerSecond.min, 3),
      documentedBytesPerRecord: null,
    };
  }
  if (d.read) {
    const read = r.read;
    const documentedBytesPerRecord = round(d.read.bytes / d.read.records, 1);
    if (!read || read.seconds <= 0)
      return { documented: documentedText(d), measured: 'nothing read', ratio: 0, documentedBytesPerRecord };
    return {
      documented: documentedText(d),
      measured: `${formatNumber(read.records)} records in ${formatNumber(read.seconds)} s (batches of ${formatNumber(read.batch)}), ${formatBytes(read.bytes)}`,
      ratio: read.records >= d.read.records ? round(d.read.seconds / read.seconds, 3) : 0,
      documentedBytesPerRecord,
    };
  }
  return {
    documented: 'none',
    measured: `${formatNumber(r.achievedRate ?? 0)}/s checked (offered ${formatNumber(r.offeredRate ?? 0)}/s)`,
    ratio: null,
    documentedBytesPerRecord: null,
  };
}

/** The catalogue entry of a scenario. */
export function catalogueEntry(name: string) {
  const s = scenarios.find((x) => x.name === name);
  if (!s) throw new Error(`unknown scenario ${name}`);
  return s;
}

/** The result of one scenario with its documented figure and comparison. */
export function scenarioEntry(
  r: LoadScenarioResult,
  saturation?: LoadScenarioResult | LoadScenarioEntry,
): LoadScenarioEntry {
  const s = catalogueEntry(r.scenario);
  const documented: DocumentedFigure = s.documented;
  const limit = saturation?.saturationLimit ?? {
    limitedBy: 'step-limit' as const,
    evidence: 'the stepped run measured no step',
  };
  return {
    ...r,
    title: s.title,
    api: s.api,
    documented,
    comparison: compare(documented, r),
    ...(saturation?.saturation ? { saturation: saturation.saturation } : {}),
    ...(saturation
      ? {
          saturationVerdict: {
            verdict: saturation.verdict,
            reason: saturation.reason,
            limitedBy: limit.limitedBy,
            evidence: limit.evidence,
            ...(limit.advice ? { advice: limit.advice } : {}),
          },
        }
      : {}),
  };
}

/** An entry for a scenario that could not run (its setup failed): a `fail` with the reason. */
export function failedEntry(name: string, engine: 'k6' | 'autocannon', reason: string): LoadScenarioEntry {
  return scenarioEntry({
    scenario: name as LoadScenarioResult['scenario'],
    engine,
    latencyMs: { p50: 0, p90: 0, p95: 0, p99: 0, max: 0 },
    requests: 0,
    errors: 0,
    droppedIterations: 0,
    durationSeconds: 0,
    verdict: 'fail',
    reason,
  });
}
