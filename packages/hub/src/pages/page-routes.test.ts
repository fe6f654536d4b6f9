import { coverageLine, judgedCoverage } from '@erpcert/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { type AuthFixture, seedAuth } from '../testing/auth-fixture.js';
import { BINARY, HOSTILE_RULE, hostileConformance, JS_URL } from '../testing/hostile-run.js';
import {
  ERP_URL,
  FIRST_VERDICTS,
  HOSTILE_URL,
  LOAD_P95,
  LOAD_RATES,
  type PageFixture,
  SECOND_VERDICTS,
  seedPageFixture,
} from '../testing/page-fixture.js';
import { conformanceFolderFiles, sampleConformance } from '../testing/sample-runs.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { zipFiles } from '../testing/zip-writer.js';
import { PAGE_CSP } from './page-routes.js';

describe.each(testDialects)('the pages on %s', (dialect) => {
  let t: TestStore;
  let app: ReturnType<typeof createHubApp>;
  let f: PageFixture;
  let fx: AuthFixture;
  /** A page as the engineer of the organisation sees it. */
  const get = async (path: string) => {
    const res = await app.request(path, { headers: { cookie: fx.headers('engineer').cookie as string } });
    return { res, body: await res.text() };
  };

  beforeAll(async () => {
    t = await freshStore(dialect);
    fx = await seedAuth(t.store);
    app = createHubApp({ store: t.store, auth: fx.auth, log: () => {} });
    f = await seedPageFixture(t.store);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  describe('every page', () => {
    const pages: [string, () => string, RegExp][] = [
      ['the targets', () => '/', /<h1>Targets<\/h1>/],
      ['a history', () => `/targets/${f.erpTarget}`, /<h1>History of https:\/\/erp\.example\.com<\/h1>/],
      ['a run', () => `/runs/${f.first}`, /<h1>Run #\d+<\/h1>/],
      ['a rule', () => `/runs/${f.first}/rules/REST.VERSION.SYSTEMVERSION`, /<h1>REST\.VERSION\.SYSTEMVERSION in run/],
      ['a load run', () => `/runs/${f.loads[0]}`, /<h1>Load run #\d+<\/h1>/],
      ['the compare form', () => '/compare', /<h1>Compare two runs<\/h1>/],
      ['a comparison', () => `/compare?a=${f.first}&b=${f.second}`, /<h1>Run #\d+ → run #\d+<\/h1>/],
      ['the matrix', () => `/matrix?target=${f.erpTarget}`, /<h1>Rule matrix of /],
      ['the trends', () => `/targets/${f.loadTarget}/trends`, /<h1>Load trends of /],
      ['the upload form', () => '/upload', /<h1>Upload a run<\/h1>/],
    ];
    it.each(pages)('%s: 200, HTML, landmarks, the security headers', async (_name, path, heading) => {
      const { res, body } = await get(path());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8$/i);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(PAGE_CSP).toMatch(/default-src 'self'/);
      expect(PAGE_CSP).toMatch(/frame-ancestors 'none'/);
      expect(PAGE_CSP).not.toMatch(/unsafe-inline/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(body).toMatch(heading);
      expect(body).toMatch(/<main id="main"/);
      expect(body).toMatch(/<nav aria-label="Hub">/);
      expect(body).toContain('<link rel="stylesheet" href="/assets/hub.css">');
      // no inline script or style for the CSP to block
      expect(body).not.toMatch(/<script|<style| style="/i);
    });

    it('serves the stylesheet as CSS', async () => {
      const { res, body } = await get('/assets/hub.css');
      expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
      expect(body).toMatch(/:focus-visible/);
    });
  });

  describe('targets and history', () => {
    it('lists each target with its latest verdicts and a strip of its runs with text alternatives', async () => {
      const { body } = await get('/');
      expect(body).toContain(`href="/targets/${f.erpTarget}"`);
      expect(body).toContain(`<span class="sr">#${f.second} · conformance · build b2: FAIL</span>`);
      expect(body).toContain(`<span class="sr">#${f.first} · conformance · build b1 · label nightly: FAIL</span>`);
      expect(body).toContain(`aria-label="last 2 runs of ${ERP_URL}, newest first"`);
    });

    const filters: [string, string, (f: PageFixture) => number[], (f: PageFixture) => number[]][] = [
      ['build', 'build=b1', (x) => [x.first], (x) => [x.second]],
      ['label', 'label=nightly', (x) => [x.first], (x) => [x.second]],
      ['profile', 'profile=gate', (x) => [x.second], (x) => [x.first]],
      ['nothing', '', (x) => [x.first, x.second], () => []],
    ];
    it.each(filters)('filters the history by %s', async (_name, query, shown, hidden) => {
      const { body } = await get(`/targets/${f.erpTarget}?${query}`);
      for (const id of shown(f)) expect(body).toContain(`<a href="/runs/${id}">#${id}</a>`);
      for (const id of hidden(f)) expect(body).not.toContain(`<a href="/runs/${id}">#${id}</a>`);
    });
  });

  describe('a run and its rules', () => {
    it('shows the coverage line, the area table and every rule', async () => {
      const doc = sampleConformance({ url: ERP_URL, embedded: false, runTag: 'P1', verdicts: FIRST_VERDICTS });
      const { body } = await get(`/runs/${f.first}`);
      expect(body).toContain(`<p id="coverage">${coverageLine(judgedCoverage(doc.rules))}</p>`);
      for (const area of ['PORTAL.LOOKUP', 'REST.VERSION']) expect(body).toContain(`>${area}</a></th>`);
      expect(body).toContain(`<p id="rules-count">3 of 3 rules</p>`);
    });

    const ruleFilters: [string, string, string[]][] = [
      ['verdict', 'verdict=FAIL', ['REST.VERSION.SYSTEMVERSION']],
      ['area', 'area=PORTAL.LOOKUP', ['PORTAL.LOOKUP.CAP50']],
      ['text', 'q=path', ['REST.VERSION.PATH']],
    ];
    it.each(ruleFilters)('filters the rules by %s', async (_name, query, want) => {
      const { body } = await get(`/runs/${f.first}?${query}`);
      const shown = [...body.matchAll(/<th scope="row"><a href="\/runs\/\d+\/rules\/([^"]+)">/g)].map((m) => m[1]);
      expect(shown).toEqual(want);
    });

    it("opens a FAIL's evidence: message, counterexample, exchange, curl and replay", async () => {
      const doc = sampleConformance({ url: ERP_URL, embedded: false, runTag: 'P1', verdicts: FIRST_VERDICTS });
      const failure = doc.failures[0];
      const { body } = await get(`/runs/${f.first}/rules/REST.VERSION.SYSTEMVERSION`);
      expect(body).toContain(`<p class="message">${failure?.message}</p>`);
      expect(body).toContain(
        '<pre class="counterexample" tabindex="0" aria-label="counterexample">[{&quot;register&quot;:&quot;CUVc&quot;}]</pre>',
      );
      expect(body).toContain(`GET ${ERP_URL}/api/1/CUVc\nauthorization: ***`);
      expect(body).toContain(
        `<pre class="curl" tabindex="0" aria-label="curl command">curl -u erpcert:*** &apos;${ERP_URL}/api/1/CUVc&apos;</pre>`,
      );
      expect(body).toContain(
        `<pre class="replay" tabindex="0" aria-label="replay command">erpcert conform --only &apos;REST.VERSION.SYSTEMVERSION&apos; --seed 1234 --path 0:1</pre>`,
      );
    });
  });

  describe('evidence the target chose is text', () => {
    const planted = () => [
      `/runs/${f.hostile}`,
      `/runs/${f.hostile}/rules/${HOSTILE_RULE}`,
      '/',
      `/targets/${f.hostileTarget}`,
    ];
    it('no planted markup or javascript: link reaches a page', async () => {
      for (const path of planted()) {
        const { body } = await get(path);
        expect(body, path).not.toContain('<script>alert');
        expect(body, path).not.toContain('<img');
        expect(body, path).not.toContain('<svg onload');
        expect(body, path).not.toContain('<b>evil</b>');
        expect(body, path).not.toMatch(/(href|src|action)="\s*javascript:/i);
      }
    });

    it('shows the planted strings escaped, control bytes visible, long bodies cut, cookies masked', async () => {
      const { body } = await get(`/runs/${f.hostile}/rules/${HOSTILE_RULE}`);
      expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(body).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
      expect(body).toContain(`location: ${JS_URL}`);
      expect(body).toContain('PK\\u0003\\u0004\\u0000\\u0001\\u001b[31m\\u202e');
      expect(body).not.toContain(BINARY);
      expect(body).toMatch(/more characters: the whole value is in the run&apos;s results\.json/);
      expect(body).toContain('set-cookie: ***');
      expect(body).not.toContain('abc123');
      expect(hostileConformance().failures[0]?.exchanges[0]?.response?.headers['set-cookie']).toBe('session=abc123');
    });
  });

  describe('compare and matrix', () => {
    it('compares two runs as report diff does: the broken rule is a new FAIL, the other fixed', async () => {
      const { body } = await get(`/compare?a=${f.first}&b=${f.second}`);
      expect(body).toContain('<p id="diff-summary">1 new FAIL · 1 fixed · 2 changed in all · 1 unchanged</p>');
      const rows = [...body.matchAll(/rules\/([A-Z0-9.]+)">[^<]+<\/a><\/th><td>([^<]+)<\/td>/g)].map((m) => [
        m[1],
        m[2],
      ]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ['REST.VERSION.PATH', 'new FAIL'],
          ['REST.VERSION.SYSTEMVERSION', 'fixed'],
        ]),
      );
      expect(FIRST_VERDICTS['REST.VERSION.PATH']).toBe('PASS');
      expect(SECOND_VERDICTS['REST.VERSION.PATH']).toBe('FAIL');
    });

    it('compares two load runs: p95 where both recorded it, a note where one did not', async () => {
      const [noP95, withP95, alsoP95] = [0, 1, 2].map((i) => f.loads[i]);
      expect([LOAD_P95[0], LOAD_P95[1], LOAD_P95[2]]).toEqual([null, 15, 13]);
      const both = (await get(`/compare?a=${withP95}&b=${alsoP95}`)).body;
      expect(both).toContain(
        '<tr><th scope="row">transactions</th><td>latencyMs.p95</td><td class="num">15</td><td class="num">13</td><td class="num">-13.3 %</td><td>better</td><td>yes</td></tr>',
      );
      expect(both).not.toContain('p95 not recorded');
      const older = (await get(`/compare?a=${noP95}&b=${withP95}`)).body;
      expect(older).not.toContain('<td>latencyMs.p95</td>');
      expect(older).toContain(
        '<li>p95 not recorded in the old run (erpcert 0.1.0 did not measure it): not compared for transactions</li>',
      );
    });

    const refused: [string, () => string, number, RegExp][] = [
      ['runs of two kinds', () => `/compare?a=${f.first}&b=${f.loads[0]}`, 409, /compare two of one kind/],
      ['a run that is not there', () => `/compare?a=${f.first}&b=999999`, 404, /there is no run 999999/],
      ['an id that is no number', () => `/compare?a=x&b=${f.first}`, 400, /must be a positive integer/],
    ];
    it.each(refused)('refuses %s on the page, with its status', async (_name, path, status, message) => {
      const { res, body } = await get(path());
      expect(res.status).toBe(status);
      expect(body).toMatch(/role="alert"/);
      expect(body).toMatch(message);
    });

    it('draws the matrix of a target: rules grouped by area, one column per run, newest first', async () => {
      const { body } = await get(`/matrix?target=${f.erpTarget}&last=5`);
      expect(body).toContain('<th scope="rowgroup" colspan="3">PORTAL.LOOKUP</th>');
      expect(body).toContain('<th scope="rowgroup" colspan="3">REST.VERSION</th>');
      const cols = [...body.matchAll(/<th scope="col"><a href="\/runs\/(\d+)">/g)].map((m) => Number(m[1]));
      expect(cols).toEqual([f.second, f.first]);
    });

    it('draws a rule with one verdict in every run as one cell, and a rule that changed run by run', async () => {
      const { body } = await get(`/matrix?target=${f.erpTarget}&last=5`);
      // CAP50 is SKIP in both runs; PATH was PASS, then FAIL; SYSTEMVERSION was FAIL, then PASS
      expect([FIRST_VERDICTS['PORTAL.LOOKUP.CAP50'], SECOND_VERDICTS['PORTAL.LOOKUP.CAP50']]).toEqual(['SKIP', 'SKIP']);
      expect(body).toContain(
        `<tr><th scope="row">PORTAL.LOOKUP.CAP50</th><td class="steady" colspan="2"><a href="/runs/${f.second}/rules/PORTAL.LOOKUP.CAP50"><span class="v v-skip">SKIP</span></a> in both runs</td></tr>`,
      );
      expect(body).toContain(
        `<tr><th scope="row">REST.VERSION.PATH</th><td><a href="/runs/${f.second}/rules/REST.VERSION.PATH"><span class="v v-fail">FAIL</span></a></td><td><a href="/runs/${f.first}/rules/REST.VERSION.PATH"><span class="v v-pass">PASS</span></a></td></tr>`,
      );
      expect(body).toContain(
        '<p>3 rules in 2 areas × 2 runs, newest first. 2 rules differ between these runs (shown run by run); 1 rule has one verdict in both runs (shown once).</p>',
      );
      // one run: every rule is drawn with its cell
      const one = (await get(`/matrix?target=${f.erpTarget}&last=1`)).body;
      expect(one).not.toContain('class="steady"');
      expect(one).toContain(
        `<tr><th scope="row">PORTAL.LOOKUP.CAP50</th><td><a href="/runs/${f.second}/rules/PORTAL.LOOKUP.CAP50"><span class="v v-skip">SKIP</span></a></td></tr>`,
      );
    });

    it('draws the matrix of every target at one erpcert version', async () => {
      const { body } = await get('/matrix?version=0.1.0');
      expect(body).toContain('<h1>Rule matrix of every target at erpcert 0.1.0</h1>');
      expect(body).toContain(`>${ERP_URL}</a>`);
      expect(body).toContain(`>${HOSTILE_URL}</a>`);
    });
  });

  it.each(LOAD_P95.map((p95, i) => [i, p95] as const))(
    "a load run's page gives p50, p90, p95 and p99: load run %i, p95 %s (null: not recorded, never 0)",
    async (i, p95) => {
      const { body } = await get(`/runs/${f.loads[i]}`);
      expect(body).toContain('<th scope="col" class="num">p90 ms</th><th scope="col" class="num">p95 ms</th>');
      expect(body).toContain(
        `<td class="num">6</td><td class="num">11</td><td class="num">${p95 ?? 'not recorded'}</td><td class="num">19</td>`,
      );
    },
  );

  it('draws the load trends: charts with titles, the documented line, the knee and what limited it', async () => {
    const { body } = await get(`/targets/${f.loadTarget}/trends`);
    expect(body).toContain('<title id="s0-rate-title">transactions: throughput per run</title>');
    expect(body).toContain('<title id="s0-latency-title">transactions: p95 latency per run</title>');
    expect(body).toContain('<title id="s0-knee-title">transactions: saturation knee per run</title>');
    expect(body).toMatch(/<line class="documented"/);
    // first series: one dot per run on the rate and knee charts, one per run that recorded p95 on the latency chart
    const recorded = LOAD_P95.filter((p) => p !== null).length;
    expect(recorded).toBe(LOAD_P95.length - 1);
    expect(body.match(/<circle class="dot-a"/g)?.length).toBe(LOAD_RATES.length * 2 + recorded);
    expect(body).toContain('<li><span class="key key-a" aria-hidden="true"></span>p95 (ms)</li>');
    expect(body).toContain('p95 not recorded for v1.0 (an erpcert before p95)');
    expect(body).toContain('limited by target in every run');
    expect(body).toContain('<th scope="col" class="num">p95 ms</th>');
    for (const [i, rate] of LOAD_RATES.entries())
      expect(body).toContain(
        `<td>v1.${i}</td><td><span class="v v-pass">PASS</span></td>\n<td class="num">${rate}</td><td class="num">11</td><td class="num">${LOAD_P95[i] ?? 'not recorded'}</td><td class="num">19</td>`,
      );
    // the sample's saturation steps: 230/s offered gave 229/s and held; 340/s broke with errors, at the target
    expect(body.match(/<td class="num">229<\/td><td>target<\/td>/g)?.length).toBe(LOAD_RATES.length);
  });

  describe('upload', () => {
    const form = (
      zip: Buffer | undefined,
      csrf: string,
      extra: Record<string, string> = {},
      folder?: ReadonlyMap<string, Buffer>,
    ) => {
      const data = new FormData();
      // an input left empty: Node's FormData posts an empty field (a browser an empty filename): nothing chosen
      if (zip) data.append('zip', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'run.zip');
      else data.append('zip', new Blob([]), '');
      if (folder) for (const [path, bytes] of folder) data.append('file', new Blob([new Uint8Array(bytes)]), path);
      else data.append('file', new Blob([]), '');
      data.append('csrf', csrf);
      for (const [k, v] of Object.entries(extra)) data.append(k, v);
      return data;
    };
    /** A report folder as a browser's folder input posts it: each file named by its path, the folder's name first. */
    const folder = (runTag: string, extra: Record<string, string> = {}) =>
      new Map(
        [
          ...conformanceFolderFiles(sampleConformance({ runTag })),
          ...Object.entries(extra).map(([p, b]) => [p, Buffer.from(b)] as const),
        ].map(([path, bytes]) => [`report-${runTag}/${path}`, bytes]),
      );
    const post = (body: FormData, headers: Record<string, string> = {}, who: 'engineer' | 'viewer' = 'engineer') =>
      app.request('/upload', {
        method: 'POST',
        body,
        headers: { host: 'localhost', cookie: fx.headers(who).cookie as string, ...headers },
      });
    const TOKEN = () => fx.users.engineer.csrf;
    const zip = () => zipFiles(conformanceFolderFiles(sampleConformance({ runTag: 'UPLOAD1' })), 'folder/');

    it("has labelled controls for the zip, build and label, and the session's CSRF token", async () => {
      const { body } = await get('/upload');
      expect(body).toContain('<label>Report folder <input type="file" name="file" webkitdirectory multiple></label>');
      expect(body).toMatch(
        /<label>Report folder \(zip\) <input type="file" name="zip" accept="\.zip,application\/zip"><\/label>/,
      );
      expect(body).toContain(`<input type="hidden" name="csrf" value="${fx.users.engineer.csrf}">`);
      expect(body).not.toMatch(/name="token"/);
    });

    it('stores an uploaded zip and sends the browser to the run', async () => {
      const res = await post(form(zip(), TOKEN(), { build: 'up-1' }), { origin: 'http://localhost' });
      expect(res.status).toBe(303);
      const id = Number(/^\/runs\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
      expect((await t.store.run(id))?.build).toBe('up-1');
    });

    it('stores an uploaded folder (one part per file, named by its path) and sends the browser to the run', async () => {
      const res = await post(form(undefined, TOKEN(), { build: 'up-2' }, folder('UPLOAD2')), {
        origin: 'http://localhost',
      });
      expect(res.status).toBe(303);
      const id = Number(/^\/runs\/(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
      expect((await t.store.run(id))?.build).toBe('up-2');
      // the folder's name is taken off the paths: the files are the run folder's own
      expect((await t.store.files(id)).map((f) => f.path)).toEqual(
        [...conformanceFolderFiles(sampleConformance({ runTag: 'UPLOAD2' })).keys()].sort(),
      );
      // the same folder zipped is the same run
      const zipped = zipFiles(conformanceFolderFiles(sampleConformance({ runTag: 'UPLOAD2' })), 'report/');
      const again = await post(form(zipped, TOKEN(), { build: 'up-2' }), { origin: 'http://localhost' });
      expect(again.headers.get('location')).toBe(`/runs/${id}`);
    });

    it('refuses a form whose two file inputs were left empty, as a browser posts it', async () => {
      const before = (await t.store.targets([fx.org, fx.rival])).reduce((n, x) => n + x.runCount, 0);
      // each empty input is a part with an empty filename (FormData in Node would send a plain field instead)
      // a boundary no CSRF token (base64url: letters, digits, - and _) can hold
      const BOUNDARY = 'erpcert.test.boundary';
      const part = (name: string, value: string, file: boolean) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename=""\r\nContent-Type: application/octet-stream' : ''}\r\n\r\n${value}\r\n`;
      const body = `${part('csrf', TOKEN(), false)}${part('file', '', true)}${part('zip', '', true)}--${BOUNDARY}--\r\n`;
      const res = await app.request('/upload', {
        method: 'POST',
        body,
        headers: {
          host: 'localhost',
          origin: 'http://localhost',
          cookie: fx.headers('engineer').cookie as string,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/choose the report folder, or the zip of a report folder/);
      expect((await t.store.targets([fx.org, fx.rival])).reduce((n, x) => n + x.runCount, 0)).toBe(before);
    });

    const refused: [string, () => FormData, Record<string, string>, number, RegExp][] = [
      [
        'a folder with a path outside it',
        () => form(undefined, TOKEN(), {}, folder('UPLOAD3', { '../x': 'outside' })),
        {},
        400,
        /climbs out of the run folder/,
      ],
      [
        'a folder with an absolute path',
        () => form(undefined, TOKEN(), {}, new Map([['/etc/results.json', Buffer.from('{}')]])),
        {},
        400,
        /is absolute/,
      ],
      [
        'a folder without results.json',
        () => form(undefined, TOKEN(), {}, new Map([['notes/notes.txt', Buffer.from('hello')]])),
        {},
        400,
        /results\.json/,
      ],
      ['a folder and a zip at once', () => form(zip(), TOKEN(), {}, folder('UPLOAD4')), {}, 400, /not both/],
      [
        'a folder with a wrong CSRF token',
        () => form(undefined, 'nope', {}, folder('UPLOAD5')),
        {},
        403,
        /no valid CSRF token/,
      ],
      ['a file that is not a zip', () => form(Buffer.from('not a zip at all'), TOKEN()), {}, 400, /zip/i],
      [
        'a folder without results.json',
        () => form(zipFiles(new Map([['notes.txt', Buffer.from('hello')]])), TOKEN()),
        {},
        400,
        /results\.json/,
      ],
      ['a wrong CSRF token', () => form(zip(), 'nope'), {}, 403, /no valid CSRF token/],
      ['no CSRF token', () => form(zip(), ''), {}, 403, /no valid CSRF token/],
      ["another session's CSRF token", () => form(zip(), fx.users.admin.csrf), {}, 403, /no valid CSRF token/],
      ['no folder and no zip', () => form(undefined, TOKEN()), {}, 400, /choose the report folder, or the zip/],
      ['a post from another site', () => form(zip(), TOKEN()), { 'sec-fetch-site': 'cross-site' }, 403, /another site/],
      ['another origin', () => form(zip(), TOKEN()), { origin: 'https://evil.example' }, 403, /another origin/],
      ['an opaque origin (a sandboxed frame)', () => form(zip(), TOKEN()), { origin: 'null' }, 403, /opaque origin/],
    ];
    it.each(refused)(
      'refuses %s with the message on the form, storing nothing',
      async (_n, body, headers, status, msg) => {
        const before = (await t.store.targets([fx.org, fx.rival])).reduce((n, x) => n + x.runCount, 0);
        const res = await post(body(), headers);
        expect(res.status).toBe(status);
        const html = await res.text();
        expect(html).toMatch(/<p class="alert" role="alert" id="upload-error">/);
        expect(html).toMatch(msg);
        expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
        expect((await t.store.targets([fx.org, fx.rival])).reduce((n, x) => n + x.runCount, 0)).toBe(before);
      },
    );

    it('refuses an upload by a viewer: the role publishes nothing', async () => {
      const res = await post(form(zip(), fx.users.viewer.csrf), {}, 'viewer');
      expect(res.status).toBe(403);
      expect(await res.text()).toMatch(/may not publish runs/);
      const page = await app.request('/upload', { headers: { cookie: fx.headers('viewer').cookie as string } });
      expect(await page.text()).toMatch(/Your role publishes nothing/);
    });
  });

  describe('missing pages', () => {
    const missing: [string, string, number, RegExp][] = [
      ['an unknown page', '/nope/<script>', 404, /There is no page \/nope\/&lt;script&gt;\./],
      ['a run that is not there', '/runs/999999', 404, /there is no run 999999/],
      ['a rule the run does not hold', '/runs/1/rules/NO.SUCH.RULE', 404, /holds no rule NO\.SUCH\.RULE/],
      ['a target that is not there', '/targets/999999', 404, /there is no target 999999/],
      ['a run id that is no number', '/runs/abc', 400, /must be a positive integer/],
    ];
    it.each(missing)('%s is an HTML page with its status', async (_name, path, status, message) => {
      const { res, body } = await get(path);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(body).toMatch(message);
    });

    it('leaves the API its JSON 404', async () => {
      const res = await app.request('/api/v1/nope');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'no such resource: GET /api/v1/nope' });
    });
  });
});
