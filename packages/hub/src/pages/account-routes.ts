/**
 * The account pages' routes: sign in by password or one-time link, sign out (here, everywhere), set a password,
 * the organisations list, an organisation's members and tokens (its admin's), its audit log; for a hub admin, every
 * organisation, a new one, making one a certifying body (the forms go through `pageWrite`), and the hub-wide audit
 * log. Every POST but the two sign-ins passes the CSRF check (`checkedForm`, or `pageWrite`); the sign-ins pass the
 * origin check.
 */
import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, intParam } from '../api/api-error.js';
import { checkedForm, crossSite } from '../auth/csrf.js';
import { HubAdmin, hubAdminOf } from '../auth/hub-admin.js';
import type { HubAuth } from '../auth/hub-auth.js';
import { OrgAdmin, signedInUser } from '../auth/org-admin.js';
import { clientAddress, sessionCookieName } from '../auth/request-auth.js';
import { clearSessionCookie, recordForUser, signInWithLink, signInWithPassword } from '../auth/sign-in.js';
import {
  accountPage,
  auditPage,
  hubAuditPage,
  linkPage,
  type OrganisationView,
  organisationPage,
  organisationsPage,
  signInPage,
} from './account-pages.js';
import { href } from './html.js';
import { type HubOrganisationsView, hubOrganisationsPage } from './hub-organisations-page.js';
import { pageWrite } from './page-write.js';

/** Where to go after signing in: a path of this hub only (never `//host` or another scheme). */
export function localNext(raw: unknown): string {
  return typeof raw === 'string' && /^\/(?![/\\])[^\s]*$/.test(raw) ? raw : '/';
}

const text = (f: FormData, name: string) => {
  const v = f.get(name);
  return typeof v === 'string' ? v : undefined;
};

