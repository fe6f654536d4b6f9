/**
 * Markdown of one scenario run: the documented-vs-measured table (record-rest-api.md §8), latency, errors, the
 * thresholds, the reads per batch size and the saturation steps. Pure; runs inside k6's handleSummary. Cells are
 * escaped by @erpcert/contract's markdownCell, bundled for k6 into dist/vendor/erpcert-text.js.
 */
import { markdownCell } from '../dist/vendor/erpcert-text.js';
import type { DocumentedFigure, LoadScenarioResult } from '../scenarios/catalogue.ts';

const num = (value: number): string => String(Math.round(value * 1000) / 1000);

/** The documented figure in words, the measured one, and their ratio (>= 1 means as good as documented). */
export function documentedVsMeasured(
  documented: DocumentedFigure,
  result: LoadScenarioResult,
): { documented: string; measured: string; ratio: string } {
  const rate = documented.ratePerSecond;
  if (rate !== undefined && result.achievedRate !== undefined) {
    const words = rate.min === rate.max ? `about ${rate.min}/s` : `${rate.min} to ${rate.max}/s`;
    return { documented: words, measured: `${num(result.achievedRate)}/s`, ratio: num(result.achievedRate / rate.min) };
  }
  const read = documented.read;
  if (read !== undefined && result.read !== undefined) {
    const ratio = result.read.seconds > 0 ? num(read.seconds / result.read.seconds) : 'n/a';
    return {
      documented: `${read.records} records in about ${read.seconds} s`,
      measured: `${result.read.records} records in ${num(result.read.seconds)} s (batches of ${result.read.batch})`,
      ratio,
    };
  }
  const measured =
    result.achievedRate !== undefined
      ? `${num(result.achievedRate)}/s checked operations`
      : `${result.requests} requests`;
  return { documented: 'none', measured, ratio: 'n/a' };
}

/** The Markdown report of one scenario run. */
export function markdownReport(result: LoadScenarioResult, documented: DocumentedFigure): string {
  const vs = documentedVsMeasured(documented, result);
  const lines = [
    `# Load scenario \`${result.scenario}\` (${result.engine})`,
    '',
    `**Verdict: ${result.verdict.toUpperCase()}**: ${result.reason}`,
    '',
    '| Scenario | Documented | Measured | Ratio | Verdict |',
    '| --- | --- | --- | --- | --- |',
    `| ${result.scenario} | ${markdownCell(vs.documented)} | ${markdownCell(vs.measured)} | ${vs.ratio} | ${result.verdict} |`,
    '',
    `Documented: "${markdownCell(documented.quote)}"${documented.rule === undefined ? '' : ` (${documented.rule})`}.`,
    '',
    '| Requests | Errors | Dropped iterations | Checks passed | Checks failed | Bytes per record | Duration (s) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    `| ${result.requests} | ${result.errors} | ${result.droppedIterations} | ${result.checks?.passes ?? 'n/a'} | ${result.checks?.fails ?? 'n/a'} | ${result.bytesPerRecord ?? 'n/a'} | ${num(result.durationSeconds)} |`,
    '',
    '| Latency (ms) | p50 | p90 | p95 | p99 | max |',
    '| --- | --- | --- | --- | --- | --- |',
    `| per request | ${num(result.latencyMs.p50)} | ${num(result.latencyMs.p90)} | ${num(result.latencyMs.p95)} | ${num(result.latencyMs.p99)} | ${num(result.latencyMs.max)} |`,
  ];
  if (result.reads !== undefined && result.reads.length > 0) {
    lines.push(
      '',
      '| Batch | Records | Request time (s) | Paced wall time (s) | Bytes |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const r of result.reads) {
      lines.push(
        `| ${r.batch} | ${r.records} | ${num(r.seconds)} | ${r.pacedSeconds === undefined ? 'n/a' : num(r.pacedSeconds)} | ${r.bytes} |`,
      );
    }
    if (documented.read !== undefined) {
      lines.push(
        '',
        `Documented response size: about ${documented.read.bytes / 1_000_000} MB (information, not a verdict).`,
      );
    }
  }
  if (result.saturation !== undefined && result.saturation.length > 0) {
    lines.push('', '| Offered (/s) | Achieved (/s) | p99 (ms) | Errors | Dropped |', '| --- | --- | --- | --- | --- |');
    for (const s of result.saturation) {
      lines.push(`| ${num(s.offered)} | ${num(s.achieved)} | ${num(s.p99)} | ${s.errors} | ${s.dropped ?? 'n/a'} |`);
    }
  }
  if (result.thresholds !== undefined && result.thresholds.length > 0) {
    lines.push('', '| Threshold | Meaning | Held |', '| --- | --- | --- |');
    for (const t of result.thresholds) {
      lines.push(
        `| \`${markdownCell(t.metric)} ${markdownCell(t.expression)}\` | ${markdownCell(t.title)} | ${t.ok ? 'yes' : 'NO'} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
