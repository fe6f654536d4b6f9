/**
 * Making an organisation is one transaction (the organisation, a new first admin, the membership, the sign-in link,
 * the certifying body, the audit entries): when a step after the organisation's row fails, by the API or the page
 * form, no organisation stays (none without an admin), nothing else of it either, and the answer says what failed.
 * The late failure is injected by the database itself: a trigger, made by the test, that refuses the last audit entry.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp } from '../api/hub-app.js';
import { type AuthFixture, seedAuth } from '../testing/auth-fixture.js';
import { freshStore, type TestStore, testDialects } from '../testing/test-databases.js';

const REFUSAL = 'injected: the audit log refuses this entry';

describe.each(testDialects)('making an organisation, all or nothing (on %s)', (dialect) => {
  let t: TestStore;
  let fx: AuthFixture;
  let app: ReturnType<typeof createHubApp>;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await freshStore(dialect);
    fx = await seedAuth(t.store);
    app = createHubApp({ store: t.store, auth: fx.auth, log: (line) => logged.push(line) });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** The last step refused: the make-certifying-body entry of an organisation whose slug starts with "doomed". */
  async function refuseLastEntry(): Promise<void> {
    const when = `new.action = 'make-certifying-body' and new.subject like 'organisation:% doomed%'`;
    if (dialect === 'sqlite')
      await sql
        .raw(
          `create trigger refuse_doomed before insert on audit_log when ${when} begin select raise(abort, '${REFUSAL}'); end`,
        )
        .execute(t.store.db);
    else {
      await sql
        .raw(
          `create function refuse_doomed() returns trigger language plpgsql as $$ begin raise exception '${REFUSAL}'; end $$`,
        )
        .execute(t.store.db);
      await sql
        .raw(
          `create trigger refuse_doomed before insert on audit_log for each row when (${when}) execute function refuse_doomed()`,
        )
        .execute(t.store.db);
    }
  }
  /** The cause gone: the trigger dropped (and PostgreSQL's function). */
  async function allowAgain(): Promise<void> {
    const on = dialect === 'postgres' ? ' on audit_log' : '';
    await sql.raw(`drop trigger if exists refuse_doomed${on}`).execute(t.store.db);
    if (dialect === 'postgres') await sql.raw('drop function if exists refuse_doomed()').execute(t.store.db);
  }
  afterEach(allowAgain);

  type Counted = 'organisations' | 'users' | 'memberships' | 'sign_in_links' | 'certifying_bodies' | 'audit_log';
  const count = async (table: Counted) =>
    Number(
      (
        await t.store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const state = async () => ({
    organisations: await count('organisations'),
    users: await count('users'),
    memberships: await count('memberships'),
    links: await count('sign_in_links'),
    bodies: await count('certifying_bodies'),
    audit: await count('audit_log'),
  });
  const api = (body: Record<string, unknown>) =>
    app.request('/api/v1/organisations', {
      method: 'POST',
      headers: { ...fx.headers('hub-admin'), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const doomed = { slug: 'doomed', name: 'Doomed', certifyingBody: true, adminEmail: 'first@doomed.example' };

  it('by the API: the last audit entry refused, nothing stays; a 500 whose cause is in the log', async () => {
    await refuseLastEntry();
    const before = await state();
    const res = await api(doomed);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'internal error of the hub (see its log)' });
    expect(logged.join('\n')).toMatch(/POST \/api\/v1\/organisations failed: .*injected: the audit log refuses/);
    // no organisation, no new user, membership, sign-in link, certifying body or audit entry
    expect(await state()).toEqual(before);
    expect(await fx.auth.accounts.organisationBySlug('doomed')).toBeUndefined();
    expect(await fx.auth.accounts.userByEmail('first@doomed.example')).toBeUndefined();
  });

  it('by the page form: the same, and the form can be sent again once the cause is gone', async () => {
    await refuseLastEntry();
    const before = await state();
    const { cookie = '', 'x-csrf-token': csrf = '' } = fx.headers('hub-admin');
    const send = () =>
      app.request('/organisations', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          csrf,
          slug: 'doomed-page',
          name: 'Doomed',
          adminEmail: 'first@doomed.example',
          certifyingBody: 'yes',
        }),
      });
    const res = await send();
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('The hub failed to make this page (its log says why).');
    expect(logged.join('\n')).toMatch(/POST \/organisations failed: .*injected: the audit log refuses/);
    expect(await state()).toEqual(before);
    await allowAgain();
    const again = await send();
    expect(again.status).toBe(201);
    await again.body?.cancel();
    const org = await fx.auth.accounts.organisationBySlug('doomed-page');
    expect((await fx.auth.accounts.members(org?.id ?? -1)).map((m) => [m.email, m.role])).toEqual([
      ['first@doomed.example', 'admin'],
    ]);
  });

  it('refuses a disabled account as the first admin (409, naming it) after the organisation was written: nothing stays', async () => {
    const gone = await fx.auth.accounts.createUser('gone@example.com');
    await fx.auth.accounts.setDisabled(gone.id, true);
    const before = await state();
    const res = await api({ slug: 'no-admin', adminEmail: 'Gone@Example.com' });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { error: string }).error).toBe(
      'adminEmail: the account gone@example.com is disabled: the first admin must be able to sign in; nothing was made',
    );
    expect(await state()).toEqual(before);
    expect(await fx.auth.accounts.organisationBySlug('no-admin')).toBeUndefined();
  });
});
