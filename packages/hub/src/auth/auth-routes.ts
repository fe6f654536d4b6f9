/**
 * The API of accounts (under /api/v1): the session (sign in, who am I, sign out, sign out everywhere), the
 * organisations of the signed-in user, and what an org admin manages: members and roles, API tokens, the audit log.
 * A token never manages accounts (those routes need a person's session). Above them, what a hub admin does
 * (auth/hub-admin.ts): every organisation listed, a new one made, one made a certifying body or no longer one, and
 * the hub-wide audit log read.
 */
import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError, intParam } from '../api/api-error.js';
import { jsonBody } from '../api/json-body.js';
import type { Membership } from './actor.js';
import type { AuditPage } from './audit-log.js';
import { csrfTokenFor } from './csrf.js';
import { HubAdmin, hubAdminOf } from './hub-admin.js';
import type { HubAuth } from './hub-auth.js';
import { OrgAdmin, signedInUser } from './org-admin.js';
import { allow, clientAddress, sessionCookieName } from './request-auth.js';
import { clearSessionCookie, recordForUser, signInWithLink, signInWithPassword } from './sign-in.js';

const organisationView = (m: Membership) => ({
  id: m.organisationId,
  slug: m.organisationSlug,
  name: m.organisationName,
  role: m.role,
});

/** `?limit=` (1 to 500, 100) and `?before=` (an entry id) of an audit log's page, or a 400 naming the wrong one. */
function auditPaging(c: Context): AuditPage {
  const limit = intParam(c.req.query('limit'), 'limit', 100);
  if (limit > 500) throw new ApiError(400, 'limit must be at most 500');
  const before = c.req.query('before');
  return { limit, before: before === undefined ? undefined : intParam(before, 'before') };
}

export function authRoutes(auth: HubAuth): Hono {
  const app = new Hono();
  const admin = new OrgAdmin(auth);
  const hub = new HubAdmin(auth);
  const address = (c: Context) => clientAddress(c, auth.trustProxy);

  const sessionView = async (c: Context) => {
    const u = signedInUser(c);
    return {
      user: { id: u.userId, email: u.email, hubAdmin: u.hubAdmin },
      organisations: u.memberships.map(organisationView),
      csrfToken: csrfTokenFor(c),
    };
  };

  app.post('/session', async (c) => {
    const b = await jsonBody(c);
    const userId =
      b.link !== undefined
        ? await signInWithLink(auth, c, b.link)
        : await signInWithPassword(auth, c, b.email, b.password);
    const user = await auth.accounts.user(userId);
    const memberships = await auth.accounts.memberships(userId);
    c.set('actor', {
      kind: 'user',
      userId,
      email: user?.email ?? '',
      memberships,
      sessionId: 0,
      hubAdmin: user?.hubAdmin ?? false,
    });
    return c.json(await sessionView(c), 201);
  });
  app.get('/session', async (c) => c.json(await sessionView(c)));
  app.delete('/session', async (c) => {
    const u = signedInUser(c);
    const secret = getCookie(c, sessionCookieName(c, auth.trustProxy));
    if (secret) await auth.sessions.close(secret);
    clearSessionCookie(auth, c);
    await recordForUser(auth, u.userId, { actor: u, action: 'sign-out', address: address(c) });
    return c.body(null, 204);
  });
  app.post('/session/everywhere', async (c) => {
    const u = signedInUser(c);
    const n = await auth.sessions.closeAll(u.userId);
    clearSessionCookie(auth, c);
    await recordForUser(auth, u.userId, {
      actor: u,
      action: 'sign-out-everywhere',
      subject: `${n} session(s)`,
      address: address(c),
    });
    return c.body(null, 204);
  });

  // a hub admin sees every organisation (its role where it has one); anyone else its own, with its role
  app.get('/organisations', async (c) => {
    const u = signedInUser(c);
    const roles = new Map(u.memberships.map((m) => [m.organisationId, m.role]));
    const all = await auth.accounts.allOrganisations();
    const seen = u.hubAdmin ? all : all.filter((o) => roles.has(o.id));
    return c.json({ organisations: seen.map((o) => ({ ...o, role: roles.get(o.id) ?? null })) });
  });
  app.post('/organisations', async (c) => {
    hubAdminOf(c);
    const b = await jsonBody(c);
    return c.json(
      await hub.create(c, { slug: b.slug, name: b.name, certifyingBody: b.certifyingBody, adminEmail: b.adminEmail }),
      201,
    );
  });
  app.patch('/organisations/:org', async (c) => {
    hubAdminOf(c);
    const org = intParam(c.req.param('org'), 'the organisation id');
    const b = await jsonBody(c);
    const unknown = Object.keys(b).filter((k) => k !== 'certifyingBody');
    if (unknown.length > 0) throw new ApiError(400, `only certifyingBody can be changed, not ${unknown.join(', ')}`);
    return c.json({ organisation: await hub.setCertifyingBody(c, org, b.certifyingBody) });
  });

  const orgParam = (c: Context, action: 'manage-members' | 'manage-tokens' | 'read-audit') => {
    const id = intParam(c.req.param('org'), 'the organisation id');
    allow(c, action, id, `organisation ${id}`);
    return id;
  };

  app.get('/organisations/:org/members', async (c) => {
    const org = orgParam(c, 'manage-members');
    return c.json({ members: await auth.accounts.members(org) });
  });
  app.post('/organisations/:org/members', async (c) => {
    const org = intParam(c.req.param('org'), 'the organisation id');
    const b = await jsonBody(c);
    return c.json(await admin.addMember(c, org, b.email, b.role), 201);
  });
  app.put('/organisations/:org/members/:user', async (c) => {
    const org = intParam(c.req.param('org'), 'the organisation id');
    const b = await jsonBody(c);
    return c.json({ member: await admin.changeRole(c, org, intParam(c.req.param('user'), 'the user id'), b.role) });
  });
  app.delete('/organisations/:org/members/:user', async (c) => {
    const org = intParam(c.req.param('org'), 'the organisation id');
    await admin.removeMember(c, org, intParam(c.req.param('user'), 'the user id'));
    return c.body(null, 204);
  });

  app.get('/organisations/:org/tokens', async (c) => {
    const org = orgParam(c, 'manage-tokens');
    return c.json({ tokens: await auth.tokens.list(org) });
  });
  app.post('/organisations/:org/tokens', async (c) => {
    const org = intParam(c.req.param('org'), 'the organisation id');
    const b = await jsonBody(c);
    // the secret, once: only its hash is kept
    return c.json(await admin.createToken(c, org, b.name, b.scopes, b.days ?? 90), 201);
  });
  app.delete('/organisations/:org/tokens/:token', async (c) => {
    const org = intParam(c.req.param('org'), 'the organisation id');
    return c.json({ token: await admin.revokeToken(c, org, intParam(c.req.param('token'), 'the token id')) });
  });

  app.get('/organisations/:org/audit', async (c) => {
    const org = orgParam(c, 'read-audit');
    return c.json({ entries: await auth.audit.list(org, auditPaging(c)) });
  });
  // the hub-wide entries (no organisation's, and organisations made or made certifying bodies): hub admins only
  app.get('/audit', async (c) => {
    hubAdminOf(c);
    return c.json({ entries: await auth.audit.listHubWide(auditPaging(c)) });
  });

  return app;
}
