import { readFileSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HubStore } from '../store/hub-store.js';
import { API_BASE, createHubApp } from './hub-app.js';
import { HUB_OPENAPI } from './openapi-document.js';

const DOC_FILE = HUB_OPENAPI;
const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** A Hono path (`/api/v1/runs/:id/files/:path{.+}`) in OpenAPI's words (`/runs/{id}/files/{path}`). */
function openApiPath(honoPath: string): string {
  return honoPath.slice(API_BASE.length).replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}');
}

describe('hub.openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    const api = await SwaggerParser.validate(parse(readFileSync(DOC_FILE, 'utf8')));
    expect((api as { openapi?: string }).openapi).toBe('3.1.0');
  });

  it('describes exactly the routes the hub serves', async () => {
    const store = await HubStore.open(':memory:');
    try {
      const app = createHubApp({ store });
      const served = new Set(
        app.routes
          .filter((r) => r.path.startsWith(API_BASE) && METHODS.has(r.method.toLowerCase()))
          .map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`),
      );
      const doc = parse(readFileSync(DOC_FILE, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
      const described = new Set(
        Object.entries(doc.paths).flatMap(([path, item]) =>
          Object.keys(item)
            .filter((m) => METHODS.has(m))
            .map((m) => `${m.toUpperCase()} ${path}`),
        ),
      );
      expect([...served].sort()).toEqual([...described].sort());
      expect(served.size).toBeGreaterThan(5);
    } finally {
      await store.close();
    }
  });
});
