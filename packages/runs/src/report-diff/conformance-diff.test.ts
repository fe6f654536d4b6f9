import { describe, expect, it } from 'vitest';
import { diffConformance } from './conformance-diff.js';
import type { ConformanceRunSummary } from './read-report-folder.js';

const run = (rules: Record<string, string>, more: Partial<ConformanceRunSummary> = {}): ConformanceRunSummary => ({
  kind: 'conformance',
  schemaVersion: 3,
  startedAt: '2026-11-27T06:00:00.000Z',
  profile: 'full',
  only: null,
  targetUrl: 'https://erp.example.com',
  embedded: false,
  exitCode: 0,
  rules: Object.entries(rules).map(([id, verdict]) => ({
    id,
    verdict: verdict as ConformanceRunSummary['rules'][number]['verdict'],
    reason: `${verdict} reason`,
  })),
  ...more,
});

describe('diffConformance', () => {
  it.each([
    ['PASS to FAIL is a new FAIL', 'PASS', 'FAIL', 'new-fail'],
    ['SKIP to ERROR is a new FAIL', 'SKIP', 'ERROR', 'new-fail'],
    ['KNOWN to FAIL (entry expired or removed) is a new FAIL', 'KNOWN', 'FAIL', 'new-fail'],
    ['FAIL to PASS is fixed', 'FAIL', 'PASS', 'fixed'],
    ['KNOWN to PASS is fixed', 'KNOWN', 'PASS', 'fixed'],
    ['FAIL to ERROR is a change, not a new FAIL', 'FAIL', 'ERROR', 'changed'],
    ['FAIL to KNOWN (accepted) is a change', 'FAIL', 'KNOWN', 'changed'],
    ['PASS to SKIP is a change', 'PASS', 'SKIP', 'changed'],
  ] as const)('%s', (_name, before, after, kind) => {
    const d = diffConformance(run({ 'REST.A.B': before }), run({ 'REST.A.B': after }));
    expect(d.changes).toEqual([{ rule: 'REST.A.B', before, after, kind, reason: `${after} reason` }]);
  });

  it('lists new FAILs, then fixed, then the rest; counts the unchanged', () => {
    const d = diffConformance(
      run({ 'REST.Z.Z': 'PASS', 'REST.B.B': 'FAIL', 'REST.C.C': 'PASS', 'REST.D.D': 'SKIP', 'REST.E.E': 'PASS' }),
      run({ 'REST.Z.Z': 'FAIL', 'REST.B.B': 'PASS', 'REST.C.C': 'SKIP', 'REST.D.D': 'SKIP', 'REST.E.E': 'PASS' }),
    );
    expect(d.changes.map((c) => [c.kind, c.rule])).toEqual([
      ['new-fail', 'REST.Z.Z'],
      ['fixed', 'REST.B.B'],
      ['changed', 'REST.C.C'],
    ]);
    expect([d.newFails, d.fixed, d.unchanged]).toEqual([['REST.Z.Z'], ['REST.B.B'], 2]);
  });

  it('a rule only one run holds is counted, and listed only when it FAILs in the new run', () => {
    const d = diffConformance(
      run({ 'REST.A.A': 'PASS', 'REST.OLD.ONLY': 'FAIL' }, { only: 'REST.A.*,REST.OLD.*' }),
      run({ 'REST.A.A': 'PASS', 'REST.NEW.PASS': 'PASS', 'REST.NEW.FAIL': 'FAIL' }),
    );
    expect(d.changes.map((c) => [c.kind, c.rule, c.before])).toEqual([['new-fail', 'REST.NEW.FAIL', 'absent']]);
    expect([d.onlyOld, d.onlyNew]).toEqual([1, 1]);
    expect(d.notes).toEqual(['the runs select different rules: REST.A.*,REST.OLD.* and all']);
  });

  it('two runs of the embedded server (a new port each time) have the same target', () => {
    const embedded = { embedded: true, targetUrl: 'http://127.0.0.1:41000' };
    const d = diffConformance(run({}, embedded), run({}, { ...embedded, targetUrl: 'http://127.0.0.1:42000' }));
    expect(d.notes).toEqual([]);
  });

  it('says when the runs have different targets or profiles', () => {
    const d = diffConformance(run({}), run({}, { targetUrl: 'https://other.example.com', profile: 'readonly' }));
    expect(d.notes).toEqual([
      'the runs have different targets: https://erp.example.com and https://other.example.com',
      'the runs have different profiles: full and readonly',
    ]);
  });
});

describe('diffConformance: a new FAIL that follows from another (issue 28)', () => {
  it('says what it follows from, so the reviewer looks at the cause first', () => {
    const after = run({ 'REST.A.CAUSE': 'FAIL', 'REST.A.FOLLOWER': 'FAIL' });
    const withCause = {
      ...after,
      rules: after.rules.map((r) => (r.id === 'REST.A.FOLLOWER' ? { ...r, causedBy: ['REST.A.CAUSE'] } : r)),
    };
    const d = diffConformance(run({ 'REST.A.CAUSE': 'PASS', 'REST.A.FOLLOWER': 'PASS' }), withCause);
    expect(d.newFails).toEqual(['REST.A.CAUSE', 'REST.A.FOLLOWER']);
    expect(d.changes.map((c) => c.reason)).toEqual(['FAIL reason', 'follows from REST.A.CAUSE: FAIL reason']);
  });
});
