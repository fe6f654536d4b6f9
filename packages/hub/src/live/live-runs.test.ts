import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// a hub per test, each live run executed by its pool: more than vitest's 5 s default on a busy machine
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

import { LIVE_SCRIPT_PATH } from '../pages/live-run.js';
import { type RunningHub, startHub } from '../server.js';
import { type AuthFixture, seedAuth, TEST_SCRYPT } from '../testing/auth-fixture.js';
import { FakeExecutor } from '../testing/fake-executor.js';
import { freshDatabase, testDialects } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { JobQueue, RESTARTED } from './job-queue.js';

const SECRET = 'live-test-secret-abcdefghijklmnop';
// planted: it must appear nowhere the test can read, but in the executor's hands
const PASSWORD = 'PLANTED-pw-7f3a9c-Zq';
/** An engineer's session (cookie and CSRF token), set when a hub starts: saves targets, starts and cancels runs. */
let auth: Record<string, string> = {};
let fx: AuthFixture;
async function signIn(h: RunningHub): Promise<void> {
  fx = await seedAuth(h.store, h.auth);
  auth = { ...fx.headers('engineer'), 'content-type': 'application/json' };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests read the API's JSON answers loosely, field by field
type Json = Record<string, any>;

async function until<T>(what: string, probe: () => Promise<T | undefined>, tries = 400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(testDialects)('live runs on %s', (dialect) => {
  let hub: RunningHub | undefined;
  let drop: (() => Promise<void>) | undefined;
  const logged: string[] = [];
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
    await drop?.();
  });

  async function start(executor: FakeExecutor, secret: string | null = SECRET) {
    const fresh = await freshDatabase(dialect);
    drop = fresh.drop;
    hub = await startHub({
      port: 0,
      database: fresh.database,
      auth: { scrypt: TEST_SCRYPT },
      secret: secret ?? undefined,
      executor,
      workers: 1,
      resolver: testResolver(),
      log: (l) => logged.push(l),
      timing: { pollMs: 50, heartbeatMs: 50, eventsPollMs: 20 },
    });
    await signIn(hub);
    return { hub, database: fresh.database };
  }
  const api = async (path: string, init: RequestInit = {}): Promise<{ status: number; text: string; json: Json }> => {
    const res = await fetch(`${hub?.url}/api/v1${path}`, { ...init, headers: init.headers ?? fx.headers('viewer') });
    const text = await res.text();
    let json: Json = {};
    try {
      json = JSON.parse(text) as Json;
    } catch {}
    return { status: res.status, text, json };
  };
  const save = (body: Json) => api('/saved-targets', { method: 'POST', headers: auth, body: JSON.stringify(body) });
  const ended = (id: number) =>
    until(`live run ${id} to end`, async () => {
      const r = await api(`/live-runs/${id}`);
      return ['done', 'failed', 'interrupted', 'cancelled'].includes(r.json.state) ? r : undefined;
    });

  it('saves a target, runs against it, streams its events, reruns its FAILs; the password shows nowhere', async () => {
    const executor = new FakeExecutor();
    const { database } = await start(executor);
    const answers: string[] = [];
    const saved = await save({ url: 'https://erp.example.com/', user: 'tester', password: PASSWORD, compcode: 1 });
    answers.push(saved.text);
    expect(saved.status).toBe(201);
    expect(saved.json).toMatchObject({ url: 'https://erp.example.com', user: 'tester', password: 'set', compcode: 1 });
    const tid = saved.json.id as number;

    const started = await api(`/saved-targets/${tid}/live-runs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ kind: 'conformance', profile: 'gate', only: ['REST.VERSION.*'] }),
    });
    answers.push(started.text);
    expect(started.status).toBe(202);
    const done = await ended(started.json.id);
    answers.push(done.text);
    expect(done.json).toMatchObject({
      state: 'done',
      judged: { 'REST.VERSION.PATH': 'PASS', 'REST.VERSION.SYSTEMVERSION': 'FAIL' },
    });
    // the executor had the password (opened from its sealed form), and the settings asked for
    expect(executor.runs[0]?.target.password).toBe(PASSWORD);
    expect(executor.runs[0]?.settings).toEqual({ kind: 'conformance', profile: 'gate', only: ['REST.VERSION.*'] });
    const run = await api(`/runs/${done.json.runId}`);
    answers.push(run.text);
    expect(run.json.run ?? run.json).toMatchObject({ status: 'done' });

    const events = await api(`/live-runs/${started.json.id}/events`);
    answers.push(events.text);
    expect(events.text).toContain('event: rule');
    expect(events.text).toMatch(/"rule":"REST\.VERSION\.SYSTEMVERSION","verdict":"FAIL"/);
    expect(events.text).toContain('event: end');
    expect(events.text).toMatch(/"state":"done"/);

    const rerun = await api(`/runs/${done.json.runId}/rerun`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ fails: true }),
    });
    answers.push(rerun.text);
    expect(rerun.status).toBe(202);
    expect(rerun.json).toMatchObject({
      parentRunId: done.json.runId,
      settings: { only: ['REST.VERSION.SYSTEMVERSION'] },
    });
    const second = await ended(rerun.json.id);
    const child = await api(`/runs/${second.json.runId}`);
    answers.push(
      child.text,
      (await api('/saved-targets')).text,
      (await api('/live-runs')).text,
      (await api('/targets')).text,
    );
    expect(JSON.stringify(child.json)).toContain(`"parentRunId":${done.json.runId}`);

    // one rule and one area: --only set accordingly
    const one = await api(`/runs/${done.json.runId}/rerun`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ rule: 'REST.VERSION.PATH' }),
    });
    const area = await api(`/runs/${done.json.runId}/rerun`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ area: 'REST.VERSION' }),
    });
    expect(one.json.settings.only).toEqual(['REST.VERSION.PATH']);
    expect(area.json.settings.only).toEqual(['REST.VERSION.*']);
    // a wrong rule or area is refused, not passed over for "fails" (Schemathesis found it taken as every FAIL)
    for (const wrong of [
      { rule: 'REST.*', fails: true },
      { area: 'REST QUERY', fails: true },
    ]) {
      const r = await api(`/runs/${done.json.runId}/rerun`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(wrong),
      });
      expect(r.status, JSON.stringify(wrong)).toBe(400);
      expect(r.json.error).toMatch(/^(rule|area) must be/);
    }
    await ended(area.json.id);

    // everything the test can read: API answers, the hub's log, every table, the SQLite files
    const everything = [...answers, ...logged];
    const tables = ['targets', 'jobs', 'job_events', 'runs', 'run_files', 'rule_verdicts', 'audit_log'] as const;
    for (const table of tables)
      everything.push(JSON.stringify(await hub?.store.db.selectFrom(table).selectAll().execute()));
    const blobs = await hub?.store.db.selectFrom('blobs').select('bytes').execute();
    for (const b of blobs ?? []) everything.push(Buffer.from(b.bytes).toString('utf8'));
    await hub?.close();
    hub = undefined;
    if (dialect === 'sqlite')
      for (const f of readdirSync(dirname(database)))
        if (statSync(join(dirname(database), f)).isFile())
          everything.push(readFileSync(join(dirname(database), f)).toString('latin1'));
    expect(everything.join('\n')).toContain('"password":"set"'); // the check reads what it should
    for (const text of everything) expect(text).not.toContain(PASSWORD);
  });

  it('cancels a running run (the executor sees the abort) and a queued one', async () => {
    const executor = new FakeExecutor({ waitForAbort: true });
    await start(executor);
    const tid = (await save({ url: 'https://erp.example.com', user: 'u', password: PASSWORD })).json.id;
    const body = JSON.stringify({ kind: 'conformance' });
    const a = await api(`/saved-targets/${tid}/live-runs`, { method: 'POST', headers: auth, body });
    const b = await api(`/saved-targets/${tid}/live-runs`, { method: 'POST', headers: auth, body });
    await until('the first run to start', async () =>
      (await api(`/live-runs/${a.json.id}`)).json.state === 'running' ? true : undefined,
    );
    // its page while it runs: the state, the rules judged so far, and the hub's own script (CSP: 'self', no inline)
    const live = await fetch(`${hub?.url}/live-runs/${a.json.id}`, { headers: fx.headers('viewer') });
    const livePage = await live.text();
    expect(live.status).toBe(200);
    expect(live.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(livePage).toContain('<strong data-live-state="">running</strong>');
    expect(livePage).toContain('<code>REST.VERSION.PATH</code> <strong class="verdict-PASS">PASS</strong>');
    expect(livePage).toContain(`<script src="${LIVE_SCRIPT_PATH}" defer></script>`);
    expect(livePage).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const cb = await api(`/live-runs/${b.json.id}/cancel`, { method: 'POST', headers: auth });
    expect(cb.json).toMatchObject({ state: 'cancelled' });
    const ca = await api(`/live-runs/${a.json.id}/cancel`, { method: 'POST', headers: auth });
    expect(ca.status).toBe(202);
    const end = await ended(a.json.id);
    expect(end.json).toMatchObject({ state: 'cancelled', judged: { 'REST.VERSION.PATH': 'PASS' } });
    expect(end.json.judged['REST.VERSION.SYSTEMVERSION']).toBeUndefined();
    expect((await api(`/runs/${end.json.runId}`)).text).toContain('"status":"cancelled"');
    // once ended, its page needs no script (the pages' CSP allows none) and links the stored run
    const endedPage = await fetch(`${hub?.url}/live-runs/${a.json.id}`, { headers: fx.headers('viewer') });
    expect(endedPage.headers.get('content-security-policy')).toContain("script-src 'none'");
    const endedText = await endedPage.text();
    expect(endedText).toContain(`<a href="/runs/${end.json.runId}">run #${end.json.runId}</a>`);
    expect(endedText).not.toContain('<script');
    expect((await fetch(`${hub?.url}/live-runs/999999`, { headers: fx.headers('viewer') })).status).toBe(404);
    expect(executor.runs.map((r) => r.jobId)).toEqual([a.json.id]);
    expect((await api(`/live-runs/${a.json.id}/cancel`, { method: 'POST', headers: auth })).status).toBe(409);
  });

  it('refuses to save a password without ERPCERT_HUB_SECRET, saying how to set it', async () => {
    await start(new FakeExecutor(), null);
    const r = await save({ url: 'https://erp.example.com', password: PASSWORD });
    expect(r.status).toBe(422);
    expect(r.json.error).toContain('ERPCERT_HUB_SECRET=');
    expect(r.text).not.toContain(PASSWORD);
    expect((await api('/saved-targets')).json.targets).toEqual([]);
    // a name of null is refused with what is wrong (it was a 500: the column is NOT NULL)
    const nullName = await save({ url: 'https://erp.example.com', name: null });
    expect(nullName.status).toBe(400);
    expect(nullName.json.error).toMatch(/name must be a string/);
    const noAuth = await api('/saved-targets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noAuth.status).toBe(401);
  });

  it('after a restart, a queued run starts and a run that was executing is marked interrupted', async () => {
    const fresh = await freshDatabase(dialect);
    drop = fresh.drop;
    // a first hub without executor: it only queues; its "worker" claims one job and dies
    const first = await startHub({
      port: 0,
      database: fresh.database,
      auth: { scrypt: TEST_SCRYPT },
      secret: SECRET,
      resolver: testResolver(),
    });
    await signIn(first);
    const tid = (
      (await (
        await fetch(`${first.url}/api/v1/saved-targets`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ url: 'https://e.example' }),
        })
      ).json()) as Json
    ).id as number;
    const queue = new JobQueue(first.store.db, first.store.dialect);
    const dead = await queue.enqueue(tid, { kind: 'conformance', profile: 'gate', only: [] });
    const waiting = await queue.enqueue(tid, { kind: 'conformance', profile: 'gate', only: [] });
    expect((await queue.claim('dead-worker'))?.id).toBe(dead.id);
    await queue.appendEvent(dead.id, 1, { type: 'rule', rule: 'REST.VERSION.PATH', verdict: 'PASS' });
    await first.close();
    hub = await startHub({
      port: 0,
      database: fresh.database,
      auth: { scrypt: TEST_SCRYPT },
      secret: SECRET,
      executor: new FakeExecutor(),
      resolver: testResolver(),
      log: (l) => logged.push(l),
      // PostgreSQL: the dead worker is told by its heartbeat, late after 3 s (long enough that a starved CPU
      // delaying this hub's own heartbeats cannot make it interrupt the run it executes itself)
      timing: { pollMs: 50, heartbeatMs: 50, staleMs: 3000 },
    });
    const d = await ended(dead.id);
    expect(d.json).toMatchObject({ state: 'interrupted', message: RESTARTED, judged: { 'REST.VERSION.PATH': 'PASS' } });
    expect((await ended(waiting.id)).json.state).toBe('done');
  });
});
