import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OptionValues } from '../options.js';
import { UsageError } from '../options.js';
import { conformSettings } from './conform-settings.js';

const cwd = join('/', 'work', 'team-repo');
const settings = (values: OptionValues) => conformSettings(values, cwd, new Date('2026-11-27T06:00:00Z'));

describe('conformSettings: the known-deviations file', () => {
  it.each([
    ['a file in the working folder keeps its relative name', 'ci/erpcert-baseline.yaml', 'ci/erpcert-baseline.yaml'],
    ['an absolute path inside it is shown relative', join(cwd, 'b.yaml'), 'b.yaml'],
    ['a path outside it is shown by its file name only (no path of this machine)', '/etc/erp/b.yaml', 'b.yaml'],
    ['a path above it likewise', '../shared/b.yaml', 'b.yaml'],
  ])('%s', (_name, given, shown) => {
    const s = settings({ baseline: given });
    expect(s.baseline?.name).toBe(shown);
    expect(s.baseline?.path.startsWith('/')).toBe(true);
  });

  it('--write-baseline and --baseline may name the same file; --strict-baseline is off unless asked', () => {
    const s = settings({ baseline: 'b.yaml', 'write-baseline': join(cwd, 'b.yaml') });
    expect([s.baseline?.path, s.writeBaseline?.path, s.strictBaseline]).toEqual([
      join(cwd, 'b.yaml'),
      join(cwd, 'b.yaml'),
      false,
    ]);
  });

  it.each([
    ['--strict-baseline', { 'strict-baseline': true }, /--strict-baseline needs --baseline FILE/],
    ['--prune-baseline', { 'prune-baseline': true }, /--prune-baseline needs --baseline FILE/],
  ])('%s without a baseline file is a usage error (exit 2)', (_name, values, message) => {
    expect(() => settings(values)).toThrow(UsageError);
    expect(() => settings(values)).toThrow(message);
  });

  it('--prune-baseline with --baseline is taken', () => {
    expect(settings({ baseline: 'b.yaml', 'prune-baseline': true }).pruneBaseline).toBe(true);
  });
});
