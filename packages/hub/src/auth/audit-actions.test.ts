/**
 * The audit log, action by action (issue 26: "who signed in, saved a target, started, cancelled, published,
 * certified, shared or deleted what, and when. It never holds a secret"): each action is done through the API, and
 * through the page's form where a page does it (in-process `app.request`), and must write exactly one new entry
 * with its actor, organisation, action and subject. No entry holds a secret the test planted (a saved target's
 * password, passwords, sessions, API tokens, share and sign-in links, and every secret any answer handed out).
 */
import { parseTargetGuard } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { ShareLinks } from '../certification/share-links.js';
import { ingestFiles } from '../ingest/ingest.js';
import { JobQueue } from '../live/job-queue.js';
import { SavedTargets } from '../live/saved-targets.js';
import { SecretBox } from '../live/secret-box.js';
import { type AuthFixture, seedAuth, TEST_PASSWORD, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { ERP_URL, type PageFixture, seedPageFixture } from '../testing/page-fixture.js';
import { conformanceFolderFiles, sampleConformance } from '../testing/sample-runs.js';
import { testKey } from '../testing/sign-files.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { zipFiles } from '../testing/zip-writer.js';
import type { AuditAction } from './audit-log.js';
import { hubAuth } from './hub-auth.js';
import { SECRET_BODY_LENGTH, SECRET_PREFIXES } from './secret-token.js';
import { csrfTokenOf, SESSION_COOKIE } from './sessions.js';

const TARGET_PASSWORD = 'PLANTED-target-password-51d0';
const NEW_PASSWORD = 'PLANTED-new-account-password-0e7c';
/** Any secret the hub hands out, as it appears in an answer (a cookie, a JSON body, a page). */
const HANDED_OUT = new RegExp(
  `(?:${Object.values(SECRET_PREFIXES).join('|')})[A-Za-z0-9_-]{${SECRET_BODY_LENGTH}}`,
  'g',
);

interface Row {
  readonly action: AuditAction;
  readonly via: 'API' | 'page';
  readonly who: keyof AuthFixture['users'] | 'token-publish';
  /** Makes what the action needs, sends it, and says the subject the entry must name ('' for none). */
  readonly send: () => Promise<{ res: Response; subject: string }>;
}

describe('the audit log records each action once, with its actor, organisation and subject, and no secret', () => {
  let t: TestStore;
  let fx: AuthFixture;
  let f: PageFixture;
  let app: ReturnType<typeof createHubApp>;
  let targets: SavedTargets;
  let queue: JobQueue;
  let shares: ShareLinks;
  let saved = 0;
  let n = 0;
  const planted: string[] = [TARGET_PASSWORD, NEW_PASSWORD, TEST_PASSWORD];

  beforeAll(async () => {
    t = await freshStore('sqlite');
    const auth = hubAuth(t.store.db, { scrypt: TEST_SCRYPT });
    fx = await seedAuth(t.store, auth);
    f = await seedPageFixture(t.store);
    targets = new SavedTargets(
      t.store.db,
      new SecretBox('audit-actions-secret-0123456789abcdef'),
      undefined,
      parseTargetGuard(undefined, testResolver()),
    );
    queue = new JobQueue(t.store.db, t.store.dialect);
    shares = new ShareLinks(t.store.db);
    app = createHubApp({ store: t.store, auth, live: { queue, targets }, log: () => {} });
    // the sample runs' target, saved with a password: its runs can be rerun
    saved = (await targets.save({ url: ERP_URL, user: 'erp-user', password: TARGET_PASSWORD }, fx.org)).id;
    planted.push(...Object.values(fx.tokens), ...Object.values(fx.users).map((u) => u.session));
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const actorOf = async (who: Row['who']): Promise<string> => {
    if (who !== 'token-publish') return `user:${user(who).id} ${user(who).email}`;
    // the name auth-fixture.ts gives its publish token
    const token = (await fx.auth.tokens.list(fx.org)).find((x) => x.name === 'ci publish');
    return `token:${token?.id} ci publish`;
  };
  const user = (who: Row['who']) => fx.users[who as keyof AuthFixture['users']];
  const json = (method: string, path: string, who: Row['who'], body?: unknown, headers = fx.headers(who)) =>
    app.request(path, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const form = (path: string, who: Row['who'], fields: Record<string, string> = {}, headers = fx.headers(who)) =>
    app.request(path, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: headers['x-csrf-token'] ?? '', ...fields }),
    });
  const zip = () =>
    zipFiles(conformanceFolderFiles(sampleConformance({ url: ERP_URL, embedded: false, runTag: `AUDIT${++n}` })), 'r/');

  // what each action needs, made fresh (not through the routes under test)
  const fresh = {
    target: async () => (await targets.save({ url: `https://audit${++n}.example` }, fx.org)).id,
    job: async () => (await queue.enqueue(saved, { kind: 'conformance', profile: 'gate', only: [] })).id,
    member: async () => {
      const u = await fx.auth.accounts.createUser(`member${++n}@example.com`);
      await fx.auth.accounts.setMembership(u.id, fx.org, 'viewer');
      return u;
    },
    token: async () => {
      const made = { organisationId: fx.org, name: `t${++n}`, scopes: ['read' as const], days: 1, createdBy: null };
      return (await fx.auth.tokens.create(made)).token;
    },
    link: async () => {
      const made = await shares.create({ runId: f.first, organisationId: fx.org, days: 1, createdBy: 'test' });
      planted.push(made.secret);
      return made.link;
    },
    run: async () => {
      const files = conformanceFolderFiles(sampleConformance({ runTag: `DEL${++n}` }));
      return (await ingestFiles(t.store, files, { organisationId: fx.org })).run.id;
    },
    /** A session of its own, for a sign-out: the cookie and CSRF headers. */
    session: async (who: Row['who']) => {
      const { secret } = await fx.auth.sessions.open(user(who).id, 'password');
      planted.push(secret);
      return { cookie: `${SESSION_COOKIE}=${secret}`, 'x-csrf-token': csrfTokenOf(secret) };
    },
  };
  const newest = async (table: 'jobs' | 'runs') =>
    Number((await t.store.db.selectFrom(table).select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
  const savedByUrl = async (url: string) => (await targets.list([fx.org])).find((x) => x.url === url)?.id;

  /** What one request of an action needs: made fresh, then sent through the API or the page. */
  interface Pair {
    readonly api: () => Response | Promise<Response>;
    readonly page?: () => Response | Promise<Response>;
    /** The subject the entry must name ('' for none), or how to find it after the request. */
    readonly subject: string | (() => Promise<string>);
  }
  /** An action through the API, and through its page's form when `make` gives one. */
  const rows = (action: AuditAction, who: Row['who'], make: () => Promise<Pair>, page = true): Row[] =>
    (page ? (['API', 'page'] as const) : (['API'] as const)).map((via) => ({
      action,
      via,
      who,
      send: async () => {
        const m = await make();
        const res = await (via === 'API' || !m.page ? m.api() : m.page());
        return { res, subject: typeof m.subject === 'string' ? m.subject : await m.subject() };
      },
    }));
  const E = 'engineer';
  const A = 'admin';

  const ROWS: Row[] = [
    // saved targets (the password planted each time)
    ...rows('save-target', E, async () => {
      const url = `https://saved${++n}.example`;
      const fields = { url, user: 'erp', password: TARGET_PASSWORD };
      return {
        api: () => json('POST', '/api/v1/saved-targets', E, fields),
        page: () => form('/saved-targets', E, fields),
        subject: async () => `target ${await savedByUrl(url)}`,
      };
    }),
    ...rows('update-target', E, async () => ({
      api: () => json('PUT', `/api/v1/saved-targets/${saved}`, E, { name: 'renamed', password: TARGET_PASSWORD }),
      page: () => form(`/saved-targets/${saved}`, E, { url: ERP_URL, name: 'renamed', password: TARGET_PASSWORD }),
      subject: `target ${saved}`,
    })),
    ...rows('delete-target', E, async () => {
      const id = await fresh.target();
      return {
        api: () => json('DELETE', `/api/v1/saved-targets/${id}`, E),
        page: () => form(`/saved-targets/${id}/delete`, E),
        subject: `target ${id}`,
      };
    }),
    // live runs: start (conform by API and page, load by page), cancel, rerun
    ...rows('start-run', E, async () => ({
      api: () => json('POST', `/api/v1/saved-targets/${saved}/live-runs`, E, { kind: 'conformance' }),
      page: () => form(`/saved-targets/${saved}/conform`, E, { profile: 'gate' }),
      subject: async () => `live run ${await newest('jobs')}`,
    })),
    {
      action: 'start-run',
      via: 'page',
      who: E,
      send: async () => ({
        res: await form(`/saved-targets/${saved}/load`, E, { scenario: 'invoices', durationSeconds: '5' }),
        subject: `live run ${await newest('jobs')}`,
      }),
    },
    ...rows('cancel-run', E, async () => {
      const id = await fresh.job();
      return {
        api: () => json('POST', `/api/v1/live-runs/${id}/cancel`, E),
        page: () => form(`/live-runs/${id}/cancel`, E),
        subject: `live run ${id}`,
      };
    }),
    ...rows('rerun', E, async () => ({
      api: () => json('POST', `/api/v1/runs/${f.first}/rerun`, E, { fails: true }),
      page: () => form(`/runs/${f.first}/rerun`, E, { fails: '1' }),
      subject: async () => `live run ${await newest('jobs')}`,
    })),
    // publishing: CI by its token, a person by the upload page
    {
      action: 'publish',
      via: 'API',
      who: 'token-publish',
      send: async () => {
        const res = await app.request('/api/v1/runs', {
          method: 'POST',
          headers: { ...fx.headers('token-publish'), 'content-type': 'application/zip' },
          body: new Uint8Array(zip()),
        });
        return { res, subject: `run ${await newest('runs')}` };
      },
    },
    {
      action: 'publish',
      via: 'page',
      who: E,
      send: async () => {
        const body = new FormData();
        body.set('csrf', fx.users.engineer.csrf);
        body.set('zip', new Blob([new Uint8Array(zip())], { type: 'application/zip' }), 'run.zip');
        const res = await app.request('/upload', { method: 'POST', headers: fx.headers(E), body });
        return { res, subject: `run ${await newest('runs')}` };
      },
    },
    // a run: share (make, revoke), relabel, delete
    ...rows('share', E, async () => ({
      api: () => json('POST', `/api/v1/runs/${f.first}/share-links`, E, { days: 3 }),
      page: () => form(`/runs/${f.first}/certification/share`, E, { days: '3' }),
      subject: `run ${f.first}`,
    })),
    ...rows('share', E, async () => {
      const link = await fresh.link();
      return {
        api: () => json('DELETE', `/api/v1/share-links/${link.id}`, E),
        page: () => form(`/share-links/${link.id}/revoke`, E),
        subject: `run ${link.runId}`,
      };
    }),
    ...rows(
      'relabel-run',
      E,
      async () => ({
        api: () => json('PATCH', `/api/v1/runs/${f.second}`, E, { build: 'b2-fixed', label: 'relabelled' }),
        subject: `run ${f.second}`,
      }),
      false,
    ),
    ...rows(
      'delete-run',
      E,
      async () => {
        const id = await fresh.run();
        return { api: () => json('DELETE', `/api/v1/runs/${id}`, E), subject: `run ${id}` };
      },
      false,
    ),
    ...rows(
      'register-key',
      A,
      async () => ({
        api: () => json('POST', '/api/v1/keys', A, { name: 'release', pem: testKey().pem }),
        subject: async () =>
          (
            await t.store.db
              .selectFrom('signing_keys')
              .select('fingerprint')
              .where('name', '=', 'release')
              .executeTakeFirstOrThrow()
          ).fingerprint,
      }),
      false,
    ),
    // members and tokens
    ...rows('add-member', A, async () => {
      const email = `added${++n}@example.com`;
      return {
        api: () => json('POST', `/api/v1/organisations/${fx.org}/members`, A, { email, role: 'viewer' }),
        page: () => form(`/organisations/${fx.org}/members`, A, { email, role: 'viewer' }),
        subject: async () => `user:${(await fx.auth.accounts.userByEmail(email))?.id} ${email}`,
      };
    }),
    ...rows('change-role', A, async () => {
      const m = await fresh.member();
      return {
        api: () => json('PUT', `/api/v1/organisations/${fx.org}/members/${m.id}`, A, { role: 'engineer' }),
        page: () => form(`/organisations/${fx.org}/members/${m.id}`, A, { role: 'engineer' }),
        subject: `user:${m.id} ${m.email}`,
      };
    }),
    ...rows('remove-member', A, async () => {
      const m = await fresh.member();
      return {
        api: () => json('DELETE', `/api/v1/organisations/${fx.org}/members/${m.id}`, A),
        page: () => form(`/organisations/${fx.org}/members/${m.id}/remove`, A),
        subject: `user:${m.id} ${m.email}`,
      };
    }),
    ...rows('create-token', A, async () => {
      const name = `made${++n}`;
      return {
        api: () => json('POST', `/api/v1/organisations/${fx.org}/tokens`, A, { name, scopes: ['read'], days: 2 }),
        page: () => form(`/organisations/${fx.org}/tokens`, A, { name, scopes: 'read', days: '2' }),
        subject: async () => `token:${(await fx.auth.tokens.list(fx.org)).find((x) => x.name === name)?.id} ${name}`,
      };
    }),
    ...rows('revoke-token', A, async () => {
      const token = await fresh.token();
      return {
        api: () => json('DELETE', `/api/v1/organisations/${fx.org}/tokens/${token.id}`, A),
        page: () => form(`/organisations/${fx.org}/tokens/${token.id}/revoke`, A),
        subject: `token:${token.id} ${token.name}`,
      };
    }),
    // the account: signing in and out (a session of its own each time), the password
    ...rows('sign-in', 'viewer', async () => {
      const fields = { email: fx.users.viewer.email, password: TEST_PASSWORD };
      return {
        api: () => json('POST', '/api/v1/session', 'viewer', fields, {}),
        page: () => form('/sign-in', 'viewer', fields, {}),
        subject: 'password',
      };
    }),
    ...rows('sign-in', 'viewer', async () => {
      const link = await fx.auth.accounts.createSignInLink(fx.users.viewer.id);
      planted.push(link);
      return {
        api: () => json('POST', '/api/v1/session', 'viewer', { link }, {}),
        page: () => form('/sign-in/link', 'viewer', { token: link }, {}),
        subject: 'link',
      };
    }),
    ...rows('sign-out', 'viewer', async () => {
      const own = await fresh.session('viewer');
      return {
        api: () => json('DELETE', '/api/v1/session', 'viewer', undefined, own),
        page: () => form('/sign-out', 'viewer', {}, own),
        subject: '',
      };
    }),
    {
      action: 'change-password',
      via: 'page',
      who: 'viewer',
      send: async () => {
        const own = await fresh.session('viewer');
        return { res: await form('/account/password', 'viewer', { password: NEW_PASSWORD }, own), subject: '' };
      },
    },
    // last: it ends every session of the viewer
    ...rows('sign-out-everywhere', 'viewer', async () => {
      const own = await fresh.session('viewer');
      const open = await t.store.db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', fx.users.viewer.id)
        .execute();
      return {
        api: () => json('POST', '/api/v1/session/everywhere', 'viewer', undefined, own),
        page: () => form('/sign-out-everywhere', 'viewer', {}, own),
        subject: `${open.length} session(s)`,
      };
    }),
  ];

  it.each(ROWS.map((r) => [r.action, r.via, r.who, r] as const))(
    '%s through the %s, by %s',
    async (_a, _v, _w, row) => {
      const before = Number(
        (
          await t.store.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.max('id').as('id'))
            .executeTakeFirst()
        )?.id ?? 0,
      );
      const { res, subject } = await row.send();
      const answer = await res.text();
      expect(res.status, answer.slice(0, 300)).toBeLessThan(400);
      planted.push(...(answer.match(HANDED_OUT) ?? []), ...(res.headers.get('set-cookie')?.match(HANDED_OUT) ?? []));
      const entries = await t.store.db.selectFrom('audit_log').selectAll().where('id', '>', before).execute();
      expect(
        entries.map((e) => ({
          actor: e.actor,
          organisation: Number(e.organisation_id),
          action: e.action,
          subject: e.subject ?? '',
        })),
      ).toEqual([{ actor: await actorOf(row.who), organisation: fx.org, action: row.action, subject }]);
      const raw = JSON.stringify(entries);
      for (const s of new Set(planted))
        expect(raw.includes(s), `a planted secret in the entry: ${s.slice(0, 6)}…`).toBe(false);
    },
  );

  it('planted secrets of every kind, and none of them is anywhere in the log', async () => {
    const kinds = new Set(planted.map((s) => Object.values(SECRET_PREFIXES).find((p) => s.startsWith(p)) ?? 'typed'));
    // a session, an API token, a share link, a sign-in link (the new member's), and the typed passwords
    expect([...kinds].sort()).toEqual([...Object.values(SECRET_PREFIXES), 'typed'].sort());
    const raw = await fx.auth.audit.raw();
    for (const s of new Set(planted))
      expect(raw.includes(s), `a planted secret in the log: ${s.slice(0, 6)}…`).toBe(false);
  });
});
