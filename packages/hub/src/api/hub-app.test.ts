import { readFileSync } from 'node:fs';
import { type OpenApiDocument, validateJsonBody } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type AuthFixture, seedAuth } from '../testing/auth-fixture.js';
import { conformanceFolderFiles, loadFolderFiles, sampleConformance, sampleLoad } from '../testing/sample-runs.js';
import { signedFolderFiles, testKey } from '../testing/sign-files.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { writeZip, zipFiles } from '../testing/zip-writer.js';
import { createHubApp } from './hub-app.js';
import { HUB_OPENAPI } from './openapi-document.js';

const doc = parse(readFileSync(HUB_OPENAPI, 'utf8')) as OpenApiDocument;
const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The answer's JSON matches what hub.openapi.yaml says of this path, method and status. */
function expectDescribed(path: string, method: 'get' | 'post', status: number, body: unknown) {
  const pointer = `#/paths/${pointerSegment(path)}/${method}/responses/${status}`;
  const response = `${pointer}/content/application~1json/schema`;
  const declared = (doc.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>)[
    path
  ]?.[method]?.responses[String(status)];
  expect(declared, `${method.toUpperCase()} ${path} ${status} is not in hub.openapi.yaml`).toBeDefined();
  const check = declared?.$ref
    ? validateJsonBody(doc, '#/components/schemas/Error', body)
    : validateJsonBody(doc, response, body);
  expect(check.errors).toEqual([]);
}
/** The publishing CI's headers (a token with the publish scope), set once the fixture is made. */
let auth: Record<string, string> = {};

function zipPost(zip: Buffer, query = '', headers: Record<string, string> = auth): RequestInit & { path: string } {
  return {
    path: `/api/v1/runs${query}`,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  };
}

