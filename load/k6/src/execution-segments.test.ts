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
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { k6Available, k6Path, packageDir } from './k6-binary.js';
import { mergeK6Summaries, resultOfSegments } from './merge-summaries.js';
import { runK6ScenarioDetailed } from './run-scenario.js';
import { resultOfRunnerFiles } from './runner-outputs.js';
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
    const segment = (executionSegment: string, dir: string) =>
      runK6ScenarioDetailed({
        ...base,
        outDir: join(out, dir),
        executionSegment,
        executionSegmentSequence: '0,1/2,1',
        parallelism: 2, // each runner's count gate asks for its half
      });
    const parts = await Promise.all([segment('0:1/2', 'a'), segment('1/2:1', 'b')]);
    const merged = mergeK6Summaries(parts.map((p) => p.summary!));
    const count = (summary: typeof merged, metric: string): number => summary.metrics[metric]?.values.count ?? 0;

    // 10/s x 3 s; the arrival due at the window's end races with its end (see the tolerance above)
    expect(Math.abs(count(single.summary!, 'iterations') - 30)).toBeLessThanOrEqual(TOLERANCE);
    for (const metric of ['iterations', 'erp_reqs', 'erp_ops']) {
      expect(Math.abs(count(merged, metric) - count(single.summary!, metric)), metric).toBeLessThanOrEqual(TOLERANCE);
    }
    // each part did its share (striped halves), not the whole run twice
    for (const part of parts) expect(Math.abs(count(part.summary!, 'iterations') - 15)).toBeLessThanOrEqual(TOLERANCE);
    expect(parts.map((p) => p.result.verdict)).toEqual(['info', 'info']); // a part alone has no verdict
    expect(parts.map((p) => p.exitCode)).toEqual([0, 0]); // but every threshold of its share held
    const distributed = resultOfSegments(parts);
    expect(distributed.verdict).toBe(single.result.verdict);
    expect(Math.abs(distributed.achievedRate! - single.result.achievedRate!)).toBeLessThanOrEqual(TOLERANCE / 3);
  }, 120_000);

  it('the k6-operator way: one archive, two runners from it, their logs merged into the verdict', async () => {
    const run = promisify(execFile);
    const archive = join(out, 'transactions.tar');
    const secret = 'Pw-archive-probe-51d2'; // in the shell's environment while archiving: must not be embedded
    await run(
      'bash',
      [
        join(packageDir, 'scripts', 'k6-archive.sh'),
        'transactions',
        archive,
        ...['ERPCERT_RATE=10', 'ERPCERT_DURATION=2', 'ERPCERT_PARALLELISM=2', 'ERPCERT_SUMMARY_STDOUT=1'].flatMap(
          (e) => ['-e', e],
        ),
      ],
      { env: { ...process.env, ERPCERT_PASSWORD: secret } },
    );
    // what TestRun's runner.env gives every pod; the password never went into the archive
    const env = {
      ...process.env,
      ERPCERT_TARGET: erp!.url,
      ERPCERT_PASSWORD: 'erpcert',
      K6_AUTO_EXTENSION_RESOLUTION: 'false',
    };
    expect((await readFile(archive)).includes(secret)).toBe(false);
    const logs = await Promise.all(
      ['0:1/2', '1/2:1'].map(async (segment, i) => {
        const args = ['run', '--quiet', '--no-usage-report', '--execution-segment', segment];
        args.push('--execution-segment-sequence', '0,1/2,1', archive);
        const { stdout } = await run(k6Path()!, args, {
          cwd: out,
          env: { ...env, ERPCERT_OUT: join(out, `pod-${i}`) },
        });
        const log = join(out, `pod-${i}.log`);
        await writeFile(log, stdout);
        return log;
      }),
    );
    const result = await resultOfRunnerFiles(logs);
    expect(result.verdict).toBe('pass');
    expect(result.requests).toBe(20); // 10/s x 2 s over both runners
    expect(result.achievedRate).toBe(10);
  }, 120_000);
});