export function accountRoutes(auth: HubAuth, o: { readonly oidc?: boolean } = {}): Hono {
  const app = new Hono();
  const orgId = (raw: string | undefined) => intParam(raw, 'the organisation id');
  const admin = new OrgAdmin(auth);
  const hub = new HubAdmin(auth);

  app.get('/sign-in', (c) => c.html(signInPage({ next: localNext(c.req.query('next')), oidc: o.oidc }).text));
  app.post('/sign-in', async (c) => {
    const cross = crossSite(c);
    if (cross) return c.html(signInPage({ error: cross, oidc: o.oidc }).text, 403);
    const f = await c.req.formData();
    const next = localNext(text(f, 'next'));
    try {
      await signInWithPassword(auth, c, text(f, 'email'), text(f, 'password'));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.html(
        signInPage({ error: err.message, email: text(f, 'email'), next, oidc: o.oidc }).text,
        err.status as ContentfulStatusCode,
      );
    }
    return c.redirect(next, 303);
  });

  app.get('/sign-in/link', (c) => c.html(linkPage({ token: c.req.query('token') ?? '' }).text));
  app.post('/sign-in/link', async (c) => {
    const cross = crossSite(c);
    if (cross) return c.html(linkPage({ token: '', error: cross }).text, 403);
    const f = await c.req.formData();
    try {
      await signInWithLink(auth, c, text(f, 'token'));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return c.html(linkPage({ token: '', error: err.message }).text, err.status as ContentfulStatusCode);
    }
    return c.redirect('/account', 303);
  });

  app.post('/sign-out', async (c) => {
    await checkedForm(c);
    const u = signedInUser(c);
    const secret = getCookie(c, sessionCookieName(c, auth.trustProxy));
    if (secret) await auth.sessions.close(secret);
    clearSessionCookie(auth, c);
    await recordForUser(auth, u.userId, { actor: u, action: 'sign-out', address: clientAddress(c, auth.trustProxy) });
    return c.redirect('/sign-in', 303);
  });
  app.post('/sign-out-everywhere', async (c) => {
    await checkedForm(c);
    const u = signedInUser(c);
    const n = await auth.sessions.closeAll(u.userId);
    clearSessionCookie(auth, c);
    await recordForUser(auth, u.userId, {
      actor: u,
      action: 'sign-out-everywhere',
      subject: `${n} session(s)`,
      address: clientAddress(c, auth.trustProxy),
    });
    return c.redirect('/sign-in', 303);
  });

  const account = async (c: Context, extra: { message?: string; error?: string }) => {
    const u = signedInUser(c);
    const user = await auth.accounts.user(u.userId);
    return accountPage({
      email: u.email,
      memberships: u.memberships,
      hasPassword: user?.hasPassword ?? false,
      ...extra,
    });
  };
  app.get('/account', async (c) => c.html((await account(c, {})).text));
  app.post('/account/password', async (c) => {
    const f = await checkedForm(c);
    const u = signedInUser(c);
    try {
      await auth.accounts.setPassword(u.userId, text(f, 'password') ?? '');
    } catch (err) {
      return c.html((await account(c, { error: (err as Error).message })).text, 400);
    }
    await recordForUser(auth, u.userId, {
      actor: u,
      action: 'change-password',
      address: clientAddress(c, auth.trustProxy),
    });
    return c.html((await account(c, { message: 'Your password is saved.' })).text);
  });

  /** The organisations page: a hub admin's (every organisation, the forms), else the user's own organisations. */
  const organisations = async (
    c: Context,
    extra: Omit<HubOrganisationsView, 'organisations' | 'memberships'> = {},
    status: ContentfulStatusCode = 200,
  ) => {
    const u = signedInUser(c);
    if (!u.hubAdmin) {
      const page = organisationsPage(u.memberships, extra.error);
      return c.html(page.text, status);
    }
    // memberships as they are now (a new organisation's first admin may be the hub admin)
    const memberships = await auth.accounts.memberships(u.userId);
    const all = await auth.accounts.allOrganisations();
    return c.html(hubOrganisationsPage({ organisations: all, memberships, ...extra }).text, status);
  };
  app.get('/organisations', (c) => organisations(c));
  app.post('/organisations', async (c) => {
    const { form, refusal } = await pageWrite(c, { hubAdmin: true });
    const typed = {
      slug: form.text('slug'),
      name: form.text('name'),
      adminEmail: form.text('adminEmail'),
      certifyingBody: form.text('certifyingBody') === 'yes',
    };
    if (refusal) return organisations(c, { error: refusal.message }, refusal.status);
    try {
      const made = await hub.create(c, typed);
      const what = `${made.organisation.name} (${made.organisation.slug}) is made${
        made.organisation.certifyingBody ? ', a certifying body' : ''
      }; its first admin is ${made.admin.email}.`;
      if (!made.signInLink) return organisations(c, { message: what }, 201);
      return organisations(
        c,
        {
          message: `${what} They are new to the hub: give them this one-time sign-in link (valid 24 hours).`,
          shownOnce: new URL(made.signInLink, c.req.url).toString(),
        },
        201,
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return organisations(c, { error: err.message, form: typed }, err.status as ContentfulStatusCode);
    }
  });
  app.post('/organisations/:org/certifying-body', async (c) => {
    const org = orgId(c.req.param('org'));
    const { form, refusal } = await pageWrite(c, { hubAdmin: true });
    if (refusal) return organisations(c, { error: refusal.message }, refusal.status);
    const on = form.text('certifyingBody');
    try {
      await hub.setCertifyingBody(c, org, on === 'yes' ? true : on === 'no' ? false : on);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return organisations(c, { error: err.message }, err.status as ContentfulStatusCode);
    }
    return c.redirect('/organisations', 303);
  });

  const orgPage = async (c: Context, org: number, extra: Pick<OrganisationView, 'shownOnce' | 'error'> = {}) => {
    admin.check(c, 'manage-members', org);
    const o = await auth.accounts.organisation(org);
    return organisationPage({
      id: org,
      name: o?.name ?? `organisation ${org}`,
      members: await auth.accounts.members(org),
      tokens: await auth.tokens.list(org),
      ...extra,
    });
  };
  /** Runs a form's action; a refusal shows the page again with the message and its status. */
  const act = async (
    c: Context,
    run: (f: FormData, org: number) => Promise<OrganisationView['shownOnce'] | 'redirect'>,
  ) => {
    const org = orgId(c.req.param('org'));
    const f = await checkedForm(c);
    admin.check(c, 'manage-members', org);
    try {
      const shown = await run(f, org);
      if (shown === 'redirect') return c.redirect(href(['organisations', org]), 303);
      return c.html((await orgPage(c, org, { shownOnce: shown })).text, 201);
    } catch (err) {
      if (!(err instanceof ApiError) && !(err instanceof Error && 'status' in err)) throw err;
      const status = (err as { status: number }).status as ContentfulStatusCode;
      if (status === 404 && !(await auth.accounts.organisation(org))) throw err;
      return c.html((await orgPage(c, org, { error: (err as Error).message })).text, status);
    }
  };

  app.get('/organisations/:org', async (c) => c.html((await orgPage(c, orgId(c.req.param('org')))).text));
  app.post('/organisations/:org/members', (c) =>
    act(c, async (f, org) => {
      const made = await admin.addMember(c, org, text(f, 'email'), text(f, 'role'));
      if (!made.signInLink) return 'redirect';
      return {
        what: `${made.member.email} is new to the hub: give them this one-time sign-in link (valid 24 hours).`,
        value: new URL(made.signInLink, c.req.url).toString(),
      };
    }),
  );
  app.post('/organisations/:org/members/:user', (c) =>
    act(c, async (f, org) => {
      await admin.changeRole(c, org, intParam(c.req.param('user'), 'the user id'), text(f, 'role'));
      return 'redirect';
    }),
  );
  app.post('/organisations/:org/members/:user/remove', (c) =>
    act(c, async (_f, org) => {
      await admin.removeMember(c, org, intParam(c.req.param('user'), 'the user id'));
      return 'redirect';
    }),
  );
  app.post('/organisations/:org/tokens', (c) =>
    act(c, async (f, org) => {
      const scopes = f.getAll('scopes').filter((s): s is string => typeof s === 'string');
      const made = await admin.createToken(c, org, text(f, 'name'), scopes, text(f, 'days'));
      return { what: `The token ${made.token.name} (${made.token.scopes.join(', ')}):`, value: made.secret };
    }),
  );
  app.post('/organisations/:org/tokens/:token/revoke', (c) =>
    act(c, async (_f, org) => {
      await admin.revokeToken(c, org, intParam(c.req.param('token'), 'the token id'));
      return 'redirect';
    }),
  );

  app.get('/organisations/:org/audit', async (c) => {
    const org = orgId(c.req.param('org'));
    admin.check(c, 'read-audit', org);
    const o = await auth.accounts.organisation(org);
    const entries = await auth.audit.list(org, { limit: 200 });
    return c.html(auditPage({ id: org, name: o?.name ?? `organisation ${org}` }, entries).text);
  });
  app.get('/audit', async (c) => {
    hubAdminOf(c);
    return c.html(hubAuditPage(await auth.audit.listHubWide({ limit: 200 })).text);
  });

  return app;
}
