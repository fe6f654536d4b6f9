/**
 * The distributed run proved locally: the same bounded constant-arrival-rate scenario as one k6 process, and as
 * two processes on the execution segments 0:1/2 and 1/2:1 (the split k6-operator makes with `parallelism: 2`).
 * The merged iteration and request totals must match the single run.
 *
 * Tolerance: at most one iteration per segment boundary (here one). k6 stripes the global arrival schedule
 * (0, 1/R, 2/R, ...) across the segments of the sequence, and each process ends its window on its own clock. An
 * arrival due at the very end of the window races with the end of the scenario in each process separately, so
 * the merged run could start one arrival more or fewer than the single one. The scenarios end their window half a
 * period before the next arrival (lib/options.ts arrivalWindow), so the counts are normally equal.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Available } from './k6-binary.js';
import { mergeK6Summaries, resultOfSegments } from './merge-summaries.js';
import { runK6ScenarioDetailed } from './run-scenario.js';
import { type ServedErp, serveErp } from './testing/erpcert-serve.js';

const TOLERANCE = 1; // one internal segment boundary (see above)

let erp: ServedErp | undefined;
let out: string;

describe.skipIf(!k6Available())('execution segments (skipped only when k6 is not built: pnpm build)', () => {
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'erpcert-k6-seg-'));
    erp = await serveErp(['--seed-size', '0']);
  }, 90_000);

  afterAll(async () => {
    await erp?.stop();
    if (out !== undefined) await rm(out, { recursive: true, force: true });
  });

  it('two segments of transactions at 10/s for 3 s add up to the single-process run', async () => {
    const base = { scenario: 'transactions' as const, target: erp!.url, rate: 10, durationSeconds: 3, timeoutMs: 5000 };
    const single = await runK6ScenarioDetailed({ ...base, outDir: join(out, 'single') });
    const sequence = '0,1/2,1';
    const parts = await Promise.all([
      runK6ScenarioDetailed({
        ...base,
        outDir: join(out, 'a'),
        executionSegment: '0:1/2',
        executionSegmentSequence: sequence,
      }),
      runK6ScenarioDetailed({
        ...base,
        outDir: join(out, 'b'),
        executionSegment: '1/2:1',
        executionSegmentSequence: sequence,
      }),
    ]);
    const merged = mergeK6Summaries(parts.map((p) => p.summary!));
    const count = (summary: typeof merged, metric: string): number => summary.metrics[metric]?.values.count ?? 0;

    expect(count(single.summary!, 'iterations')).toBe(30); // 10/s x 3 s
    for (const metric of ['iterations', 'erp_reqs', 'erp_ops']) {
      expect(Math.abs(count(merged, metric) - count(single.summary!, metric)), metric).toBeLessThanOrEqual(TOLERANCE);
    }
    // each part did its share (striped halves), not the whole run twice
    for (const part of parts) expect(count(part.summary!, 'iterations')).toBe(15);
    expect(parts.map((p) => p.result.verdict)).toEqual(['info', 'info']); // a part alone has no verdict
    const distributed = resultOfSegments(parts);
    expect(distributed.verdict).toBe(single.result.verdict);
    expect(Math.abs(distributed.achievedRate! - single.result.achievedRate!)).toBeLessThanOrEqual(TOLERANCE / 3);
  }, 120_000);
});
