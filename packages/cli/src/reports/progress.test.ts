import { describe, expect, it } from 'vitest';
import { ProgressPrinter } from './progress.js';
import type { RunEvent } from './runner.js';
import { testEvent } from './testing.js';

const events: RunEvent[] = [
  { type: 'run-start', at: 'x', files: ['a.prop.ts', 'b.prop.ts'] },
  testEvent({
    file: 'a.prop.ts',
    rules: ['REST.QUERY.LIMIT'],
    state: 'passed',
    verdicts: [{ rule: 'REST.QUERY.LIMIT', verdict: 'PASS' }],
  }),
  testEvent({
    file: 'a.prop.ts',
    rules: ['REST.QUERY.FIELDS'],
    state: 'failed',
    verdicts: [{ rule: 'REST.QUERY.FIELDS', verdict: 'FAIL' }],
  }),
  testEvent({ file: 'a.prop.ts', rules: ['REST.QUERY.OFFSET'], state: 'skipped', verdicts: [], selected: false }),
  { type: 'module-end', file: 'a.prop.ts', errors: [] },
  testEvent({
    file: 'b.prop.ts',
    rules: ['REST.ERRORS.BODY_FORMAT_NOT_SHOWN'],
    state: 'failed',
    verdicts: [{ rule: 'REST.ERRORS.BODY_FORMAT_NOT_SHOWN', verdict: null }],
  }),
  { type: 'module-end', file: 'b.prop.ts', errors: ['SyntaxError: y'] },
  { type: 'run-end', at: 'y', reason: 'failed', errors: [] },
];

function print(tty: boolean): string {
  let text = '';
  const p = new ProgressPrinter({ write: (t: string) => (text += t) }, tty);
  for (const e of events) p.listener(e);
  return text;
}

describe('ProgressPrinter', () => {
  it('not a terminal: one line per file, nothing live', () => {
    expect(print(false)).toBe(
      [
        'erpcert conform: 2 test file(s)',
        '  x  a.prop.ts: 1 pass, 1 fail, 0 warn, 0 skip',
        '  E  b.prop.ts: 0 pass, 0 fail, 0 warn, 0 skip, 1 not judged; did not complete: SyntaxError: y',
        '',
      ].join('\n'),
    );
  });

  it('a terminal: a live line per area, cleared before each file line', () => {
    const text = print(true);
    expect(text).toContain('\r\u001b[2K  x  a.prop.ts: 1 pass, 1 fail, 0 warn, 0 skip\n');
    expect(text).toContain('  REST.QUERY: 1 pass, 1 fail, 0 warn, 0 skip  [0/2 files]');
    expect(text).toContain('  REST.ERRORS: 0 pass, 0 fail, 0 warn, 0 skip, 1 not judged  [1/2 files]');
    expect(text.endsWith('\r\u001b[2K')).toBe(true);
  });
});
