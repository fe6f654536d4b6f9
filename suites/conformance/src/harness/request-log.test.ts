import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Exchange } from '@erpcert/client';
import { afterEach, describe, expect, it } from 'vitest';
import { nextRequestRun, requestLogger, setRequestTag } from './request-log.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  setRequestTag(undefined, undefined);
});

const exchange = (method: string, url: string) => ({ request: { method, url, headers: [] } }) as unknown as Exchange;

describe('requestLogger', () => {
  it('is off unless a file is named', () => {
    expect(requestLogger(undefined)).toBeUndefined();
    expect(requestLogger('')).toBeUndefined();
  });

  it('tags each request with its test file, test and run, and keeps no query string', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erpcert-request-log-'));
    dirs.push(dir);
    const file = join(dir, 'log.tsv');
    const log = requestLogger(file)!;
    setRequestTag('properties/rest/query.prop.ts', '[REST.QUERY.LIMIT] limit');
    log(exchange('GET', 'http://127.0.0.1:9/api/1/CUVc?limit=1&password=x'));
    nextRequestRun();
    log(exchange('POST', 'http://127.0.0.1:9/WebErpAPI.hal?action=login'));
    setRequestTag('properties/rest/query.prop.ts', undefined);
    log(exchange('GET', 'http://127.0.0.1:9/api/1/'));
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      'properties/rest/query.prop.ts\t[REST.QUERY.LIMIT] limit\t0\tGET /api/1/CUVc',
      'properties/rest/query.prop.ts\t[REST.QUERY.LIMIT] limit\t1\tPOST /WebErpAPI.hal',
      'properties/rest/query.prop.ts\t(outside a test)\t0\tGET /api/1/',
      '',
    ]);
  });
});
