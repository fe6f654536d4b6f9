import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LoadRunDocument } from '../load/load-results.js';
import { coverageLine, judgedCoverage, loadReportVerdicts, readLoadReport } from './coverage-line.js';
import type { ReportVerdict, RuleResult } from './results.js';

const rule = (
  id: string,
  verdict: ReportVerdict,
  more: Partial<Pick<RuleResult, 'standing' | 'observable' | 'kind'>> = {},
): RuleResult => ({ id, verdict, standing: 'documented', observable: true, kind: 'semantic', ...more }) as RuleResult;

const RULES: readonly RuleResult[] = [
  rule('A.PASS', 'PASS'),
  rule('A.FAIL', 'FAIL'),
  rule('A.ERROR', 'ERROR'),
  rule('A.SKIP', 'SKIP'),
  rule('A.NONE', 'NONE'),
  rule('A.INFERRED', 'NONE', { standing: 'inferred' }),
  rule('A.UNSPECIFIED', 'NONE', { standing: 'unspecified' }),
  rule('A.HIDDEN', 'NONE', { observable: false }),
  rule('REST.LIMITS.X', 'NONE', { kind: 'performance' }),
  rule('REST.LIMITS.Y', 'NONE', { kind: 'performance' }),
];

const loadDoc = (scenarios: { rule?: string; verdict: 'pass' | 'fail' | 'info' }[]) =>
  ({
    run: { startedAt: '2026-11-27T06:00:00Z', engine: 'autocannon' },
    scenarios: scenarios.map((s) => ({
      documented: s.rule ? { quote: '', rule: s.rule } : { quote: '' },
      verdict: s.verdict,
    })),
  }) as unknown as LoadRunDocument;

describe('the coverage line', () => {
  it('counts documented observable rules PASS or FAIL; ERROR, SKIP and NONE are not judged; load rules apart', () => {
    const c = judgedCoverage(RULES);
    expect(c).toMatchObject({ total: 7, judged: 2, notJudged: ['A.ERROR', 'A.SKIP', 'A.NONE'], loadRun: null });
    expect(c.byLoad).toEqual([
      { id: 'REST.LIMITS.X', verdict: null },
      { id: 'REST.LIMITS.Y', verdict: null },
    ]);
    expect(coverageLine(c)).toBe(
      "Coverage: 2 of 7 documented observable rules judged; 2 rules judged by erpcert load (give --load-report DIR for a load run's verdicts); not judged: A.ERROR, A.SKIP, A.NONE",
    );
  });

  it('with a load run, its verdicts count as judged and are shown; a rule the run lacks is named so', () => {
    const load = loadReportVerdicts(
      loadDoc([{ rule: 'REST.LIMITS.X', verdict: 'fail' }, { verdict: 'info' }, { rule: 'OTHER', verdict: 'pass' }]),
    );
    const c = judgedCoverage(RULES, load);
    expect(c.judged).toBe(3);
    expect(c.byLoad).toEqual([
      { id: 'REST.LIMITS.X', verdict: 'FAIL' },
      { id: 'REST.LIMITS.Y', verdict: null },
    ]);
    expect(coverageLine(c)).toContain(
      '2 rules judged by erpcert load: FAIL 1, not in that run 1 (load run of 2026-11-27T06:00:00Z, autocannon)',
    );
  });

  it.each([
    [['pass', 'fail'], 'FAIL'],
    [['fail', 'pass'], 'FAIL'],
    [['info', 'pass'], 'PASS'],
    [['pass', 'info'], 'PASS'],
    [['info'], 'INFO'],
  ] as const)('two scenarios of one rule %j give %s', (verdicts, want) => {
    const load = loadReportVerdicts(loadDoc(verdicts.map((verdict) => ({ rule: 'R', verdict }))));
    expect(load.verdicts.R).toBe(want);
  });

  it('names five rules not judged and counts the rest', () => {
    const many = Array.from({ length: 8 }, (_, i) => rule(`N.${i}`, 'NONE'));
    expect(coverageLine(judgedCoverage(many))).toBe(
      'Coverage: 0 of 8 documented observable rules judged; not judged: N.0, N.1, N.2, N.3, N.4 and 3 more',
    );
  });

  it('--load-report on a folder without a load run gives the reason, not a verdict', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-coverage-'));
    try {
      const r = readLoadReport(dir, process.cwd());
      expect(r).toHaveProperty('error');
      expect((r as { error: string }).error).toMatch(/holds no results\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
