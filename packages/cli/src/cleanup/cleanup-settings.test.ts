import { describe, expect, it } from 'vitest';
import { cleanup } from '../commands/cleanup.js';
import { parseArgs, UsageError } from '../options.js';
import { cleanupSettings } from './cleanup-settings.js';

function settings(args: string[], env: NodeJS.ProcessEnv = {}) {
  const parsed = parseArgs('cleanup', cleanup.flags, args, env, '/work', cleanup.positionals);
  return cleanupSettings(parsed.values, parsed.positionals, '/work');
}

describe('cleanupSettings', () => {
  it.each([
    ['nothing to clean', [], 'name a report folder'],
    ['a folder and a tag', ['reports/x', '--tag', 'EC4K2Q'], 'not both'],
    ['two folders', ['a', 'b'], 'unexpected argument "b": erpcert cleanup takes [DIR]'],
    ['a URL for --target', ['http://h:8080'], 'use --target http://h:8080'],
    ['a tag of neither kind', ['--tag', 'ECAB', '--target', 'http://h'], 'is not a run tag'],
    ['a lower-case conformance tag', ['--tag', 'ec4k2q', '--target', 'http://h'], 'is not a run tag'],
    ['a tag without a target', ['--tag', 'EC4K2Q'], 'need --target'],
    ['--fixtures without a target', ['--fixtures'], 'need --target'],
    ['a short fixture prefix', ['--fixtures', '--target', 'http://h', '--fixture-prefix', 'EC'], '--fixture-prefix'],
    ['a batch outside 1000-5000', ['x', '--batch', '10000'], '--batch'],
    ['a bad pace', ['x', '--pace', 'fast'], '--pace'],
    ['a target with credentials', ['x', '--target', 'http://u:p@h'], 'not in the --target URL'],
  ])('%s: UsageError', (_name, args, message) => {
    expect(() => settings(args)).toThrow(UsageError);
    expect(() => settings(args)).toThrow(message);
  });

  it('a folder: its own target unless flags say otherwise; the password from the environment', () => {
    const s = settings(['reports/load/1', '--unok-usercode', 'ACC'], { ERPCERT_PASSWORD: 'pw' });
    expect(s).toMatchObject({ dir: '/work/reports/load/1', unokUsercode: 'ACC', password: 'pw', fixtures: false });
    expect(s.target).toBeUndefined();
    expect(s.companyIn).toBeUndefined();
    expect(s.portalPath).toBeUndefined();
    expect(s).toMatchObject({ fixturePrefix: 'ERPCERT-FX-', pauseMs: 1000, batch: 1000, dryRun: false });
  });

  it('--tag of either kind with a target; --dry-run', () => {
    expect(settings(['--tag', 'EC4K2Q', '--target', 'http://h/', '--dry-run'])).toMatchObject({
      tag: 'EC4K2Q',
      target: 'http://h',
      dryRun: true,
    });
    expect(settings(['--tag', 'erpcert-load-1a2b3c4d', '--target', 'http://h']).tag).toBe('erpcert-load-1a2b3c4d');
  });
});
