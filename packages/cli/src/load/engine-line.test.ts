import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineLine, k6Origin, k6VersionOf } from './engine-line.js';
import { builtK6 } from './engines.js';
import { shownPath } from './load-settings.js';

describe('the engine line names engine and version, never a path', () => {
  it.each([
    ['k6 v2.2.0 (go1.26.8, linux/amd64)\nExtensions:\n', 'v2.2.0'],
    ['k6 v1.0.0-rc1 (commit/abc, go1.24)', 'v1.0.0-rc1'],
    ['not k6 at all', undefined],
  ])('k6VersionOf(%j) = %s', (output, want) => {
    expect(k6VersionOf(output)).toBe(want);
  });

  it('says where k6 came from in words', () => {
    expect(k6Origin(builtK6)).toBe('built from source with xk6');
    expect(k6Origin('/usr/local/bin/k6')).not.toContain('/');
  });

  it('autocannon: its version and Node', () => {
    expect(engineLine('autocannon')).toMatch(/^autocannon \d+\.\d+\.\d+ \(Node v\d+\.\d+\.\d+\)$/);
  });
});

describe('shownPath: a folder as a report shows it', () => {
  it.each([
    [join(homedir(), 'work', 'reports', 'load', 'run-1'), join(homedir(), 'work'), join('reports', 'load', 'run-1')],
    ['/srv/reports/run-1', join(homedir(), 'work'), 'run-1'],
  ])('%s from %s -> %s', (path, cwd, want) => {
    expect(shownPath(path, cwd)).toBe(want);
  });
});
