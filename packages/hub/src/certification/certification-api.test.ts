import { readFileSync } from 'node:fs';
import { type OpenApiDocument, validateJsonBody } from '@erpcert/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { HUB_OPENAPI } from '../api/openapi-document.js';
import { type CertificationApp, certificationApp, type Person } from '../testing/certification-app.js';
import { HOSTILE_NAME } from '../testing/certification-fixture.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';
import { CERTIFICATION_ACCESS } from './access.js';
import { certificationApi } from './certification-api.js';
import { certificationPages } from './certification-page-routes.js';
import { FROZEN_MESSAGE } from './frozen-runs.js';

const openapi = parse(readFileSync(HUB_OPENAPI, 'utf8')) as OpenApiDocument;
const pointerSegment = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The answer's JSON is what hub.openapi.yaml says of this path, method and status. */
function expectDescribed(path: string, method: string, status: number, body: unknown) {
  const declared = (openapi.paths as Record<string, Record<string, { responses: Record<string, { $ref?: string }> }>>)[
    path
  ]?.[method]?.responses[String(status)];
  expect(declared, `${method} ${path} ${status} is not in hub.openapi.yaml`).toBeDefined();
  const pointer = declared?.$ref
    ? '#/components/schemas/Error'
    : `#/paths/${pointerSegment(path)}/${method}/responses/${status}/content/application~1json/schema`;
  expect(validateJsonBody(openapi, pointer, body).errors).toEqual([]);
}

const json = (body: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });

