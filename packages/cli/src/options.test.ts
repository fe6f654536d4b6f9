import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FlagDef, type PositionalDef, parseArgs, UsageError } from './options.js';

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
    ['boolean flag', ['--quirks'], {}, { quirks: true }],
    ['--no- turns a boolean off', ['--no-quirks'], { ERPCERT_QUIRKS: 'true' }, { quirks: false }],
    ['--bool=false and --bool=yes', ['--quirks=yes', '--quirks=false'], {}, { quirks: false }],
    ['a negative number as a value', ['--port', '-7'], {}, { port: -7 }],
    ['a value after the last flag wins', ['--port', '1', '--port=2'], {}, { port: 2 }],
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
    ['unknown flag', ['--nope'], /unknown option --nope for "erpcert x"/],
    ['unknown short flag', ['-x'], /unknown option -x for "erpcert x"/],
    ['unknown short flag among known ones', ['--quirks', '-hx'], /unknown option -x/],
    ['--no- of a flag that is not boolean', ['--no-port'], /unknown option --no-port/],
    ['a value for a boolean', ['--quirks=maybe'], /--quirks .* true or false, got "maybe"/],
    ['an option where a value goes', ['--port', '--quirks'], /--port needs a value/],
    ['a positional it does not take', ['foo'], /unexpected argument "foo": erpcert x takes no positional arguments/],
    ['a positional after --', ['--', '-x'], /unexpected argument "-x"/],
    ['--config without a file', ['--config'], /--config needs a value/],
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

  it('never echoes a secret value that looks like an option', () => {
    const secretDefs: FlagDef[] = [{ name: 'password', type: 'string', secret: true, help: '' }];
    expect(() => parseArgs('x', secretDefs, ['--password', '-hunter2'], {}, emptyDir)).toThrow(/--password=VALUE/);
    try {
      parseArgs('x', secretDefs, ['--password', '-hunter2'], {}, emptyDir);
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
    expect(parseArgs('x', secretDefs, ['--password=-hunter2'], {}, emptyDir).values.password).toBe('-hunter2');
  });

  it('--config FILE names another configuration file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-cfg-'));
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ port: 5 }));
    expect(parseArgs('x', defs, ['--config', 'other.json'], {}, dir).values.port).toBe(5);
    expect(parseArgs('x', defs, ['--config=other.json', '--port', '6'], {}, dir).values.port).toBe(6);
  });
});

describe('parseArgs: positionals', () => {
  const dirs: PositionalDef[] = [
    { name: 'OLD', help: 'the earlier one' },
    { name: 'NEW', help: 'the later one' },
    { name: 'MORE', help: 'a third', optional: true },
  ];
  const withTarget: FlagDef[] = [...defs, { name: 'target', type: 'string', arg: 'URL', help: '' }];
  const parse = (argv: string[], flags: readonly FlagDef[] = defs) => parseArgs('x', flags, argv, {}, emptyDir, dirs);

  it.each([
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [
      ['a', '--port', '1', 'b', 'c'],
      ['a', 'b', 'c'],
    ],
    [
      ['a', '--', '-b'],
      ['a', '-b'],
    ],
  ])('takes %j as its positionals', (argv, want) => {
    expect(parse(argv).positionals).toEqual(want);
  });

  it.each([
    [['a'], /missing NEW: usage: erpcert x OLD NEW \[MORE\] \[options\] \(NEW: the later one\)/],
    [[], /missing OLD NEW/],
    [['a', 'b', 'c', 'd'], /unexpected argument "d": erpcert x takes OLD NEW \[MORE\]/],
    [['a', 'b', 'c', 'd', 'e'], /unexpected arguments "d" "e"/],
  ])('refuses %j', (argv, message) => {
    expect(() => parse(argv)).toThrow(UsageError);
    expect(() => parse(argv)).toThrow(message);
  });

  it('--help skips the positional check (erpcert verify --help)', () => {
    expect(parse(['--help']).help).toBe(true);
  });

  it('a URL where a command with --target takes a positional says to use --target, its password masked', () => {
    expect(() => parse(['http://192.0.2.1:8080', 'b'], withTarget)).toThrow(
      /unexpected argument "http:\/\/192\.0\.2\.1:8080": to run against that server, use --target http:\/\/192\.0\.2\.1:8080/,
    );
    try {
      parse(['https://ci:s3cret@erp.example.com/'], withTarget);
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).toContain('--target https://ci:***@erp.example.com/');
      expect((err as Error).message).not.toContain('s3cret');
    }
    // without --target, a URL is an ordinary positional
    expect(parse(['http://a', 'b']).positionals).toEqual(['http://a', 'b']);
  });
});
