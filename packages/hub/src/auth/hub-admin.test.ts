/**
 * Hub admins over HTTP (in-process `app.request`): organisations made and made certifying bodies by the API and by
 * the /organisations page, each change audited; nobody else (an organisation admin, another role, a token, nobody)
 * may, and an organisation never makes itself a certifying body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { Certification } from '../certification/certification-store.js';
import { type AuthFixture, seedAuth, type Who } from '../testing/auth-fixture.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';

interface Made {
  organisation: { id: number; slug: string; name: string; certifyingBody: boolean; role: null | string };
  admin: { id: number; email: string };
  signInLink?: string;
}

describe.each(testDialects)('hub admins make organisations and certifying bodies (on %s)', (dialect) => {
  let t: TestStore;
  let fx: AuthFixture;
  let app: ReturnType<typeof createHubApp>;
  let bodies: Certification;

  beforeAll(async () => {
    t = await freshStore(dialect);
    fx = await seedAuth(t.store);
    app = createHubApp({ store: t.store, auth: fx.auth, log: () => {} });
    bodies = new Certification(t.store.db);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const api = (who: Who, method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { ...fx.headers(who), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const form = (who: Exclude<Who, `token-${string}` | 'anonymous'>, path: string, fields: Record<string, string>) => {
    const { cookie = '', 'x-csrf-token': csrf = '' } = fx.headers(who);
    return app.request(path, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, ...fields }),
    });
  };
  const slugs = async () => (await fx.auth.accounts.allOrganisations()).map((o) => o.slug);
  const audit = async (org: number) => (await fx.auth.audit.list(org)).map((e) => [e.action, e.actor, e.subject]);
  const isBody = async (id: number) => (await bodies.certifyingBodies()).some((b) => b.id === id);

  it('makes an organisation by the API: a new first admin gets a one-time link, a certifying body at once; audited', async () => {
    const res = await api('hub-admin', 'POST', '/organisations', {
      slug: 'acme',
      name: 'Acme certification',
      certifyingBody: true,
      adminEmail: 'Boss@Acme.example',
    });
    expect(res.status).toBe(201);
    const made = (await res.json()) as Made;
    expect(made.organisation).toMatchObject({ slug: 'acme', name: 'Acme certification', certifyingBody: true });
    expect(made.admin.email).toBe('boss@acme.example');
    expect(made.signInLink).toMatch(/^\/sign-in\/link\?token=ehl_/);
    const id = made.organisation.id;
    expect(await isBody(id)).toBe(true);
    // the link signs the new admin in, once; they are the organisation's admin, and no hub admin
    const secret = decodeURIComponent(made.signInLink?.split('token=')[1] ?? '');
    expect(await fx.auth.accounts.useSignInLink(secret)).toBe(made.admin.id);
    expect(await fx.auth.accounts.useSignInLink(secret)).toBeUndefined();
    expect((await fx.auth.accounts.members(id)).map((m) => [m.email, m.role, m.hubAdmin])).toEqual([
      ['boss@acme.example', 'admin', false],
    ]);
    const op = `user:${fx.users['hub-admin'].id} hub-admin@example.com`;
    expect(await audit(id)).toEqual([
      ['make-certifying-body', op, `organisation:${id} acme`],
      ['add-member', op, `user:${made.admin.id} boss@acme.example`],
      ['create-organisation', op, `organisation:${id} acme`],
    ]);
    // the secret of the link is in no entry
    expect(await fx.auth.audit.raw()).not.toContain(secret);
  });

  it('without an email makes the hub admin the first admin, and an existing user gets no link', async () => {
    const mine = (await (await api('hub-admin', 'POST', '/organisations', { slug: 'mine' })).json()) as Made;
    expect(mine.organisation).toMatchObject({ slug: 'mine', name: 'mine', certifyingBody: false });
    expect(mine.admin.id).toBe(fx.users['hub-admin'].id);
    expect(mine.signInLink).toBeUndefined();
    const theirs = await api('hub-admin', 'POST', '/organisations', {
      slug: 'theirs',
      name: 'Theirs',
      adminEmail: fx.users.viewer.email,
    });
    const made = (await theirs.json()) as Made;
    expect([theirs.status, made.admin.id, made.signInLink]).toEqual([201, fx.users.viewer.id, undefined]);
    expect(await isBody(made.organisation.id)).toBe(false);
  });

  const wrong: [string, Record<string, unknown>, 400 | 409, RegExp][] = [
    ['a taken slug', { slug: 'rival', name: 'Again' }, 409, /^slug: an organisation rival exists already/],
    ['no slug', { name: 'Nameless' }, 400, /^slug: /],
    ['an upper-case slug', { slug: 'Acme2' }, 400, /^slug: an organisation slug is lower-case/],
    ['a slug with a leading dash', { slug: '-x' }, 400, /^slug: /],
    ['an empty name', { slug: 'empty-name', name: ' ' }, 400, /^name: /],
    ['a name of 201 characters', { slug: 'long-name', name: 'n'.repeat(201) }, 400, /^name: /],
    ['certifyingBody as text', { slug: 'text-flag', certifyingBody: 'yes' }, 400, /^certifyingBody: /],
    ['an adminEmail that is none', { slug: 'bad-email', adminEmail: 'nobody' }, 400, /^adminEmail: /],
  ];
  it.each(wrong)('refuses %s, naming what is wrong, and makes nothing', async (_n, body, status, message) => {
    const before = await slugs();
    const res = await api('hub-admin', 'POST', '/organisations', body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toMatch(message);
    expect(await slugs()).toEqual(before);
  });

  it('lists every organisation to a hub admin (its role where it has one), its own to anyone else', async () => {
    const all = (await (await api('hub-admin', 'GET', '/organisations')).json()) as {
      organisations: Made['organisation'][];
    };
    expect(all.organisations.map((o) => [o.slug, o.role, o.certifyingBody])).toEqual(
      (await fx.auth.accounts.allOrganisations()).map((o) => [
        o.slug,
        o.slug === 'mine' ? 'admin' : null,
        o.certifyingBody,
      ]),
    );
    expect(all.organisations.map((o) => o.slug)).toEqual(expect.arrayContaining(['acme', 'default', 'rival']));
    const own = (await (await api('outsider', 'GET', '/organisations')).json()) as {
      organisations: Made['organisation'][];
    };
    expect(own.organisations.map((o) => [o.slug, o.role])).toEqual([['rival', 'admin']]);
  });

  it('makes an organisation a certifying body and stops it, audited once per change', async () => {
    const set = (on: unknown) => api('hub-admin', 'PATCH', `/organisations/${fx.rival}`, { certifyingBody: on });
    const on = await set(true);
    expect(on.status).toBe(200);
    expect(((await on.json()) as { organisation: Made['organisation'] }).organisation.certifyingBody).toBe(true);
    expect(await isBody(fx.rival)).toBe(true);
    expect((await set(true)).status).toBe(200);
    expect((await set(false)).status).toBe(200);
    expect(await isBody(fx.rival)).toBe(false);
    const flags = (await fx.auth.audit.list(fx.rival))
      .filter((e) => e.action === 'make-certifying-body')
      .map((e) => e.detail);
    expect(flags).toEqual([{ certifyingBody: false }, { certifyingBody: true }]);
    expect((await set('yes')).status).toBe(400);
    const renamed = await api('hub-admin', 'PATCH', `/organisations/${fx.rival}`, { name: 'x', certifyingBody: true });
    expect([renamed.status, await isBody(fx.rival)]).toEqual([400, false]);
    expect((await api('hub-admin', 'PATCH', '/organisations/9999', { certifyingBody: true })).status).toBe(404);
  });

  const nobodyElse: Who[] = ['admin', 'certifier', 'engineer', 'viewer', 'outsider', 'token-all', 'anonymous'];
  it.each(nobodyElse)('refuses %s: no organisation made, none made a certifying body', async (who) => {
    const before = await slugs();
    const made = await api(who, 'POST', '/organisations', { slug: `by-${who}`, certifyingBody: true });
    // the organisation's own admin (outsider: of rival) may not make it a certifying body
    const own = who === 'outsider' ? fx.rival : fx.org;
    const flag = await api(who, 'PATCH', `/organisations/${own}`, { certifyingBody: true });
    const status = who === 'anonymous' ? 401 : 403;
    expect([made.status, flag.status]).toEqual([status, status]);
    expect(await slugs()).toEqual(before);
    expect(await isBody(own)).toBe(false);
  });

  it('the page: a hub admin lists, makes (the link shown once) and flags organisations', async () => {
    const page = await app.request('/organisations', { headers: fx.headers('hub-admin') });
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).toContain('<form class="stack" method="post" action="/organisations">');
    // the navigation links to it for a hub admin (a member of no organisation)
    expect(text).toContain('<li><a href="/organisations" aria-current="page">Organisations</a></li>');
    expect(text).toMatch(/Acme certification <span class="muted">acme<\/span><\/td><td>yes/);

    const made = await form('hub-admin', '/organisations', {
      slug: 'page-made',
      name: 'Made on the page',
      adminEmail: 'first@page.example',
      certifyingBody: 'yes',
    });
    expect(made.status).toBe(201);
    const shown = await made.text();
    const link = /id="shown-once">([^<]+)</.exec(shown)?.[1] ?? '';
    expect(link).toMatch(/^http:\/\/localhost\/sign-in\/link\?token=ehl_/);
    const org = await fx.auth.accounts.organisationBySlug('page-made');
    expect(org?.name).toBe('Made on the page');
    expect(await isBody(org?.id ?? -1)).toBe(true);
    expect((await fx.auth.accounts.members(org?.id ?? -1)).map((m) => m.email)).toEqual(['first@page.example']);
    // shown once: the page again does not hold it
    expect(await (await app.request('/organisations', { headers: fx.headers('hub-admin') })).text()).not.toContain(
      link,
    );

    const off = await form('hub-admin', `/organisations/${org?.id}/certifying-body`, { certifyingBody: 'no' });
    expect([off.status, off.headers.get('location'), await isBody(org?.id ?? -1)]).toEqual([
      303,
      '/organisations',
      false,
    ]);

    const refused = await form('hub-admin', '/organisations', { slug: 'Bad Slug', name: 'Kept' });
    const again = await refused.text();
    expect(refused.status).toBe(400);
    expect(again).toMatch(/role="alert">slug: an organisation slug is lower-case/);
    // what was typed is shown again
    expect(again).toContain('value="Kept"');
    expect((await form('hub-admin', '/organisations', { slug: 'page-made', name: 'Twice' })).status).toBe(409);
  });

  it('the navigation links to /organisations for those who manage one: a hub admin, an org admin; not an engineer or a certifier', async () => {
    const linked = async (who: Who) =>
      (await (await app.request('/', { headers: fx.headers(who) })).text()).includes(
        '<li><a href="/organisations">Organisations</a></li>',
      );
    expect([
      await linked('hub-admin'),
      await linked('admin'),
      await linked('engineer'),
      await linked('certifier'),
    ]).toEqual([true, true, false, false]);
  });

  it('the page: an organisation admin sees its own organisations, no form, and its forged posts are refused', async () => {
    const text = await (await app.request('/organisations', { headers: fx.headers('admin') })).text();
    expect(text).not.toContain('action="/organisations"');
    expect(text).not.toContain('certifying-body');
    const before = await slugs();
    const made = await form('admin', '/organisations', { slug: 'by-admin-page', name: 'No' });
    expect(made.status).toBe(403);
    expect(await made.text()).toMatch(/only a hub admin makes organisations/);
    const flag = await form('admin', `/organisations/${fx.org}/certifying-body`, { certifyingBody: 'yes' });
    expect(flag.status).toBe(403);
    expect(await slugs()).toEqual(before);
    expect(await isBody(fx.org)).toBe(false);
    // the hub admin's form without the CSRF token is refused too
    const forged = await app.request('/organisations', {
      method: 'POST',
      headers: { cookie: fx.headers('hub-admin').cookie ?? '', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ slug: 'forged', name: 'Forged' }),
    });
    expect(forged.status).toBe(403);
    expect(await slugs()).toEqual(before);
  });
});
