import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { specFileDigests } from './predicate.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('specFileDigests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'erpcert-spec-digests-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("digests every file of the contract, sorted by path, and leaves the hub's API document out", () => {
    mkdirSync(join(dir, 'xsd'));
    writeFileSync(join(dir, 'rules.yaml'), 'rules: []\n');
    writeFileSync(join(dir, 'xsd', 'a.xsd'), '<x/>');
    writeFileSync(join(dir, 'hub.openapi.yaml'), 'openapi: 3.1.0\n');
    expect(specFileDigests(dir)).toEqual([
      { path: 'rules.yaml', sha256: sha('rules: []\n') },
      { path: 'xsd/a.xsd', sha256: sha('<x/>') },
    ]);
  });
});
