import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { infoVersion, specInfo } from './spec-info.js';

describe('infoVersion', () => {
  it.each([
    ['openapi: 3.1.0\ninfo:\n  title: x\n  version: "1"\npaths: {}\n', '1'],
    ['info:\n  title: x\n  version: 1.0.1\n  x-other:\n    version: 9\n', '1.0.1'],
    ['openapi: 3.1.0\npaths:\n  version: 3\n', 'unknown'],
  ])('%j -> %s', (text, want) => {
    expect(infoVersion(text)).toBe(want);
  });
});

describe('specInfo', () => {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-specs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes sorted paths and bytes, and reads both versions', () => {
    mkdirSync(join(dir, 'xsd'));
    writeFileSync(join(dir, 'record-rest.openapi.yaml'), 'info:\n  version: "1"\n');
    writeFileSync(join(dir, 'portal-action.openapi.yaml'), 'info:\n  version: 1.0.1\n');
    writeFileSync(join(dir, 'xsd', 'a.xsd'), '<x/>');
    const want = createHash('sha256');
    for (const [path, text] of [
      ['portal-action.openapi.yaml', 'info:\n  version: 1.0.1\n'],
      ['record-rest.openapi.yaml', 'info:\n  version: "1"\n'],
      ['xsd/a.xsd', '<x/>'],
    ]) {
      want.update(`${path}\0${text}\0`);
    }
    expect(specInfo(dir)).toEqual({ versions: { rest: '1', portal: '1.0.1' }, sha256: want.digest('hex'), files: 3 });
  });

  it('changes when one byte of one file changes', () => {
    const before = specInfo(dir).sha256;
    writeFileSync(join(dir, 'xsd', 'a.xsd'), '<y/>');
    expect(specInfo(dir).sha256).not.toBe(before);
  });

  it("leaves the hub's API document out: it is not the ERP's contract", () => {
    const before = specInfo(dir);
    writeFileSync(join(dir, 'hub.openapi.yaml'), 'openapi: 3.1.0\ninfo:\n  version: 0.1.0\n');
    expect(specInfo(dir)).toEqual(before);
    writeFileSync(join(dir, 'hub.openapi.yaml'), 'openapi: 3.1.0\ninfo:\n  version: 0.2.0\n');
    expect(specInfo(dir)).toEqual(before);
    rmSync(join(dir, 'hub.openapi.yaml'));
  });

  it('reads the repository specs', () => {
    const info = specInfo();
    expect(info.versions).toEqual({ rest: '1', portal: '1.0.1' });
    expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
