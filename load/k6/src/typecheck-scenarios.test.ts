/**
 * The scenarios are type-checked by tsc with @types/k6 (tsconfig.k6.json), and that check can fail: a script
 * that misuses the k6 API is refused.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageDir } from './k6-binary.js';
import { ensureVendorBundle } from './vendor.js';

const run = promisify(execFile);
const tsc = join(packageDir, 'node_modules', 'typescript', 'bin', 'tsc');
let scratch: string | undefined;

async function typecheck(project: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(process.execPath, [tsc, '-p', project], { cwd: packageDir });
    return { code: 0, output: stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string };
    return { code: e.code ?? 1, output: e.stdout ?? '' };
  }
}

describe('tsc over the k6 scenarios (tsconfig.k6.json, types: ["k6"])', () => {
  afterAll(async () => {
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  it('accepts every scenario and shared module', async () => {
    await ensureVendorBundle(); // lib/xml.ts imports the bundle's declaration
    const { code, output } = await typecheck('tsconfig.k6.json');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('refuses a script that passes a number where k6/http wants a URL', async () => {
    scratch = await mkdtemp(join(packageDir, '.tsc-probe-'));
    await writeFile(
      join(scratch, 'bad.ts'),
      "import http from 'k6/http';\nexport default function (): void {\n  http.get(42);\n}\n",
    );
    await writeFile(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ extends: '../tsconfig.k6.json', include: ['bad.ts'] }),
    );
    const { code, output } = await typecheck(join(scratch, 'tsconfig.json'));
    expect(code).not.toBe(0);
    expect(output).toMatch(/bad\.ts\(3,\d+\): error TS2345/);
  }, 60_000);
});
