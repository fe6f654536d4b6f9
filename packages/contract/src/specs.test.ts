import { describe, expect, it } from 'vitest';
import {
  isContractFile,
  listSpecNames,
  loadSpec,
  NOT_CONTRACT_FILES,
  SpecError,
  validateDocument,
  validateSpec,
} from './specs.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type Obj = Record<string, unknown>;

describe('specs/*.openapi.yaml', () => {
  const names = listSpecNames();

  it('include the record REST spec', () => {
    expect(names).toContain('record-rest');
  });

  it("leave out the hub's API document, which sits in specs/ but is not the ERP's contract", () => {
    expect(names).not.toContain('hub');
    expect(NOT_CONTRACT_FILES.has('hub.openapi.yaml')).toBe(true);
    expect(isContractFile('hub.openapi.yaml')).toBe(false);
    expect(isContractFile('record-rest.openapi.yaml')).toBe(true);
  });

  // the record REST spec has 15,000 lines (38 registers and the observed ones): validating it takes seconds
  it.each(names)(
    '%s validates with swagger-parser and dereferences',
    async (name) => {
      const doc = await validateSpec(name);
      expect(doc.openapi).toMatch(/^3\.1\./);
      // dereferenced: no $ref is left anywhere under paths
      expect(JSON.stringify(doc.paths)).not.toContain('"$ref"');
      // loadSpec's copy keeps its $refs (validation worked on a clone)
      expect(JSON.stringify(loadSpec(name).paths)).toContain('"$ref"');
    },
    30_000,
  );

  // swagger-parser checks OAS 3.x only against the JSON schema (its spec validator is Swagger 2 only),
  // so the two structural rules below are checked here.
  it.each(names)('%s has unique operationIds and declares every path template parameter', (name) => {
    const doc = loadSpec(name) as unknown as { paths: Record<string, Obj>; components?: { parameters?: Obj } };
    const ids: string[] = [];
    const resolveParam = (p: Obj): Obj =>
      typeof p.$ref === 'string' ? (doc.components?.parameters?.[p.$ref.split('/').pop()!] as Obj) : p;
    for (const [path, item] of Object.entries(doc.paths)) {
      const template = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const method of METHODS) {
        const op = item[method] as Obj | undefined;
        if (!op) continue;
        if (typeof op.operationId === 'string') ids.push(op.operationId);
        const params = [...((item.parameters as Obj[]) ?? []), ...((op.parameters as Obj[]) ?? [])].map(resolveParam);
        const declared = params.filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared.sort(), `${method.toUpperCase()} ${path}`).toEqual([...template].sort());
      }
    }
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

describe('loadSpec / validateSpec', () => {
  it('returns the same cached document on every call', async () => {
    expect(loadSpec('record-rest')).toBe(loadSpec('record-rest'));
    expect(await validateSpec('record-rest')).toBe(await validateSpec('record-rest'));
  });

  it('throws a SpecError naming a spec that does not exist', () => {
    expect(() => loadSpec('no-such-api')).toThrow(SpecError);
    expect(() => loadSpec('no-such-api')).toThrow(/no-such-api.*no such spec/);
  });

  it('rejects a spec that does not exist', async () => {
    await expect(validateSpec('no-such-api')).rejects.toThrow(SpecError);
  });

  it('rejects a document that breaks the OpenAPI 3.1 schema, naming the offending member', async () => {
    const broken = structuredClone(loadSpec('record-rest')) as unknown as Obj;
    const paths = broken.paths as Record<string, Obj>;
    (paths['/api/1/IVVc']!.get as Obj).responses = 'none';
    await expect(validateDocument(broken, 'broken')).rejects.toThrow(/broken: fails OpenAPI validation.*responses/s);
  });
});
