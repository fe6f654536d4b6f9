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

describe("conformSettings: --target-guard (the hub's SSRF allow-list for its live runs)", () => {
  it('with --target, the guard is parsed and applies to the connection', async () => {
    const { connectionOf } = await import('./conform-target.js');
    const s = settings({ target: 'http://erp.example.com', 'target-guard': '10.0.0.0/8' });
    expect(s.targetGuard?.spec).toBe('10.0.0.0/8');
    const guard = connectionOf(s).guard;
    expect(guard?.refusal('10.1.2.3')).toBeUndefined();
    expect(guard?.refusal('169.254.169.254')).toMatch(/link-local/);
    expect(guard?.refusal('127.0.0.1')).toMatch(/loopback/);
  });

  it('without --target (the embedded server, allowed by name) there is nothing to guard', async () => {
    const { connectionOf } = await import('./conform-target.js');
    const s = settings({ 'target-guard': 'none' });
    expect(s.targetGuard).toBeUndefined();
    expect(connectionOf(s).guard).toBeUndefined();
  });

  it.each([
    ['169.254.0.0/16', /--target-guard entry "169\.254\.0\.0\/16" overlaps 169\.254\.0\.0\/16, link-local/],
    ['10.0.0.0/40', /--target-guard entry "10\.0\.0\.0\/40" is not an address or a CIDR block/],
  ])('%s is a usage error naming the flag (exit 2)', (spec, message) => {
    const values = { target: 'http://erp.example.com', 'target-guard': spec };
    expect(() => settings(values)).toThrow(UsageError);
    expect(() => settings(values)).toThrow(message);
  });
});