describe.each(testDialects)('the API on %s', (dialect) => {
  let t: TestStore;
  let app: ReturnType<typeof createHubApp>;
  const logged: string[] = [];
  let fx: AuthFixture;
  /** A request as a token with every scope of the organisation, unless the caller gives its own headers. */
  const call = (path: string, init?: RequestInit) =>
    app.request(path, { ...init, headers: (init?.headers as Record<string, string>) ?? fx.headers('token-all') });
  const post = ({ path, ...init }: RequestInit & { path: string }) => app.request(path, init);
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the API's JSON answers loosely, field by field
  const json = async (res: Response) => (await res.json()) as Record<string, any>;

  // two runs of one target: PASS/FAIL/SKIP, then the FAIL fixed and the PASS broken
  const url = 'https://erp.example.com';
  const first = sampleConformance({ url, embedded: false, runTag: 'API1' });
  const second = sampleConformance({
    url,
    embedded: false,
    runTag: 'API2',
    profile: 'gate',
    verdicts: { 'REST.VERSION.PATH': 'FAIL', 'REST.VERSION.SYSTEMVERSION': 'PASS', 'PORTAL.LOOKUP.CAP50': 'SKIP' },
  });
  let run1 = 0;
  let run2 = 0;
  let targetId = 0;

  beforeAll(async () => {
    t = await freshStore(dialect);
    fx = await seedAuth(t.store);
    auth = fx.headers('token-publish');
    app = createHubApp({ store: t.store, auth: fx.auth, log: (l) => logged.push(l) });
    const r1 = await post(zipPost(zipFiles(conformanceFolderFiles(first)), '?build=b1&label=nightly'));
    expect(r1.status).toBe(201);
    run1 = (await json(r1)).run.id;
    const r2 = await post(zipPost(zipFiles(conformanceFolderFiles(second)), '?build=b2'));
    const b2 = await json(r2);
    run2 = b2.run.id;
    targetId = b2.run.targetId;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  describe('POST /api/v1/runs', () => {
    const zip = () => zipFiles(conformanceFolderFiles(sampleConformance({ runTag: 'POST1' })), 'folder/');
    const refused: [string, Record<string, string>, number, RegExp][] = [
      ['no token', {}, 401, /sign in first/],
      ['a wrong token', { authorization: 'Bearer nope' }, 401, /unknown, revoked or expired/],
      ['a token of another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 401, /Authorization: Bearer/],
    ];
    it.each(refused)('refuses %s with a JSON 4xx', async (_name, headers, status, message) => {
      const res = await post(zipPost(zip(), '', headers));
      expect(res.status).toBe(status);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const body = await json(res);
      expectDescribed('/runs', 'post', status, body);
      expect(body.error).toMatch(message);
    });

    it('refuses an upload by a token without the publish scope and by a viewer, with 403', async () => {
      for (const who of ['token-read', 'token-run', 'viewer'] as const) {
        const res = await post(zipPost(zip(), '', fx.headers(who)));
        expect([who, res.status]).toEqual([who, 403]);
        expect((await json(res)).error).toMatch(/may not publish runs/);
      }
    });

    it("stores a rival's run in the rival's organisation, where this organisation does not see it", async () => {
      const rivalRun = zipFiles(
        conformanceFolderFiles(
          sampleConformance({ runTag: 'RIVAL', url: 'https://rival.example.com', embedded: false }),
        ),
      );
      const res = await post(zipPost(rivalRun, '', fx.headers('outsider')));
      expect(res.status).toBe(201);
      const { run } = await json(res);
      expect(run.organisationId).toBe(fx.rival);
      expect((await call(`/api/v1/runs/${run.id}`)).status).toBe(404);
      expect((await call(`/api/v1/runs/${run.id}`, { headers: fx.headers('outsider') })).status).toBe(200);
      const mine = await json(await call('/api/v1/targets'));
      expect(mine.targets.map((x: { url: string }) => x.url)).not.toContain('https://rival.example.com');
    });

    it('stores a zip once: 201 with its location, then 200 for the same run', async () => {
      const a = await post(zipPost(zip(), '?build=abc'));
      expect(a.status).toBe(201);
      const body = await json(a);
      expectDescribed('/runs', 'post', 201, body);
      expect(body).toMatchObject({ created: true, run: { build: 'abc', kind: 'conformance' } });
      expect(a.headers.get('location')).toBe(`/api/v1/runs/${body.run.id}`);
      const b = await post(zipPost(zip(), '?build=abc'));
      expect(b.status).toBe(200);
      expect(await json(b)).toMatchObject({ created: false, run: { id: body.run.id } });
    });

    it('stores a folder sent as multipart, one part per file named by its path', async () => {
      const form = new FormData();
      const files = conformanceFolderFiles(sampleConformance({ runTag: 'MULTI' }));
      files.set('har/rule.har', Buffer.from('{"log":{}}'));
      for (const [path, bytes] of files) form.append('file', new Blob([new Uint8Array(bytes)]), path);
      form.append('label', 'from-a-form');
      const res = await call('/api/v1/runs', { method: 'POST', headers: auth, body: form });
      expect(res.status).toBe(201);
      const { run } = await json(res);
      expect(run.label).toBe('from-a-form');
      const listed = await json(await call(`/api/v1/runs/${run.id}/files`));
      expect(listed.files.map((f: { path: string }) => f.path)).toContain('har/rule.har');
    });

    it('refuses a zip-slip path with 400 and stores nothing', async () => {
      const before = await json(await call('/api/v1/targets'));
      const bad = writeZip([
        {
          name: 'results.json',
          data: Buffer.from(
            JSON.stringify(sampleConformance({ runTag: 'SLIP', url: 'https://slip.example.com', embedded: false })),
          ),
        },
        { name: '../../outside.txt', data: Buffer.from('x') },
      ]);
      const res = await post(zipPost(bad));
      expect(res.status).toBe(400);
      expect((await json(res)).error).toMatch(/\.\./);
      expect(await json(await call('/api/v1/targets'))).toEqual(before);
    });

    it('refuses a schema-invalid results.json with 422', async () => {
      const res = await post(
        zipPost(writeZip([{ name: 'results.json', data: Buffer.from('{"kind":"erpcert-conformance"}') }])),
      );
      expect(res.status).toBe(422);
      expect((await json(res)).error).toMatch(/does not match results\.schema\.json/);
    });

    it('refuses a body that is neither a zip nor multipart with 415', async () => {
      const res = await call('/api/v1/runs', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: 'x',
      });
      expect(res.status).toBe(415);
      expect((await json(res)).error).toMatch(/application\/zip/);
    });

    it('refuses an upload over the size limit with 413 before reading it', async () => {
      const small = createHubApp({
        store: t.store,
        auth: fx.auth,
        limits: { maxRunBytes: 1000, maxFiles: 10, maxRatio: 100 },
      });
      const { path, ...init } = zipPost(Buffer.alloc(1024 * 1024 + 2000, 7));
      const res = await small.request(path, init);
      expect(res.status).toBe(413);
      expect((await json(res)).error).toMatch(/larger than the hub accepts/);
    });
  });

  it('GET /api/v1/targets: each target with its latest verdict counts and its recent runs', async () => {
    const body = await json(await call('/api/v1/targets'));
    expectDescribed('/targets', 'get', 200, body);
    const target = body.targets.find((x: { id: number }) => x.id === targetId);
    expect(target).toMatchObject({ name: url, url, embedded: false, runCount: 2 });
    expect(target.latest).toMatchObject({ id: run2, totals: { PASS: 1, FAIL: 1, SKIP: 1 } });
    expect(target.recent.map((r: { id: number }) => r.id)).toEqual([run2, run1]);
  });

  it('GET /api/v1/targets/{id}/runs filters by profile, build and label', async () => {
    expectDescribed('/targets/{id}/runs', 'get', 200, await json(await call(`/api/v1/targets/${targetId}/runs`)));
    const ids = async (q: string) =>
      (await json(await call(`/api/v1/targets/${targetId}/runs${q}`))).runs.map((r: { id: number }) => r.id);
    expect(await ids('')).toEqual([run2, run1]);
    expect(await ids('?profile=gate')).toEqual([run2]);
    expect(await ids('?build=b1')).toEqual([run1]);
    expect(await ids('?label=nightly')).toEqual([run1]);
    expect(await ids('?kind=load')).toEqual([]);
  });

  const bad: [string, number, RegExp][] = [
    ['/api/v1/targets/999999/runs', 404, /no target 999999/],
    ['/api/v1/targets/x/runs', 400, /target id must be a positive integer/],
    ['/api/v1/targets/1/runs?kind=other', 400, /kind must be conformance or load/],
    ['/api/v1/runs/999999', 404, /no run 999999/],
    ['/api/v1/runs/0', 400, /positive integer/],
    ['/api/v1/compare?a=1', 400, /b \(the newer run\) is required/],
    ['/api/v1/matrix?last=101', 400, /last must be at most 100/],
    ['/api/v1/matrix?target=999999', 404, /no target 999999/],
    ['/api/v1/runs/2147483648', 400, /positive integer/],
    ['/api/v1/nothing-here', 404, /no such resource/],
  ];
  it.each(bad)('GET %s answers %i with a JSON error', async (path, status, message) => {
    const res = await call(path);
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect((await json(res)).error).toMatch(message);
  });

  const wrongMethods: [string, string, string][] = [
    ['POST', '/api/v1/targets', 'GET, HEAD'],
    // a run is deleted and relabelled by certification's routes (a certified run is frozen): they count too
    ['PUT', '/api/v1/runs/1', 'DELETE, GET, HEAD, PATCH'],
    ['PATCH', '/api/v1/saved-targets/1', 'DELETE, GET, HEAD, PUT'],
    ['GET', '/api/v1/live-runs/1/cancel', 'POST'],
    ['PUT', '/api/v1/runs/1/files/a/b.json', 'GET, HEAD'],
  ];
  it.each(wrongMethods)('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const res = await call(path, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect((await json(res)).error).toMatch(new RegExp(`not ${method}`));
  });

  it('GET /api/v1/runs/{id}: coverage line, area table and rule matrix', async () => {
    const body = await json(await call(`/api/v1/runs/${run1}`));
    expectDescribed('/runs/{id}', 'get', 200, body);
    expect(body.run).toMatchObject({ id: run1, build: 'b1', label: 'nightly', signature: { text: 'unsigned' } });
    expect(body.target).toMatchObject({ id: targetId, url });
    expect(body.coverage.line).toMatch(/judged/);
    expect(body.areas.map((a: { area: string }) => a.area)).toEqual(['PORTAL.LOOKUP', 'REST.VERSION']);
    expect(body.rules.map((r: { id: string; verdict: string }) => [r.id, r.verdict])).toEqual([
      ['PORTAL.LOOKUP.CAP50', 'SKIP'],
      ['REST.VERSION.PATH', 'PASS'],
      ['REST.VERSION.SYSTEMVERSION', 'FAIL'],
    ]);
  });

  it('GET /api/v1/runs/{id}/rules/{rule}: a FAIL with its counterexample, masked exchange, curl and replay', async () => {
    const body = await json(await call(`/api/v1/runs/${run1}/rules/REST.VERSION.SYSTEMVERSION`));
    expectDescribed('/runs/{id}/rules/{rule}', 'get', 200, body);
    expect(body.rule).toMatchObject({ id: 'REST.VERSION.SYSTEMVERSION', verdict: 'FAIL' });
    expect(body.failures).toHaveLength(1);
    const [f] = body.failures;
    expect(f.counterexample).toBe('[{"register":"CUVc"}]');
    expect(f.exchanges[0].request.headers.authorization).toBe('***');
    expect(f.curl).toMatch(/^curl /);
    expect(f.replay).toMatch(/--only 'REST\.VERSION\.SYSTEMVERSION' --seed 1234/);
    expect(body.tests[0]).toMatchObject({ verdict: 'FAIL', observations: 3 });
    const missing = await call(`/api/v1/runs/${run1}/rules/REST.NOPE`);
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toMatch(/holds no rule REST\.NOPE/);
  });

  it('GET /api/v1/compare: report diff of two runs', async () => {
    const body = await json(await call(`/api/v1/compare?a=${run1}&b=${run2}`));
    expectDescribed('/compare', 'get', 200, body);
    expect(body.a.id).toBe(run1);
    expect(body.diff).toMatchObject({
      kind: 'conformance',
      newFails: ['REST.VERSION.PATH'],
      fixed: ['REST.VERSION.SYSTEMVERSION'],
    });
    const kinds = Object.fromEntries(body.diff.changes.map((x: { rule: string; kind: string }) => [x.rule, x.kind]));
    expect(kinds).toEqual({ 'REST.VERSION.PATH': 'new-fail', 'REST.VERSION.SYSTEMVERSION': 'fixed' });
  });

  it('GET /api/v1/matrix: rules by area x the last runs of a target, or x the targets at one version', async () => {
    const body = await json(await call(`/api/v1/matrix?target=${targetId}&last=2`));
    expectDescribed('/matrix', 'get', 200, body);
    expect(body.columns.map((c: { run: { id: number } }) => c.run.id)).toEqual([run2, run1]);
    const rest = body.areas.find((a: { area: string }) => a.area === 'REST.VERSION');
    expect(rest.rules).toEqual([
      { id: 'REST.VERSION.PATH', verdicts: ['FAIL', 'PASS'] },
      { id: 'REST.VERSION.SYSTEMVERSION', verdicts: ['PASS', 'FAIL'] },
    ]);
    const byVersion = await json(await call('/api/v1/matrix?version=0.1.0'));
    const columnIds = byVersion.columns.map((c: { run: { id: number } }) => c.run.id);
    expect(columnIds).toContain(run2);
    expect(columnIds).not.toContain(run1);
    // a target at a version: its last runs made with it; without target or version, the newest run's target
    const atVersion = await json(await call(`/api/v1/matrix?target=${targetId}&version=0.1.0&last=5`));
    expect(atVersion.columns.map((c: { run: { id: number } }) => c.run.id)).toEqual([run2, run1]);
    const none = await json(await call(`/api/v1/matrix?target=${targetId}&version=9.9.9`));
    expect(none.columns).toEqual([]);
    const newest = await json(await call('/api/v1/matrix?last=1'));
    expectDescribed('/matrix', 'get', 200, newest);
    expect(newest.columns).toHaveLength(1);
  });

  it('GET /api/v1/targets/{id}/load-trends: throughput and p95 per scenario over builds, with the documented figure', async () => {
    // L0 by an erpcert that did not measure p95, L1 with p95 17 ms
    const runs: [number, number | null][] = [
      [8, null],
      [11, 17],
    ];
    for (const [i, [rate, p95]] of runs.entries()) {
      const res = await post(
        zipPost(
          zipFiles(
            loadFolderFiles(
              sampleLoad({ rate, p95, url: 'http://load.example', startedAt: `2026-11-2${i}T00:00:00.000Z` }),
            ),
          ),
          `?build=L${i}`,
        ),
      );
      expect(res.status).toBe(201);
    }
    const targets = await json(await call('/api/v1/targets'));
    const embedded = targets.targets.find((x: { embedded: boolean }) => x.embedded);
    const body = await json(await call(`/api/v1/targets/${embedded.id}/load-trends`));
    expectDescribed('/targets/{id}/load-trends', 'get', 200, body);
    const tx = body.scenarios.find((s: { scenario: string }) => s.scenario === 'transactions');
    expect(tx.documented).toMatch(/10/);
    expect(tx.points.map((p: { build: string; throughput: number }) => [p.build, p.throughput])).toEqual([
      ['L0', 8],
      ['L1', 11],
    ]);
    expect(tx.points[0]).toMatchObject({ p90Ms: 11, p99Ms: 19, knee: 229, limitedBy: 'target' });
    expect(tx.points.map((p: { p95Ms: number | null }) => p.p95Ms)).toEqual([null, 17]);
  });

  it('GET /api/v1/compare: two load runs by report diff, never a load run against a conformance run', async () => {
    const targets = await json(await call('/api/v1/targets'));
    const embedded = targets.targets.find((x: { embedded: boolean }) => x.embedded);
    const loads = (await json(await call(`/api/v1/targets/${embedded.id}/runs?kind=load`))).runs.map(
      (r: { id: number }) => r.id,
    );
    expect(loads).toHaveLength(2);
    const [newer, older] = loads;
    const body = await json(await call(`/api/v1/compare?a=${older}&b=${newer}`));
    expect(body.diff.kind).toBe('load');
    expect(JSON.stringify(body.diff)).toContain('transactions');
    const mixed = await call(`/api/v1/compare?a=${run1}&b=${newer}`);
    expect(mixed.status).toBe(409);
    expect((await json(mixed)).error).toMatch(/is a conformance run and run \d+ a load run: compare two of one kind/);
  });

  it('GET /api/v1/runs/{id}/files/{path}: the stored bytes, sandboxed', async () => {
    const res = await call(`/api/v1/runs/${run1}/files/summary.md`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(`# erpcert conformance\n\n${url}\n`);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect((await call(`/api/v1/runs/${run1}/files/nope.txt`)).status).toBe(404);
  });

  it('POST /api/v1/keys registers a key: the run it signed before, and the runs it signs, show verified', async () => {
    const key = testKey();
    // published before its key is registered
    const early = await json(
      await post(zipPost(zipFiles(signedFolderFiles(sampleConformance({ runTag: 'EARLY' }), key)))),
    );
    const runPath = `/api/v1/runs/${early.run.id}`;
    const pageText = async () => (await call(`/runs/${early.run.id}`, { headers: fx.headers('viewer') })).text();
    expect((await json(await call(runPath))).run.signature).toMatchObject({
      status: 'not-registered',
      text: 'signed, key not registered',
    });
    expect(await pageText()).toContain('signed, key not registered');
    const refused = await app.request('/api/v1/keys', { method: 'POST', body: JSON.stringify({ pem: key.pem }) });
    expect(refused.status).toBe(401);
    const res = await call('/api/v1/keys', {
      method: 'POST',
      headers: { ...fx.headers('admin'), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'vendor', pem: key.pem }),
    });
    expect(res.status).toBe(201);
    expect((await json(res)).key.fingerprint).toBe(key.info.fingerprint);
    const listed = await json(await call('/api/v1/keys'));
    expectDescribed('/keys', 'get', 200, listed);
    expect(listed.keys.map((k: { fingerprint: string }) => k.fingerprint)).toContain(key.info.fingerprint);
    const verified = { status: 'verified', key: key.info.fingerprint, text: `verified, key ${key.info.fingerprint}` };
    // the same run, now verified on the API and on its page
    const again = await json(await call(runPath));
    expect(again.run.signature).toMatchObject(verified);
    expectDescribed('/runs/{id}', 'get', 200, again);
    const text = await pageText();
    expect(text).toContain(`verified, key ${key.info.fingerprint}`);
    expect(text).not.toContain('signed, key not registered');
    const up = await post(zipPost(zipFiles(signedFolderFiles(sampleConformance({ runTag: 'SIGNED' }), key))));
    expect((await json(up)).run.signature).toMatchObject(verified);
  });

  it('never logs a token or a session', () => {
    const secrets = [...Object.values(fx.tokens), ...Object.values(fx.users).map((u) => u.session)];
    for (const s of secrets) expect(logged.join('\n')).not.toContain(s);
  });
});
