import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATE_COMMAND } from '../scripts/generate-rest-spec.js';
import { renderTypes, typesFile } from '../scripts/generate-types.js';
import type { RestComponents, RestOperations, RestPaths } from './index.js';
import { listSpecNames } from './specs.js';

describe('generated types (packages/contract/generated/)', () => {
  it.each(listSpecNames())('%s.ts matches a fresh openapi-typescript run', { timeout: 120_000 }, async (name) => {
    const file = typesFile(name);
    expect(existsSync(file), `generated/${name}.ts is missing: run \`${GENERATE_COMMAND}\``).toBe(true);
    const fresh = await renderTypes(name);
    expect(readFileSync(file, 'utf8') === fresh, `generated/${name}.ts is stale: run \`${GENERATE_COMMAND}\``).toBe(
      true,
    );
  });

  it('exposes the REST types: records keep rows typed and accept fields beyond the main ones', () => {
    // compile-time checks (pnpm typecheck); at run time they only build plain objects
    const record: RestComponents['schemas']['IVVcRecord'] = {
      '@register': 'IVVc',
      '@sequence': '1',
      '@url': '/api/1/IVVc/1',
      SerNr: '1',
      NotAMainField: '',
      rows: [{ '@rownumber': '0', ArtCode: 'A1' }],
    };
    const query: RestOperations['listIVVc']['parameters']['query'] = { compcode: 1, 'filter.CustCode': 'C1' };
    type ListPath = keyof RestPaths;
    const path: ListPath = '/api/1/PLVc/{PLCode}/{ArtCode}';
    expect([record.rows?.[0]?.ArtCode, query.compcode, path]).toEqual(['A1', 1, '/api/1/PLVc/{PLCode}/{ArtCode}']);
  });
});
