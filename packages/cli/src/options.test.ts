import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FlagDef, parseArgs, UsageError } from './options.js';

const defs: FlagDef[] = [
  { name: 'port', type: 'int', default: 8080, help: '' },
  { name: 'portal-path', type: 'string', default: '/WebErpAPI.hal', help: '' },
  { name: 'profile', type: 'string', choices: ['readonly', 'full'], default: 'full', help: '' },
  { name: 'password', type: 'string', secret: true, help: '' },
  { name: 'quirks', type: 'boolean', default: false, help: '' },
];
const emptyDir = mkdtempSync(join(tmpdir(), 'erpcert-opts-'));

describe('parseArgs', () => {
  it.each([
    ['defaults', [], {}, { port: 8080, 'portal-path': '/WebErpAPI.hal', profile: 'full', quirks: false }],
    [
      '--flag value and --flag=value',
      ['--port', '9000', '--portal-path=/X.hal'],
      {},
      { port: 9000, 'portal-path': '/X.hal' },
    ],
    ['boolean flag and --no-', ['--quirks'], {}, { quirks: true }],
    [
      'environment',
      [],
      { ERPCERT_PORTAL_PATH: '/WebExcellentAPI.hal', ERPCERT_PORT: '81' },
      { port: 81, 'portal-path': '/WebExcellentAPI.hal' },
    ],
    ['flag beats environment', ['--port', '1'], { ERPCERT_PORT: '2' }, { port: 1 }],
  ] as const)('%s', (_name, argv, env, want) => {
    const { values } = parseArgs('x', defs, argv, env, emptyDir);
    expect(values).toMatchObject(want);
  });

  it('reads erpcert.config.json below environment, with per-command sections', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-cfg-'));
    writeFileSync(join(dir, 'erpcert.config.json'), JSON.stringify({ port: 7, profile: 'readonly', x: { port: 8 } }));
    expect(parseArgs('x', defs, [], {}, dir).values).toMatchObject({ port: 8, profile: 'readonly' });
    expect(parseArgs('x', defs, [], { ERPCERT_PORT: '9' }, dir).values.port).toBe(9);
    expect(parseArgs('y', defs, [], {}, dir).values.port).toBe(7);
  });

  it.each([
    ['unknown flag', ['--nope'], /unknown option --nope/],
    ['bad integer', ['--port', 'abc'], /--port .* whole number, got "abc"/],
    ['bad choice', ['--profile', 'wild'], /one of readonly, full/],
    ['missing value', ['--port'], /--port needs a value/],
    ['missing config file', ['--config', 'nope.json'], /does not exist/],
  ] as const)('refuses %s', (_name, argv, message) => {
    expect(() => parseArgs('x', defs, argv, {}, emptyDir)).toThrow(UsageError);
    expect(() => parseArgs('x', defs, argv, {}, emptyDir)).toThrow(message);
  });

  it('never echoes a secret value in an error', () => {
    const secretDefs: FlagDef[] = [{ name: 'password', type: 'string', choices: ['a'], secret: true, help: '' }];
    expect(() => parseArgs('x', secretDefs, ['--password', 'hunter2'], {}, emptyDir)).toThrow(/\(hidden\)/);
    try {
      parseArgs('x', secretDefs, ['--password', 'hunter2'], {}, emptyDir);
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
  });
});
