import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { specFile } from './specs.js';
import { isJsonSafe, parseYamlCached } from './yaml-cache.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-yaml-cache-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('parseYamlCached', () => {
  it('gives the value the YAML parser gives, first from the text and then from the cache', () => {
    const dir = freshDir();
    const text = readFileSync(specFile('portal-action'), 'utf8');
    const first = parseYamlCached(text, { dir, minLength: 0 });
    expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const second = parseYamlCached(text, { dir, minLength: 0 });
    expect(first).toEqual(parse(text));
    expect(second).toEqual(parse(text));
    expect(second).not.toBe(first);
  });

  it('reads the cache file when one exists for the text (so a changed text is never served an old value)', () => {
    const dir = freshDir();
    parseYamlCached('a: 1\n', { dir, minLength: 0 });
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), '{"a":2}');
    expect(parseYamlCached('a: 1\n', { dir, minLength: 0 })).toEqual({ a: 2 });
    expect(parseYamlCached('a: 3\n', { dir, minLength: 0 })).toEqual({ a: 3 });
  });

  it('parses again over a corrupt cache file and mends it', () => {
    const dir = freshDir();
    parseYamlCached('list: [x, y]\n', { dir, minLength: 0 });
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), '{"list": [');
    expect(parseYamlCached('list: [x, y]\n', { dir, minLength: 0 })).toEqual({ list: ['x', 'y'] });
    expect(JSON.parse(readFileSync(join(dir, file!), 'utf8'))).toEqual({ list: ['x', 'y'] });
  });

  it('throws the YAML error and writes nothing for text that does not parse', () => {
    const dir = freshDir();
    expect(() => parseYamlCached('a: [1, 2\n', { dir, minLength: 0 })).toThrow();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('parses short texts every time, without a cache file', () => {
    const dir = freshDir();
    expect(parseYamlCached('a: 1\n', { dir })).toEqual({ a: 1 });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does not cache values JSON cannot carry', () => {
    const dir = freshDir();
    expect(parseYamlCached('x: .inf\n', { dir, minLength: 0 })).toEqual({ x: Number.POSITIVE_INFINITY });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('isJsonSafe', () => {
  it.each([
    [{ a: [1, 'b', true, null, { c: 2.5 }] }, true],
    [{ a: Number.NaN }, false],
    [{ a: -0 }, false],
    [{ a: undefined }, false],
    [{ a: new Date(0) }, false],
    [new Map(), false],
  ])('%o -> %s', (value, safe) => {
    expect(isJsonSafe(value)).toBe(safe);
  });
});
