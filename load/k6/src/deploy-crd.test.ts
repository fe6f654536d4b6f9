/**
 * deploy/testrun.yaml against the real schema: the `TestRun` CRD of the k6-operator release it targets, vendored
 * in deploy/crd (README there: version, source, hash). ajv on the CRD's `openAPIV3Schema` of the served version,
 * with unknown fields refused as `kubectl apply --validate=strict` refuses them (a structural schema alone would
 * silently prune a misspelt field).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageDir } from './k6-binary.js';

type Schema = { [key: string]: unknown };
interface Crd {
  spec: {
    group: string;
    names: { kind: string };
    versions: { name: string; served: boolean; schema: { openAPIV3Schema: Schema } }[];
  };
}

const crdText = await readFile(join(packageDir, 'deploy', 'crd', 'k6.io_testruns.yaml'), 'utf8');
const readme = await readFile(join(packageDir, 'deploy', 'crd', 'README.md'), 'utf8');
const manifestText = await readFile(join(packageDir, 'deploy', 'testrun.yaml'), 'utf8');
const crd = parse(crdText) as Crd;
const manifest = parse(manifestText) as Schema & { apiVersion: string; kind: string };

/** Every object schema that lists its properties refuses others (kubectl --validate=strict). */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const s = Object.fromEntries(Object.entries(schema as Schema).map(([k, v]) => [k, strict(v)])) as Schema;
  if (s.properties !== undefined && s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields'])
    s.additionalProperties = false;
  return s;
}

const [group, version] = manifest.apiVersion.split('/');
const served = crd.spec.versions.find((v) => v.name === version && v.served);
// OpenAPI v3 extensions (x-kubernetes-*) and formats (int32, int64) are not JSON Schema keywords: not strict mode
const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
  strict(served?.schema.openAPIV3Schema ?? {}) as Schema,
);
const errorsOf = (doc: unknown) =>
  validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

describe('deploy/testrun.yaml against the k6-operator TestRun CRD', () => {
  it('the vendored CRD is the file its README names (sha256)', () => {
    const sha = createHash('sha256').update(crdText).digest('hex');
    expect(readme).toContain(`\`${sha}\``);
    expect(readme).toMatch(/k6-operator \*\*v\d+\.\d+\.\d+\*\*/);
    const release = /k6-operator \*\*(v[\d.]+)\*\*/.exec(readme)?.[1];
    expect(manifestText).toContain(`k6-operator ${release}`); // the manifest names the release it targets
  });

  it('names a group, served version and kind of the CRD', () => {
    expect(group).toBe(crd.spec.group);
    expect(served, `version ${version} is not served by the CRD`).toBeDefined();
    expect(manifest.kind).toBe(crd.spec.names.kind);
  });

  it('validates against the openAPIV3Schema of that version', () => {
    expect(errorsOf(manifest)).toEqual([]);
  });

  const broken: [string, (m: Schema & { spec: Schema }) => void, string][] = [
    ['a misspelt field', (m) => (m.spec.paralellism = 4), 'must NOT have additional properties'],
    ['parallelism as a string', (m) => (m.spec.parallelism = '4'), '/spec/parallelism must be integer'],
    [
      'a script without its ConfigMap name',
      (m) => delete (m.spec.script as Schema & { configMap: Schema }).configMap.name,
      "/spec/script/configMap must have required property 'name'",
    ],
    [
      'an env entry that is not a list',
      (m) => ((m.spec.runner as Schema).env = { ERPCERT_TARGET: 'x' }),
      '/spec/runner/env must be array',
    ],
  ];
  it.each(broken)('refuses %s (the schema has teeth)', (_name, breakIt, message) => {
    const m = structuredClone(manifest) as unknown as Schema & { spec: Schema };
    breakIt(m);
    expect(errorsOf(m).join('\n')).toContain(message);
  });
});
