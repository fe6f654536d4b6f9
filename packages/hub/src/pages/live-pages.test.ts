/**
 * The live pages in-process, as a browser without JavaScript uses them: plain forms, POST/redirect/GET. Saved
 * targets (save, edit, delete; the password never shown again), starting conform and load from a target's page,
 * cancel, rerun a rule / an area / every FAIL; every write refused without the session's CSRF token, from another
 * site, for a role that may not do it (403), or in another organisation (404).
 * No worker pool here: started runs stay queued, which is what these pages show.
 */
import { parseTargetGuard } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp, liveParts } from '../api/hub-app.js';
import { hubAuth } from '../auth/hub-auth.js';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { ingestFiles } from '../ingest/ingest.js';
import { type AuthFixture, seedAuth, TEST_SCRYPT, type Who } from '../testing/auth-fixture.js';
import { ERP_URL, FIRST_VERDICTS, type PageFixture, seedPageFixture } from '../testing/page-fixture.js';
import { conformanceFolderFiles, sampleConformance } from '../testing/sample-runs.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { LIVE_PAGE_CSP, PAGE_CSP } from './page-routes.js';

/** A form's `csrf` field: replaced by the poster's session CSRF token when sent. */
const TOKEN = '<the session CSRF token>';
const CSRF_REFUSED = /no valid CSRF token/;
const SECRET = 'live-pages-secret-abcdefghijklmnop';
// planted: no page may ever show it
const PASSWORD = 'PLANTED-page-pw-5d1e-Xy';
const SAME_SITE = {
  host: 'localhost',
  origin: 'http://localhost',
  'content-type': 'application/x-www-form-urlencoded',
};