describe('the certification routes and their access rows', () => {
  it('every route the routers hold has exactly one row, and every row is a route', async () => {
    const t = await freshStore('sqlite');
    try {
      const h = await certificationApp(t.store);
      const registered = [...certificationApi(h.services).routes, ...certificationPages(h.services).routes]
        .filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path}`);
      expect(new Set(registered).size).toBe(registered.length);
      expect([...registered].sort()).toEqual(Object.keys(CERTIFICATION_ACCESS).sort());
    } finally {
      await t.dispose();
    }
  });
});

describe.each(testDialects)('certification through the API on %s', (dialect) => {
  let t: TestStore;
  let h: CertificationApp;
  beforeEach(async () => {
    t = await freshStore(dialect);
    h = await certificationApp(t.store);
  });
  afterEach(async () => t.dispose());

  const call = (person: Person | undefined, method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = person ? h.as(person) : {};
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      const j = json(body);
      init.headers = { ...headers, 'content-type': j['content-type'] };
      init.body = j.body;
    }
    return h.app.request(path, init);
  };

  const submit = (person: Person | undefined, runId: number) =>
    call(person, 'POST', `/api/v1/runs/${runId}/submissions`, { certifier: 'certbody' });

  it('submitting: who may, and an unsigned run refused with how to sign it', async () => {
    const { signed, unsigned } = h.fixture;
    const cases: [string, Person | undefined, number, number][] = [
      ['nobody', undefined, signed.id, 401],
      ['a viewer of the vendor', 'viewer', signed.id, 403],
      ['another organisation', 'outsider', signed.id, 404],
      ['the certifier (not of the run)', 'certifier', signed.id, 404],
      ['unsigned', 'engineer', unsigned.id, 400],
    ];
    for (const [name, person, runId, status] of cases) {
      const res = await submit(person, runId);
      expect([name, res.status]).toEqual([name, status]);
    }
    const unsignedAnswer = (await (await submit('engineer', unsigned.id)).json()) as { error: string };
    expectDescribed('/runs/{id}/submissions', 'post', 400, unsignedAnswer);
    expect(unsignedAnswer.error).toContain('erpcert certify');
    const res = await submit('engineer', signed.id);
    expect(res.status).toBe(201);
    const created = await res.json();
    expectDescribed('/runs/{id}/submissions', 'post', 201, created);
    const { submission } = created as { submission: { id: number; state: string } };
    expect(submission.state).toBe('submitted');
    expect(res.headers.get('location')).toBe(`/api/v1/submissions/${submission.id}`);
    const audit = await h.auth.audit.list(h.fixture.vendor);
    expect(audit.map((e) => [e.action, e.subject])).toContainEqual(['submit', `run ${signed.id}`]);
  });

  it("a token never deletes, relabels, shares or submits a run, whatever its scopes: that is a person's act", async () => {
    const { secret } = await h.auth.tokens.create({
      organisationId: h.fixture.vendor,
      name: 'ci',
      scopes: ['publish', 'read', 'run'],
      days: 1,
      createdBy: null,
    });
    const { link } = await h.services.shares.create({
      runId: h.fixture.unsigned.id,
      organisationId: h.fixture.vendor,
      days: 1,
      createdBy: 'test',
    });
    const bearer = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const attempts: [string, string, unknown][] = [
      ['DELETE', `/api/v1/runs/${h.fixture.unsigned.id}`, undefined],
      ['PATCH', `/api/v1/runs/${h.fixture.unsigned.id}`, { label: 'by a token' }],
      ['POST', `/api/v1/runs/${h.fixture.unsigned.id}/share-links`, { days: 2 }],
      ['DELETE', `/api/v1/share-links/${link.id}`, undefined],
      ['POST', `/api/v1/runs/${h.fixture.signed.id}/submissions`, { certifier: 'certbody' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await h.app.request(path, {
        method,
        headers: bearer,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(((await res.json()) as { error: string }).error).toContain('delete, relabel, share or submit runs');
    }
    expect((await t.store.run(h.fixture.unsigned.id))?.label).toBeNull();
    expect((await h.services.shares.list(h.fixture.unsigned.id)).map((l) => l.revokedAt)).toEqual([null]);
    expect(await h.services.certification.submissions({ by: [h.fixture.vendor] })).toEqual([]);
  });

  it('a state-changing request by a browser without its CSRF token is refused', async () => {
    const { cookie } = h.as('engineer');
    const res = await h.app.request(`/api/v1/runs/${h.fixture.signed.id}/submissions`, {
      method: 'POST',
      headers: { cookie: cookie ?? '', 'content-type': 'application/json' },
      body: json({ certifier: 'certbody' }).body,
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toMatch(/CSRF/);
    expect(await h.services.certification.submissions({ by: [h.fixture.vendor] })).toEqual([]);
  });

  it('the certifier lists, sees the signature verified now, and certifies; the run is then frozen', async () => {
    const { signed } = h.fixture;
    const { submission } = (await (await submit('engineer', signed.id)).json()) as { submission: { id: number } };
    const inbox = (await (await call('certifier', 'GET', '/api/v1/submissions')).json()) as {
      submissions: { id: number }[];
    };
    expect(inbox.submissions.map((s) => s.id)).toEqual([submission.id]);
    expect(
      ((await (await call('outsider', 'GET', '/api/v1/submissions')).json()) as { submissions: unknown[] }).submissions,
    ).toEqual([]);
    const detail = (await (await call('certifier', 'GET', `/api/v1/submissions/${submission.id}`)).json()) as {
      signature: { status: string; text: string };
    };
    expect(detail.signature.status).toBe('verified');
    expectDescribed('/submissions/{id}', 'get', 200, detail);
    expectDescribed('/submissions', 'get', 200, inbox);
    expect(detail.signature.text).toMatch(/^verified, key sha256:/);

    // the certifier reviews the run read-only through the submission; another organisation cannot
    const reviewRun = await call('certifier', 'GET', `/submissions/${submission.id}/run`);
    expect(reviewRun.status).toBe(200);
    const reviewText = await reviewRun.text();
    expect(reviewText).toContain(`href="/submissions/${submission.id}/run/rules/`);
    expect(reviewText).not.toContain(`href="/runs/${signed.id}`);
    expect((await call('certifier', 'GET', `/submissions/${submission.id}/run/files/results.json`)).status).toBe(200);
    expect((await call('outsider', 'GET', `/submissions/${submission.id}/run`)).status).toBe(404);
    expect((await call(undefined, 'GET', `/submissions/${submission.id}/run`)).status).toBe(401);

    const decide = (person: Person, body: unknown) =>
      call(person, 'POST', `/api/v1/submissions/${submission.id}/decision`, body);
    const refusals: [string, Person, unknown, number][] = [
      ['the vendor decides its own', 'engineer', { decision: 'certified', note: 'x' }, 404],
      ['the body admin is no certifier', 'bodyAdmin', { decision: 'certified', note: 'x' }, 403],
      ['no note', 'certifier', { decision: 'certified' }, 400],
      ['no decision', 'certifier', { decision: 'maybe', note: 'x' }, 400],
    ];
    for (const [name, person, body, status] of refusals)
      expect([name, (await decide(person, body)).status]).toEqual([name, status]);

    const ok = await decide('certifier', { decision: 'certified', note: 'All judged rules reviewed.' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { submission: { state: string } }).submission.state).toBe('certified');
    expect((await decide('certifier', { decision: 'rejected', note: 'late' })).status).toBe(409);

    // frozen: every mutating route answers 409 naming the rule; the unsigned run still changes
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { label: 'renamed' }],
      ['PATCH', { build: 'v9' }],
    ] as const) {
      const res = await call('engineer', method, `/api/v1/runs/${signed.id}`, body);
      expect([method, res.status]).toEqual([method, 409]);
      expect(((await res.json()) as { error: string }).error).toContain(FROZEN_MESSAGE);
    }
    expect((await submit('engineer', signed.id)).status).toBe(409);
    expect((await call('engineer', 'PATCH', `/api/v1/runs/${h.fixture.unsigned.id}`, { label: 'x' })).status).toBe(200);
    expect((await call('engineer', 'DELETE', `/api/v1/runs/${h.fixture.unsigned.id}`)).status).toBe(204);
    const audit = await h.auth.audit.list(h.fixture.body);
    expect(audit.map((e) => [e.action, e.detail?.decision])).toContainEqual(['certify', 'certified']);

    // public: the list, the page, the badge, the read-only report
    const pub = (await (await call(undefined, 'GET', '/api/v1/certified')).json()) as {
      certified: { runId: number; name: string; reportUrl: string; badgeUrl: string }[];
    };
    expect(pub.certified.map((c) => [c.runId, c.name])).toEqual([[signed.id, HOSTILE_NAME]]);
    expectDescribed('/certified', 'get', 200, pub);
    const [entry] = pub.certified;
    expect(entry?.badgeUrl).toBe(`/badges/vendor/${signed.targetId}.svg`);
    const page = await call(undefined, 'GET', '/certified/implementations');
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).not.toContain('<script>alert(1)');
    expect(text).toContain('ERP &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;');
    expect(text).toContain(`href="/certified/runs/${signed.id}"`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
    const badge = await call(undefined, 'GET', entry?.badgeUrl ?? '');
    const svg = await badge.text();
    expect([badge.status, badge.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    expect(badge.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(svg).toContain('certified v2.4.1');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('ERP &lt;script&gt;');
    const absent = await call(undefined, 'GET', `/badges/outsider/${signed.targetId}.svg`);
    expect([absent.status, (await absent.text()).includes('not certified')]).toEqual([404, true]);
    const report = await call(undefined, 'GET', `/certified/runs/${signed.id}`);
    expect(report.status).toBe(200);
    const reportText = await report.text();
    expect(reportText).toContain('A read-only report');
    expect(reportText).toContain(`href="/certified/runs/${signed.id}/rules/`);
    expect((await call(undefined, 'GET', `/certified/runs/${h.fixture.load.id}`)).status).toBe(404);
  });

  it("a certified run's read-only pages name its target as it was certified, whatever the target is called now", async () => {
    const { signed } = h.fixture;
    const { submission } = (await (await submit('engineer', signed.id)).json()) as { submission: { id: number } };
    const decided = await call('certifier', 'POST', `/api/v1/submissions/${submission.id}/decision`, {
      decision: 'certified',
      note: 'ok',
    });
    expect(decided.status).toBe(200);
    const { url } = (await (await call('engineer', 'POST', `/api/v1/runs/${signed.id}/share-links`, {})).json()) as {
      url: string;
    };
    // the hub refuses the rename (live/saved-targets.ts); a row renamed behind its back must not show either
    await t.store.db.updateTable('targets').set({ name: 'Renamed later' }).where('id', '=', signed.targetId).execute();
    const frozenName = 'ERP &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;co&quot;';
    for (const [who, path] of [
      [undefined, `/certified/runs/${signed.id}`],
      [undefined, url],
      ['certifier', `/submissions/${submission.id}/run`],
    ] as const) {
      const res = await call(who, 'GET', path);
      const text = await res.text();
      expect([path, res.status, text.includes(frozenName), text.includes('Renamed later')]).toEqual([
        path,
        200,
        true,
        false,
      ]);
    }
  });

  it('a rejected run is not public, and its organisation sees the note', async () => {
    const { signed } = h.fixture;
    const { submission } = (await (await submit('engineer', signed.id)).json()) as { submission: { id: number } };
    const res = await call('certifier', 'POST', `/api/v1/submissions/${submission.id}/decision`, {
      decision: 'rejected',
      note: 'REST.VERSION.SYSTEMVERSION fails.',
    });
    expect(res.status).toBe(200);
    const mineBody = await (await call('viewer', 'GET', `/api/v1/runs/${signed.id}/submissions`)).json();
    expectDescribed('/runs/{id}/submissions', 'get', 200, mineBody);
    const mine = mineBody as {
      submissions: { state: string; note: string }[];
      certified: unknown;
    };
    expect(mine.submissions.map((s) => [s.state, s.note])).toEqual([['rejected', 'REST.VERSION.SYSTEMVERSION fails.']]);
    expect(mine.certified).toBeNull();
    expect((await call(undefined, 'GET', `/certified/runs/${signed.id}`)).status).toBe(404);
  });

  it('a share link opens one run read-only without an account, until it expires or is revoked', async () => {
    const run = h.fixture.unsigned;
    expect((await call('viewer', 'POST', `/api/v1/runs/${run.id}/share-links`, { days: 2 })).status).toBe(403);
    expect((await call('engineer', 'POST', `/api/v1/runs/${run.id}/share-links`, { days: 365 })).status).toBe(400);
    const made = await call('engineer', 'POST', `/api/v1/runs/${run.id}/share-links`, { days: 2 });
    expect(made.status).toBe(201);
    const madeBody = await made.json();
    expectDescribed('/runs/{id}/share-links', 'post', 201, madeBody);
    const { url, link } = madeBody as { url: string; link: { id: number; expiresAt: string } };
    expect(url).toMatch(/^\/s\/ehr_[A-Za-z0-9_-]{43}$/);
    expect(link.expiresAt).toBe('2026-11-29T12:00:00.000Z');
    const token = url.slice(3);
    // stored hashed: the token is nowhere in the database's share links, nor in the audit log
    const stored = JSON.stringify(await t.store.db.selectFrom('share_links').selectAll().execute());
    expect(stored).not.toContain(token);
    expect(await h.auth.audit.raw()).not.toContain(token);
    // the list never shows it again
    expect(await (await call('engineer', 'GET', `/api/v1/runs/${run.id}/share-links`)).text()).not.toContain(token);

    const page = await call(undefined, 'GET', url);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(`Run #${run.id}`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // every link of the page stays inside the share link (or is the stylesheet)
    const hrefs = [...text.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.length).toBeGreaterThan(3);
    expect(hrefs.filter((x) => !x.startsWith(`${url}`) && x !== '/assets/hub.css' && !x.startsWith('#'))).toEqual([]);
    const ruleHref = hrefs.find((x) => x.includes('/rules/')) ?? '';
    expect((await call(undefined, 'GET', ruleHref)).status).toBe(200);
    const fileRes = await call(undefined, 'GET', `${url}/files/results.json`);
    expect(fileRes.status).toBe(200);
    expect(fileRes.headers.get('content-security-policy')).toMatch(/^sandbox/);
    expect((await call(undefined, 'GET', `${url}/files/nothing.txt`)).status).toBe(404);
    // no account: the run's certification page stays closed
    expect((await call(undefined, 'GET', `/runs/${run.id}/certification`)).status).toBe(401);

    h.advance(2 * 86_400_000);
    const expired = await call(undefined, 'GET', url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('expired');
    expect((await call(undefined, 'GET', `${url}/files/results.json`)).status).toBe(410);
    expect((await call(undefined, 'GET', '/s/ehr_unknown')).status).toBe(404);
  });

  it('a revoked share link is gone at once', async () => {
    const run = h.fixture.unsigned;
    const { url, link } = (await (await call('engineer', 'POST', `/api/v1/runs/${run.id}/share-links`, {})).json()) as {
      url: string;
      link: { id: number };
    };
    expect((await call(undefined, 'GET', url)).status).toBe(200);
    expect((await call('outsider', 'DELETE', `/api/v1/share-links/${link.id}`)).status).toBe(404);
    expect((await call('viewer', 'DELETE', `/api/v1/share-links/${link.id}`)).status).toBe(403);
    expect((await call('engineer', 'DELETE', `/api/v1/share-links/${link.id}`)).status).toBe(200);
    const gone = await call(undefined, 'GET', url);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('revoked');
  });

  it("the pages' forms: refused without the session's CSRF token or from another site, taken with it", async () => {
    const runId = h.fixture.signed.id;
    const { cookie, 'x-csrf-token': csrf } = h.as('engineer');
    const post = (body: string, headers: Record<string, string> = {}) =>
      h.app.request(`/runs/${runId}/certification/submit`, {
        method: 'POST',
        headers: { cookie: cookie ?? '', 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    const noToken = await post('certifier=certbody');
    expect(noToken.status).toBe(403);
    expect(noToken.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await noToken.text()).toContain('CSRF');
    const crossSite = await post(`certifier=certbody&csrf=${csrf}`, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await h.services.certification.submissions({ by: [h.fixture.vendor] })).toEqual([]);
    const ok = await post(`certifier=certbody&csrf=${csrf}`);
    expect([ok.status, ok.headers.get('location')]).toEqual([303, `/runs/${runId}/certification`]);
    const page = await h.app.request(`/runs/${runId}/certification`, { headers: { cookie: cookie ?? '' } });
    expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(await page.text()).toContain('submitted');
    // the run's own page leads there
    const runPage = await (await h.app.request(`/runs/${runId}`, { headers: { cookie: cookie ?? '' } })).text();
    expect(runPage).toContain(`href="/runs/${runId}/certification"`);
  });

  it("a share link's page that fails logs the route, never the link's token", async () => {
    const lines: string[] = [];
    const t2 = await freshStore(dialect);
    const own = await certificationApp(t2.store, undefined, (line) => lines.push(line));
    const run = own.fixture.unsigned;
    const made = await own.app.request(`/api/v1/runs/${run.id}/share-links`, {
      method: 'POST',
      headers: own.as('engineer'),
    });
    const { url } = (await made.json()) as { url: string };
    t2.store.files = async () => {
      throw new Error('the disk is gone');
    };
    try {
      const res = await own.app.request(url);
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('the disk is gone');
    } finally {
      await t2.dispose();
    }
    expect(lines.join('\n')).toContain('GET /s/:token failed');
    expect(lines.join('\n')).not.toContain(url.slice(3));
  });
});
