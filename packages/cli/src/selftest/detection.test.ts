import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultsDocument } from '../reports/results.js';
import type { RunEvent } from '../reports/runner.js';
import { sampleResults, testEvent } from '../reports/testing.js';
import { detectionLine, detectionReport, judge, type MutantOutcome, selectionOf, writeDetection } from './detection.js';
import type { Mutant } from './proxy.js';

const mutant: Mutant = { id: 'm', description: 'd', breaks: ['REST.QUERY.LIMIT', 'REST.QUERY.OFFSET'] };
const end = { type: 'run-end', at: 'x', reason: 'failed', errors: [] } as const;
const fail = (rule: string) => testEvent({ rules: [rule], state: 'failed', verdicts: [{ rule, verdict: 'FAIL' }] });
const pass = (rule: string) => testEvent({ rules: [rule], state: 'passed', verdicts: [{ rule, verdict: 'PASS' }] });
const doc = (...events: RunEvent[]): ResultsDocument =>
  sampleResults({ events: [...events, end], scope: 'REST.QUERY.*' });

describe('judge', () => {
  const wide: Mutant = { ...mutant, select: 'REST.QUERY.*' };
  it.each<[string, Mutant, ResultsDocument, string]>([
    [
      'exactly the broken rules FAIL',
      mutant,
      doc(fail('REST.QUERY.LIMIT'), fail('REST.QUERY.OFFSET'), pass('REST.QUERY.FIELDS')),
      'detected',
    ],
    ['one broken rule passes', mutant, doc(fail('REST.QUERY.LIMIT'), pass('REST.QUERY.OFFSET')), 'missed'],
    [
      'another rule of the selection FAILs too',
      wide,
      doc(fail('REST.QUERY.LIMIT'), fail('REST.QUERY.OFFSET'), fail('REST.QUERY.FIELDS')),
      'unspecific',
    ],
    [
      'a rule outside the selection FAILs too (found by a selected test)',
      mutant,
      doc(fail('REST.QUERY.LIMIT'), fail('REST.QUERY.OFFSET'), fail('REST.QUERY.FIELDS')),
      'detected',
    ],
    [
      'the run broke (a file did not load)',
      mutant,
      sampleResults({
        events: [fail('REST.QUERY.LIMIT'), { type: 'module-end', file: 'f', errors: ['boom'] }, end],
        scope: 'REST.QUERY.*',
      }),
      'error',
    ],
  ])('%s', (_name, m, d, want) => {
    expect(judge(m, d)).toBe(want);
  });
});

describe('the detection report', () => {
  const outcome = (id: string, status: MutantOutcome['status']): MutantOutcome => ({
    id,
    description: id,
    breaks: ['X.Y.Z'],
    select: 'X.Y.Z',
    status,
    failed: [],
    exitCode: 1,
    proxyHits: null,
    durationMs: 1,
    problems: [],
  });

  it('counts only detected mutants in the rate and names the others in its line', () => {
    const r = detectionReport(new Date('2025-03-01T10:00:00Z'), { select: 'X.Y.Z', failed: [], exitCode: 0 }, [
      outcome('a', 'detected'),
      outcome('b', 'detected'),
      outcome('c', 'uncovered'),
      outcome('d', 'unspecific'),
    ]);
    expect([r.total, r.detected, r.rate]).toEqual([4, 2, 0.5]);
    expect(detectionLine(r)).toBe(
      'erpcert self-test: 2/4 mutants detected (50.0%); not detected: c (uncovered), d (unspecific)',
    );
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-detection-'));
    try {
      const file = writeDetection(r, dir);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(r);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the selection of a mutant is its select glob, else its broken rules', () => {
    expect(selectionOf(mutant)).toBe('REST.QUERY.LIMIT,REST.QUERY.OFFSET');
    expect(selectionOf({ ...mutant, select: 'REST.QUERY.*' })).toBe('REST.QUERY.*');
  });
});
