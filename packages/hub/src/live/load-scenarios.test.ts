/**
 * The load scenarios the hub is told (HubOptions.loadScenarios, from `erpcert hub`): the saved target page offers
 * them as a choice, and a start naming another is refused by the API and the page with the valid names, nothing
 * queued. A hub not told them (createHubApp alone) keeps a typed name and passes any well-formed one on.
 */
import { parseTargetGuard } from '@erpcert/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHubApp, liveParts } from '../api/hub-app.js';
import { hubAuth } from '../auth/hub-auth.js';
import { SESSION_COOKIE } from '../auth/sessions.js';
import { type AuthFixture, seedAuth, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { freshStore, type TestStore } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import type { LoadScenarioChoice } from './live-actions.js';

const KNOWN: LoadScenarioChoice[] = [
  { name: 'invoices', description: 'Confirmed sales invoices' },
  { name: 'transactions', description: 'Journal entries <TRVc>' },
];

let t: TestStore;
let fx: AuthFixture;
let target = 0;
const apps: Record<'told' | 'untold', ReturnType<typeof createHubApp>> = {} as never;

beforeAll(async () => {
  t = await freshStore('sqlite');
  const auth = hubAuth(t.store.db, { scrypt: TEST_SCRYPT });
  fx = await seedAuth(t.store, auth);
  const live = liveParts(t.store, undefined, parseTargetGuard(undefined, testResolver()));
  apps.told = createHubApp({ store: t.store, auth, log: () => {}, live: { ...live, loadScenarios: KNOWN } });
  apps.untold = createHubApp({ store: t.store, auth, log: () => {}, live });
  target = (await live.targets.save({ url: 'https://erp.example', user: 'u' }, fx.org)).id;
});
afterAll(async () => {
  await t?.dispose();
});

const engineer = () => ({ cookie: `${SESSION_COOKIE}=${fx.users.engineer.session}` });
const jobs = async () => (await t.store.db.selectFrom('jobs').select('id').execute()).length;

async function startByApi(app: 'told' | 'untold', scenario: unknown) {
  const res = await apps[app].request(`/api/v1/saved-targets/${target}/live-runs`, {
    method: 'POST',
    headers: { ...engineer(), 'x-csrf-token': fx.users.engineer.csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'load', scenario, engine: 'autocannon', durationSeconds: 5 }),
  });
  return { status: res.status, body: (await res.json()) as { error?: string; settings?: { scenario: string } } };
}

async function startByPage(app: 'told' | 'untold', fields: Record<string, string>) {
  const res = await apps[app].request(`/saved-targets/${target}/load`, {
    method: 'POST',
    headers: {
      ...engineer(),
      host: 'localhost',
      origin: 'http://localhost',
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrf: fx.users.engineer.csrf, engine: 'autocannon', ...fields }).toString(),
  });
  return { status: res.status, body: await res.text() };
}

describe('the load scenarios the hub was told', () => {
  it('the start form offers them by name and description, the first chosen; no name to type', async () => {
    const page = await (await apps.told.request(`/saved-targets/${target}`, { headers: engineer() })).text();
    expect(page).toContain(
      '<label>Scenario <select name="scenario" required><option value="invoices" selected>invoices — Confirmed sales invoices</option><option value="transactions">transactions — Journal entries &lt;TRVc&gt;</option></select></label>',
    );
    expect(page).not.toMatch(/<input name="scenario"/);
  });

  it.each([
    ['an unknown name', 'read-everything', /^scenario must be one of invoices, transactions, got "read-everything"$/],
    ['no name', undefined, /^scenario is required: one of invoices, transactions$/],
    ['a name that is not a string', 7, /^scenario must be one of invoices, transactions, got "7"$/],
  ])('the API refuses %s with 400 naming the valid ones, queueing nothing', async (_what, scenario, message) => {
    const before = await jobs();
    const r = await startByApi('told', scenario);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(message);
    expect(await jobs()).toBe(before);
  });

  it('the API queues a known one', async () => {
    const r = await startByApi('told', 'transactions');
    expect(r.status).toBe(202);
    expect(r.body.settings?.scenario).toBe('transactions');
  });

  it('the page refuses an unknown one on its form, and keeps the choice made after another refusal', async () => {
    const before = await jobs();
    const unknown = await startByPage('told', { scenario: 'read-everything', durationSeconds: '5' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('scenario must be one of invoices, transactions');
    const zero = await startByPage('told', { scenario: 'transactions', durationSeconds: '0' });
    expect(zero.status).toBe(400);
    expect(zero.body).toContain('<option value="transactions" selected>');
    expect(await jobs()).toBe(before);
    expect((await startByPage('told', { scenario: 'invoices', durationSeconds: '5' })).status).toBe(303);
    expect(await jobs()).toBe(before + 1);
  });
});

describe('a hub not told the scenarios', () => {
  it('asks for a name, and passes a well-formed one on (erpcert load refuses what it does not know)', async () => {
    const page = await (await apps.untold.request(`/saved-targets/${target}`, { headers: engineer() })).text();
    expect(page).toMatch(/<input name="scenario" value="" required pattern="\[a-z0-9-\]\{1,80\}"/);
    expect((await startByApi('untold', 'read-everything')).status).toBe(202);
    expect((await startByApi('untold', 'Bad Name')).body.error).toMatch(/^scenario is required: the name of a load/);
  });
});