describe.each(testDialects)('the live pages on %s', (dialect) => {
  let t: TestStore;
  let app: ReturnType<typeof createHubApp>;
  let f: PageFixture;
  let fx: AuthFixture;
  const pages: string[] = [];
  /** The session cookie of `who` (an engineer unless said: saves targets, starts, cancels and reruns). */
  const cookie = (who: Who): Record<string, string> =>
    who === 'anonymous' ? {} : { cookie: `${SESSION_COOKIE}=${fx.users[who as 'engineer'].session}` };

  const get = async (path: string, who: Who = 'engineer') => {
    const res = await app.request(path, { headers: cookie(who) });
    const body = await res.text();
    pages.push(body);
    return { res, body };
  };
  const post = async (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
    who: Who = 'engineer',
  ) => {
    const { token, ...rest } = fields;
    const csrf = token === TOKEN ? fx.users[who as 'engineer'].csrf : token;
    const res = await app.request(path, {
      method: 'POST',
      body: new URLSearchParams(csrf === undefined ? rest : { ...rest, csrf }).toString(),
      headers: { ...SAME_SITE, ...cookie(who), ...headers },
    });
    const body = await res.text();
    pages.push(body);
    return { res, body, location: res.headers.get('location') ?? '' };
  };
  const idOf = (location: string, prefix: string) => Number(new RegExp(`^/${prefix}/(\\d+)$`).exec(location)?.[1]);

  beforeAll(async () => {
    t = await freshStore(dialect);
    const auth = hubAuth(t.store.db, { scrypt: TEST_SCRYPT });
    fx = await seedAuth(t.store, auth);
    app = createHubApp({
      store: t.store,
      auth,
      secret: SECRET,
      log: () => {},
      // the saved targets' names (*.test) resolve to a public documentation address, as the SSRF guard requires
      live: liveParts(t.store, SECRET, parseTargetGuard(undefined, testResolver())),
    });
    f = await seedPageFixture(t.store);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  describe('saved targets', () => {
    let id = 0;

    it('saves a target from the form and shows its page: the password only as "set"', async () => {
      const { body: form } = await get('/saved-targets');
      expect(form).toMatch(/<h1>Saved targets<\/h1>/);
      expect(form).toMatch(/<input id="new-password" type="password" name="password"/);
      expect(form).toMatch(/<input type="hidden" name="csrf" value="[^"]+">/);
      const saved = await post('/saved-targets', {
        url: 'http://erp.test:8080/',
        name: 'Test ERP',
        authKind: 'basic',
        user: 'alice',
        password: PASSWORD,
        compcode: '3',
        usercode: 'AL',
        token: TOKEN,
      });
      expect(saved.res.status).toBe(303);
      id = idOf(saved.location, 'saved-targets');
      expect(id).toBeGreaterThan(0);
      const { res, body } = await get(saved.location);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(body).toMatch(/<h1>Saved target Test ERP<\/h1>/);
      expect(body).toContain('http://erp.test:8080');
      expect(body).toContain('basic · user alice · password set');
      expect(body).toMatch(/<label for="edit-password">Password \(set; leave empty to keep it\)<\/label>/);
      expect(body).toMatch(/<input id="edit-usercode" name="usercode" value="AL"/);
      const listed = await get('/saved-targets');
      expect(listed.body).toContain(`<a href="/saved-targets/${id}">Test ERP</a>`);
    });

    const refusedSaves: [string, Record<string, string>, Record<string, string>, number, RegExp][] = [
      ['a URL that is no URL', { url: 'not a url', token: TOKEN }, {}, 400, /url is not a URL/],
      ['credentials in the URL', { url: 'http://u:p@erp.test', token: TOKEN }, {}, 400, /put the credentials in user/],
      [
        'a company code that is no number',
        { url: 'http://x.test', compcode: 'ab', token: TOKEN },
        {},
        400,
        /compcode must be a whole number/,
      ],
      ['a URL saved already', { url: 'http://erp.test:8080', token: TOKEN }, {}, 409, /is saved already/],
      ['a wrong CSRF token', { url: 'http://y.test', token: 'nope' }, {}, 403, CSRF_REFUSED],
      ['no CSRF token', { url: 'http://y.test' }, {}, 403, CSRF_REFUSED],
      [
        'a post from another site',
        { url: 'http://y.test', token: TOKEN },
        { 'sec-fetch-site': 'cross-site' },
        403,
        /another site/,
      ],
      [
        'another origin',
        { url: 'http://y.test', token: TOKEN },
        { origin: 'https://evil.example' },
        403,
        /another origin/,
      ],
    ];
    it.each(refusedSaves)(
      'refuses %s with the message on the form, saving nothing',
      async (_n, fields, headers, status, msg) => {
        const before = (await get('/api/v1/saved-targets')).body;
        const { res, body } = await post('/saved-targets', { ...fields, password: PASSWORD }, headers);
        expect(res.status).toBe(status);
        expect(body).toMatch(/<p class="alert" role="alert" id="form-error">/);
        expect(body).toMatch(msg);
        expect((await get('/api/v1/saved-targets')).body).toBe(before);
      },
    );

    it('refuses a form larger than the pages read (413), saving nothing', async () => {
      const before = (await get('/api/v1/saved-targets')).body;
      const { res, body } = await post('/saved-targets', {
        url: 'http://big.test',
        name: 'x'.repeat(70_000),
        token: TOKEN,
      });
      expect(res.status).toBe(413);
      expect(body).toMatch(/the form is larger than the hub reads \(65536 bytes\)/);
      expect((await get('/api/v1/saved-targets')).body).toBe(before);
    });

    it('shows a refused form again with what was typed, but never the password', async () => {
      const { body } = await post('/saved-targets', {
        url: 'http://z.test',
        user: 'bob',
        compcode: 'x',
        password: PASSWORD,
        token: TOKEN,
      });
      expect(body).toMatch(/<input id="new-user" name="user" value="bob"/);
      expect(body).toMatch(/<input id="new-url" name="url" value="http:\/\/z\.test"/);
      expect(body).toMatch(
        /<input id="new-password" type="password" name="password" autocomplete="new-password" maxlength="1000">/,
      );
    });

    it('edits the connection: an empty password keeps it, "forget" removes it, an empty field clears it', async () => {
      const base = { url: 'http://erp.test:8080', name: 'Test ERP', user: 'alice', compcode: '3', token: TOKEN };
      const kept = await post(`/saved-targets/${id}`, { ...base, usercode: 'BO' });
      expect(kept.res.status).toBe(303);
      expect(kept.location).toBe(`/saved-targets/${id}`);
      let api = JSON.parse((await get(`/api/v1/saved-targets/${id}`)).body);
      expect(api).toMatchObject({ usercode: 'BO', password: 'set', compcode: 3 });
      await post(`/saved-targets/${id}`, { ...base, compcode: '', forgetPassword: '1' });
      api = JSON.parse((await get(`/api/v1/saved-targets/${id}`)).body);
      expect(api).toMatchObject({ usercode: null, password: 'not set', compcode: null });
      await post(`/saved-targets/${id}`, { ...base, password: PASSWORD });
      expect(JSON.parse((await get(`/api/v1/saved-targets/${id}`)).body).password).toBe('set');
      const refused = await post(`/saved-targets/${id}`, { ...base, portalPath: 'no-slash' });
      expect(refused.res.status).toBe(400);
      expect(refused.body).toMatch(/portalPath must start with \//);
      expect(refused.body).toMatch(/<input id="edit-portalPath" name="portalPath" value="no-slash"/);
    });

    it('refuses a viewer saving a target (403: the role), saving nothing', async () => {
      const before = (await get('/api/v1/saved-targets')).body;
      const { res, body } = await post('/saved-targets', { url: 'http://viewer.test', token: TOKEN }, {}, 'viewer');
      expect(res.status).toBe(403);
      expect(body).toMatch(/may not save, change or delete targets/);
      expect((await get('/api/v1/saved-targets')).body).toBe(before);
    });

    it("another organisation's admin finds no saved target, and can neither start, edit nor delete it (404)", async () => {
      expect((await get(`/saved-targets/${id}`, 'outsider')).res.status).toBe(404);
      expect((await get('/saved-targets', 'outsider')).body).not.toContain(`/saved-targets/${id}`);
      const before = JSON.parse((await get('/api/v1/live-runs')).body).liveRuns.length;
      for (const action of ['conform', 'delete', ''])
        expect(
          (
            await post(
              `/saved-targets/${id}${action ? `/${action}` : ''}`,
              { url: 'http://x.test', token: TOKEN },
              {},
              'outsider',
            )
          ).res.status,
        ).toBe(404);
      expect((await get(`/saved-targets/${id}`)).res.status).toBe(200);
      expect(JSON.parse((await get('/api/v1/live-runs')).body).liveRuns.length).toBe(before);
    });

    it('deletes a saved target with the CSRF token, and not without', async () => {
      const other = await post('/saved-targets', { url: 'http://gone.test', token: TOKEN });
      const gone = idOf(other.location, 'saved-targets');
      const refused = await post(`/saved-targets/${gone}/delete`, { token: 'nope' });
      expect(refused.res.status).toBe(403);
      expect((await get(`/saved-targets/${gone}`)).res.status).toBe(200);
      const deleted = await post(`/saved-targets/${gone}/delete`, { token: TOKEN });
      expect(deleted.res.status).toBe(303);
      expect(deleted.location).toBe('/saved-targets');
      const missing = await get(`/saved-targets/${gone}`);
      expect(missing.res.status).toBe(404);
      expect(missing.body).toMatch(/there is no saved target/);
    });

    it('starts conform and load from the target page: 303 to the live run, its settings as typed', async () => {
      const conform = await post(`/saved-targets/${id}/conform`, {
        profile: 'gate',
        only: 'REST.VERSION.*, REST.SEQ.HEADER',
        token: TOKEN,
      });
      expect(conform.res.status).toBe(303);
      const job = idOf(conform.location, 'live-runs');
      const api = JSON.parse((await get(`/api/v1/live-runs/${job}`)).body);
      expect(api).toMatchObject({
        targetId: id,
        state: 'queued',
        parentRunId: null,
        settings: { kind: 'conformance', profile: 'gate', only: ['REST.VERSION.*', 'REST.SEQ.HEADER'] },
      });
      const { res, body } = await get(conform.location);
      expect(res.headers.get('content-security-policy')).toBe(LIVE_PAGE_CSP);
      expect(body).toContain('conformance · gate · only REST.VERSION.*, REST.SEQ.HEADER');
      expect(body).toContain(`<form class="stack" method="post" action="/live-runs/${job}/cancel" data-live-cancel=""`);

      const load = await post(`/saved-targets/${id}/load`, {
        scenario: 'invoices',
        engine: 'autocannon',
        durationSeconds: '12',
        token: TOKEN,
      });
      expect(load.res.status).toBe(303);
      const loadJob = JSON.parse((await get(`/api/v1/live-runs/${idOf(load.location, 'live-runs')}`)).body);
      expect(loadJob.settings).toEqual({
        kind: 'load',
        scenario: 'invoices',
        engine: 'autocannon',
        durationSeconds: 12,
      });
      const page = await get(`/saved-targets/${id}`);
      expect(page.body).toContain(`<a href="/live-runs/${job}">#${job}</a>`);
      expect(page.body).toContain('load · invoices · autocannon · 12 s');
    });

    const refusedStarts: [string, string, Record<string, string>, number, RegExp][] = [
      ['an unknown profile', 'conform', { profile: 'nightly' }, 400, /profile must be one of gate, full, strict/],
      ['a glob with a slash', 'conform', { only: 'REST/../x' }, 400, /only must be a list of rule ids or globs/],
      [
        'a load of 0 seconds',
        'load',
        { scenario: 'invoices', durationSeconds: '0' },
        400,
        /durationSeconds must be a whole number from 1 to 600/,
      ],
      [
        'a load of 2.5 seconds',
        'load',
        { scenario: 'invoices', durationSeconds: '2.5' },
        400,
        /durationSeconds must be a whole number/,
      ],
      ['a load without scenario', 'load', { durationSeconds: '5' }, 400, /scenario is required/],
      ['a start without the CSRF token', 'conform', { token: '' }, 403, CSRF_REFUSED],
    ];
    it.each(refusedStarts)('refuses %s on the target page, queueing nothing', async (_n, kind, fields, status, msg) => {
      const before = JSON.parse((await get('/api/v1/live-runs')).body).liveRuns.length;
      const { res, body } = await post(`/saved-targets/${id}/${kind}`, { token: TOKEN, ...fields });
      expect(res.status).toBe(status);
      expect(body).toMatch(/<h1>Saved target Test ERP<\/h1>/);
      expect(body).toMatch(msg);
      expect(JSON.parse((await get('/api/v1/live-runs')).body).liveRuns.length).toBe(before);
    });

    it('cancels a queued run from its page; a second cancel says it has ended', async () => {
      const started = await post(`/saved-targets/${id}/conform`, { profile: 'gate', token: TOKEN });
      const job = idOf(started.location, 'live-runs');
      const refused = await post(`/live-runs/${job}/cancel`, { token: 'nope' });
      expect(refused.res.status).toBe(403);
      const byViewer = await post(`/live-runs/${job}/cancel`, { token: TOKEN }, {}, 'viewer');
      expect(byViewer.res.status).toBe(403);
      expect(byViewer.body).toMatch(/may not start, cancel or rerun live runs/);
      expect((await post(`/live-runs/${job}/cancel`, { token: TOKEN }, {}, 'outsider')).res.status).toBe(404);
      expect(JSON.parse((await get(`/api/v1/live-runs/${job}`)).body).state).toBe('queued');
      const cancelled = await post(`/live-runs/${job}/cancel`, { token: TOKEN });
      expect(cancelled.res.status).toBe(303);
      expect(cancelled.location).toBe(`/live-runs/${job}`);
      const { res, body } = await get(cancelled.location);
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP); // ended: no script
      expect(body).toContain('<strong data-live-state="">cancelled</strong>');
      expect(body).not.toContain('data-live-cancel');
      const again = await post(`/live-runs/${job}/cancel`, { token: TOKEN });
      expect(again.res.status).toBe(409);
      expect(again.body).toMatch(/has ended \(cancelled\): there is nothing to cancel/);
    });
  });

  describe('rerun from a run', () => {
    let target = 0;
    beforeAll(async () => {
      // the fixture's ERP target, known from its runs, saved now: its runs can be rerun
      const saved = await post('/saved-targets', { url: ERP_URL, token: TOKEN });
      target = idOf(saved.location, 'saved-targets');
      expect(target).toBe(f.erpTarget);
    });

    it('the run page has the rerun form (every FAIL) and a rerun button per area; the rule page one for the rule', async () => {
      const { body } = await get(`/runs/${f.first}`);
      expect(body).toContain(`<form class="stack" method="post" action="/runs/${f.first}/rerun" id="rerun-form"`);
      expect(body).toContain('<button type="submit" name="fails" value="1">Rerun every FAIL (1)</button>');
      expect(body).toContain(
        '<button type="submit" form="rerun-form" name="area" value="REST.VERSION">Rerun<span class="sr"> the area REST.VERSION</span></button>',
      );
      const rule = await get(`/runs/${f.first}/rules/REST.VERSION.SYSTEMVERSION`);
      expect(rule.body).toContain('<input type="hidden" name="rule" value="REST.VERSION.SYSTEMVERSION">');
      expect(rule.body).toContain('<button type="submit">Rerun this rule</button>');
    });

    const reruns: [string, Record<string, string>, string[]][] = [
      ['one rule', { rule: 'REST.VERSION.PATH' }, ['REST.VERSION.PATH']],
      ['one area', { area: 'REST.VERSION' }, ['REST.VERSION.*']],
      [
        'every FAIL',
        { fails: '1' },
        Object.entries(FIRST_VERDICTS)
          .filter(([, v]) => v === 'FAIL')
          .map(([r]) => r),
      ],
    ];
    it.each(reruns)(
      'reruns %s: 303 to a live run whose page says "rerun of #N" with a link',
      async (_n, what, only) => {
        const { res, location } = await post(`/runs/${f.first}/rerun`, { ...what, token: TOKEN });
        expect(res.status).toBe(303);
        const job = idOf(location, 'live-runs');
        const api = JSON.parse((await get(`/api/v1/live-runs/${job}`)).body);
        expect(api).toMatchObject({ targetId: target, parentRunId: f.first, settings: { kind: 'conformance', only } });
        const { body } = await get(location);
        expect(body).toContain(`(rerun of <a href="/runs/${f.first}">#${f.first}</a>)`);
      },
    );

    const refusedReruns: [string, () => string, Record<string, string>, number, RegExp][] = [
      ['nothing said', () => `/runs/${f.first}/rerun`, { token: TOKEN }, 400, /say what to rerun/],
      [
        'a run of a target that is not saved',
        () => `/runs/${f.hostile}/rerun`,
        { fails: '1', token: TOKEN },
        409,
        /not saved in the hub/,
      ],
      ['a load run', () => `/runs/${f.loads[0]}/rerun`, { fails: '1', token: TOKEN }, 409, /is a load run/],
      [
        'a run that is not there',
        () => '/runs/999999/rerun',
        { fails: '1', token: TOKEN },
        404,
        /there is no run 999999/,
      ],
      ['a wrong CSRF token', () => `/runs/${f.first}/rerun`, { fails: '1', token: 'nope' }, 403, CSRF_REFUSED],
      ['another site', () => `/runs/${f.first}/rerun`, { fails: '1', token: TOKEN }, 403, /another site/],
      ['a viewer', () => `/runs/${f.first}/rerun`, { fails: '1', token: TOKEN }, 403, /may not start, cancel or rerun/],
      [
        "another organisation's admin",
        () => `/runs/${f.first}/rerun`,
        { fails: '1', token: TOKEN },
        404,
        /there is no run/,
      ],
    ];
    it.each(refusedReruns)('refuses %s with a page that says why', async (name, path, fields, status, msg) => {
      const before = JSON.parse((await get('/api/v1/live-runs')).body).liveRuns.length;
      const { res, body } = await post(
        path(),
        fields,
        name === 'another site' ? { 'sec-fetch-site': 'cross-site' } : {},
        name === 'a viewer' ? 'viewer' : name === "another organisation's admin" ? 'outsider' : 'engineer',
      );
      expect(res.status).toBe(status);
      expect(body).toMatch(msg);
      expect(JSON.parse((await get('/api/v1/live-runs')).body).liveRuns.length).toBe(before);
    });

    it("a saved target's history links its page, where runs start; another target's does not", async () => {
      expect((await get(`/targets/${target}`)).body).toContain(`<a href="/saved-targets/${target}">Start a run</a>`);
      expect((await get(`/targets/${f.hostileTarget}`)).body).not.toContain('Start a run');
    });

    it('a run of a target that is not saved says so instead of a rerun form', async () => {
      const { body } = await get(`/runs/${f.hostile}`);
      expect(body).not.toContain('id="rerun-form"');
      expect(body).toMatch(/<p class="muted" id="rerun-note">Rerun: its target is not saved in the hub/);
    });

    it('a stored rerun links the comparison with its parent', async () => {
      const child = await ingestFiles(
        t.store,
        conformanceFolderFiles(sampleConformance({ url: ERP_URL, embedded: false, runTag: 'RERUN1' })),
        { parentRunId: f.first, status: 'done' },
      );
      const { body } = await get(`/runs/${child.run.id}`);
      expect(body).toContain(
        `<a href="/compare?a=${f.first}&amp;b=${child.run.id}">Compare with its parent run #${f.first}</a>`,
      );
    });
  });

  it('no page showed the planted password', () => {
    expect(pages.length).toBeGreaterThan(20);
    for (const p of pages) expect(p).not.toContain(PASSWORD);
  });
});
