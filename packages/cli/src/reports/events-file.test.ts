import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventLine, eventsFileListener } from './events-file.js';
import type { RunEvent } from './runner.js';

const test = (selected: boolean): RunEvent => ({
  type: 'test',
  file: 'rest/version.prop.ts',
  name: 'n',
  fullName: 'f n',
  rules: ['REST.VERSION.PATH', 'REST.ENVELOPE.JSON_PARSES'],
  selected,
  state: 'failed',
  verdicts: [
    { rule: 'REST.VERSION.PATH', verdict: 'FAIL', reason: 'secret reason' },
    { rule: 'REST.ENVELOPE.JSON_PARSES', verdict: 'PASS' },
  ],
  errors: ['an error text'],
  observations: {},
  faults: [],
});

describe('conform --events lines', () => {
  it.each([
    [{ type: 'run-start', at: 'T', files: ['a', 'b'] } as RunEvent, '{"type":"run-start","at":"T","files":2}'],
    [{ type: 'module-end', file: 'a', errors: ['x'] } as RunEvent, '{"type":"module-end","file":"a","errors":1}'],
    [
      { type: 'run-end', at: 'T', reason: 'interrupted', errors: [] } as RunEvent,
      '{"type":"run-end","at":"T","reason":"interrupted"}',
    ],
    [test(false), undefined],
    [
      test(true),
      '{"type":"test","file":"rest/version.prop.ts","state":"failed","verdicts":[{"rule":"REST.VERSION.PATH","verdict":"FAIL"}]}',
    ],
  ])('%#: %j', (event, line) => {
    expect(eventLine(event, new Set(['REST.VERSION.PATH']))).toBe(line);
  });

  it('appends one line per event to the file, which starts empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-events-'));
    try {
      const write = eventsFileListener(join(dir, 'e.jsonl'));
      write(test(true));
      write({ type: 'run-end', at: 'T', reason: 'passed', errors: [] });
      const lines = readFileSync(join(dir, 'e.jsonl'), 'utf8').trimEnd().split('\n');
      expect(lines.map((l) => JSON.parse(l).type)).toEqual(['test', 'run-end']);
      expect(JSON.parse(lines[0] ?? '').verdicts).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
