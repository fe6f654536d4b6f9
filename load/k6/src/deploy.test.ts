/**
 * deploy/testrun.yaml stays in step with the scripts: every ERPCERT_* variable it sets is one the scripts read,
 * the password comes from a Secret (never a literal), and the script is the archive that k6-archive.sh makes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageDir } from './k6-binary.js';

const manifest = await readFile(join(packageDir, 'deploy', 'testrun.yaml'), 'utf8');
const envSource = await readFile(join(packageDir, 'lib', 'env.ts'), 'utf8');

describe('deploy/testrun.yaml (k6-operator TestRun)', () => {
  it('is a TestRun of k6.io/v1alpha1 with parallelism and the archive from a ConfigMap', () => {
    expect(manifest).toMatch(/^apiVersion: k6\.io\/v1alpha1$/m);
    expect(manifest).toMatch(/^kind: TestRun$/m);
    expect(manifest).toMatch(/^ {2}parallelism: \d+$/m);
    expect(manifest).toMatch(/^ {4}configMap:\n {6}name: [\w-]+\n {6}file: archive\.tar$/m);
  });

  it('sets only ERPCERT_* variables the scripts read', () => {
    const names = [...manifest.matchAll(/- name: (ERPCERT_\w+)/g)].map((m) => m[1]!);
    expect(names).toContain('ERPCERT_TARGET');
    for (const name of names) expect(envSource, name).toContain(`'${name}'`);
  });

  it('takes the password from a Secret', () => {
    expect(manifest).toMatch(/- name: ERPCERT_PASSWORD\n {8}valueFrom:\n {10}secretKeyRef:/);
  });

  it('asks for the runner share that matches its parallelism', () => {
    const parallelism = /^ {2}parallelism: (\d+)$/m.exec(manifest)?.[1];
    expect(manifest).toContain(`-e ERPCERT_PARALLELISM=${parallelism}`);
  });
});
