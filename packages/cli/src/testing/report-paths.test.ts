import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@erpcert/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { localPaths, scanReportFiles } from './report-paths.js';

const dir = mkdtempSync(join(tmpdir(), 'erpcert-report-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scanReportFiles', () => {
  it('looks for the checkout and the home directory', () => {
    expect(localPaths()).toEqual(expect.arrayContaining([repoRoot, homedir()]));
  });

  it('finds a path in any file of the folder, nested or JSON-escaped, and passes clean files', () => {
    mkdirSync(join(dir, 'k6'), { recursive: true });
    writeFileSync(join(dir, 'summary.md'), '# clean\nengine k6 v2.2.0 (built from source with xk6)\n');
    writeFileSync(join(dir, 'results.json'), `{"note": "k6 is built (${repoRoot}/tools/bin/k6)"}`);
    writeFileSync(join(dir, 'k6', 'x.json'), `{"out": "${'/home/someone'.replace(/\//g, '\\/')}\\/r"}`);
    const leaks = scanReportFiles(dir, [repoRoot, '/home/someone']);
    expect(leaks.map((l) => [l.file, l.path, l.line])).toEqual([
      [join('k6', 'x.json'), '/home/someone', 1],
      ['results.json', repoRoot, 1],
    ]);
  });

  it('does not take a longer name for the path (/root is not /root_group)', () => {
    const clean = mkdtempSync(join(tmpdir(), 'erpcert-report-paths-'));
    writeFileSync(join(clean, 'k6.json'), '{"root_group": {"path": "::root"}, "url": "/rooted"}');
    expect(scanReportFiles(clean, ['/root'])).toEqual([]);
    rmSync(clean, { recursive: true, force: true });
  });
});
