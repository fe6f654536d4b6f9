import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTargetGuard } from '@erpcert/contract';
import type { ExecutorRun, ProgressEvent, RunningHub } from '@erpcert/hub';
import { afterAll, describe, expect, it } from 'vitest';
import { ERPCERT_BIN, liveExecutor, liveRunArgs, liveRunEnv } from './live-executor.js';

const PASSWORD = 'PLANTED-exec-9d2e';
const dir = mkdtempSync(join(tmpdir(), 'erpcert-live-exec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a fake `erpcert`: records its argv and password, writes two judged tests to --events, then either ends with a
// results folder or waits for SIGINT and records that its cleanup ran
const FAKE = join(dir, 'fake-erpcert.mjs');
writeFileSync(
  FAKE,
  `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
if (process.env.FAKE_WAIT)
  process.on('SIGINT', () => { writeFileSync(process.env.FAKE_RECORD + '.cleanup', 'cleanup ran'); process.exit(1); });
const argv = process.argv.slice(2);
const arg = (n) => argv[argv.indexOf(n) + 1];
writeFileSync(process.env.FAKE_RECORD, JSON.stringify({ argv, password: process.env.ERPCERT_PASSWORD, hubToken: process.env.ERPCERT_HUB_TOKEN ?? null }));
const ev = arg('--events');
const line = (o) => appendFileSync(ev, JSON.stringify(o) + '\\n');
line({ type: 'run-start', at: 'x', files: 2 });
line({ type: 'test', file: 'a', state: 'passed', verdicts: [{ rule: 'REST.VERSION.PATH', verdict: 'PASS' }] });
line({ type: 'module-end', file: 'a', errors: 0 });
process.stderr.write('working with ' + process.env.ERPCERT_PASSWORD + '\\n');
if (process.env.FAKE_WAIT) {
  setInterval(() => {}, 1000);
} else {
  line({ type: 'test', file: 'b', state: 'failed', verdicts: [{ rule: 'REST.VERSION.SYSTEMVERSION', verdict: 'FAIL' }] });
  mkdirSync(arg('--out'), { recursive: true });
  writeFileSync(arg('--out') + '/results.json', '{}');
}
`,
);

const target = {
  id: 1,
  organisationId: 1,
  name: 't',
  url: 'https://erp.example.com',
  authKind: 'basic' as const,
  user: 'tester',
  password: PASSWORD,
  compcode: 3,
  otherCompcode: null,
  usercode: 'ADMIN',
  unokUsercode: null,
  limitedUsercode: null,
  portalcc: null,
  portalPath: '/WebErpAPI.hal',
  companyIn: null,
  savedAt: 'x',
};
const run: ExecutorRun = {
  jobId: 7,
  settings: { kind: 'conformance', profile: 'gate', only: ['REST.VERSION.*', 'REST.SEQ.X'] },
  target,
};

describe('the live-run executor', () => {
  it('builds the conform and load command lines without the password', () => {
    expect(liveRunArgs({ ...run, targetGuard: '10.0.0.0/8' }, '/o', '/e')).toEqual([
      'conform',
      '--target',
      'https://erp.example.com',
      '--target-guard',
      '10.0.0.0/8',
      '--user',
      'tester',
      '--compcode',
      '3',
      '--usercode',
      'ADMIN',
      '--portal-path',
      '/WebErpAPI.hal',
      '--profile',
      'gate',
      '--only',
      'REST.VERSION.*,REST.SEQ.X',
      '--out',
      '/o',
      '--events',
      '/e',
    ]);
    const load = liveRunArgs(
      { ...run, settings: { kind: 'load', scenario: 'invoices', engine: 'autocannon', durationSeconds: 5 } },
      '/o',
      '/e',
    );
    expect(load.slice(0, 1)).toEqual(['load']);
    // without an allow-list from the hub the child still checks: the defaults alone
    expect(load.join(' ')).toContain('--target https://erp.example.com --target-guard none');
    // the embedded reference server is allowed by name: the child starts it, no --target, nothing to guard
    const embedded = liveRunArgs({ ...run, target: { ...target, url: 'embedded' } }, '/o', '/e');
    expect(embedded.slice(0, 3)).toEqual(['conform', '--user', 'tester']);
    expect(embedded.join(' ')).not.toMatch(/--target/);
    expect(load.join(' ')).toContain('--scenario invoices --engine autocannon --duration 5 --out /o');
    expect(liveRunEnv({ PATH: '/bin', ERPCERT_HUB_TOKEN: 't', ERPCERT_PASSWORD: 'old' }, PASSWORD)).toEqual({
      PATH: '/bin',
      ERPCERT_PASSWORD: PASSWORD,
    });
  });

  it('runs a child with the password in its environment, follows its events, returns its folder', async () => {
    const record = join(dir, 'done.json');
    const events: ProgressEvent[] = [];
    const r = await liveExecutor({
      bin: FAKE,
      tailMs: 20,
      env: { ...process.env, FAKE_RECORD: record, ERPCERT_HUB_TOKEN: 'tok' },
    }).execute(run, {
      signal: new AbortController().signal,
      progress: (e) => events.push(e),
    });
    const seen = JSON.parse(readFileSync(record, 'utf8'));
    expect(seen.password).toBe(PASSWORD);
    expect(seen.hubToken).toBeNull();
    expect(seen.argv.join(' ')).not.toContain(PASSWORD);
    expect(events.filter((e) => e.type === 'rule')).toEqual([
      { type: 'rule', rule: 'REST.VERSION.PATH', verdict: 'PASS' },
      { type: 'rule', rule: 'REST.VERSION.SYSTEMVERSION', verdict: 'FAIL' },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'progress', filesDone: 1, filesTotal: 2 }));
    const logs = events.filter((e) => e.type === 'log');
    expect(logs).toEqual([{ type: 'log', line: 'working with ***' }]);
    expect(r.exitCode).toBe(0);
    expect(existsSync(join(r.folder ?? '', 'results.json'))).toBe(true);
    await r.dispose?.();
    expect(existsSync(r.folder ?? '')).toBe(false);
  });

  it('on cancel sends the child SIGINT, so its cleanup runs', async () => {
    const record = join(dir, 'cancel.json');
    const abort = new AbortController();
    const events: ProgressEvent[] = [];
    const pending = liveExecutor({
      bin: FAKE,
      tailMs: 20,
      env: { ...process.env, FAKE_RECORD: record, FAKE_WAIT: '1' },
    }).execute(run, {
      signal: abort.signal,
      progress: (e) => {
        events.push(e);
        if (e.type === 'rule') abort.abort();
      },
    });
    const r = await pending;
    expect(readFileSync(`${record}.cleanup`, 'utf8')).toBe('cleanup ran');
    expect(r.exitCode).toBe(1);
    await r.dispose?.();
  });
});

describe('a live run of the real erpcert conform', () => {
  let serve: ChildProcess | undefined;
  let hub: RunningHub | undefined;
  afterAll(async () => {
    await hub?.close();
    if (serve?.pid && serve.exitCode === null) process.kill(serve.pid, 'SIGKILL');
  });

  it('judges REST.VERSION.* against the embedded server (erpcert serve) and stores the run', async () => {
    serve = spawn(process.execPath, [ERPCERT_BIN, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve?.stdout?.on('data', (d) => {
        out += d;
        const m = /^(http:\/\/\S+)$/m.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      serve?.once('exit', (c) => reject(new Error(`erpcert serve exited ${c}`)));
    });
    const { startHub, SavedTargets, JobQueue, SecretBox, DEFAULT_ORGANISATION_ID } = await import('@erpcert/hub');
    hub = await startHub({
      port: 0,
      database: join(dir, 'hub.sqlite'),
      secret: 'e2e-secret-0123456789abcdef',
      executor: liveExecutor({ tailMs: 100 }),
      workers: 1,
      // erpcert serve listens on loopback: opened for this hub
      allowTargets: '127.0.0.1/32',
      log: () => undefined,
      timing: { pollMs: 100 },
    });
    const targets = new SavedTargets(
      hub.store.db,
      new SecretBox('e2e-secret-0123456789abcdef'),
      undefined,
      parseTargetGuard('127.0.0.1/32'),
    );
    const t = await targets.save({ url, user: 'erpcert', password: 'erpcert', compcode: 1 }, DEFAULT_ORGANISATION_ID);
    const queue = new JobQueue(hub.store.db, hub.store.dialect);
    const job = await queue.enqueue(t.id, { kind: 'conformance', profile: 'gate', only: ['REST.VERSION.*'] });
    hub.pool?.wake();
    let state = await queue.get(job.id);
    while (state && ['queued', 'running'].includes(state.state)) {
      await new Promise((r) => setTimeout(r, 250));
      state = await queue.get(job.id);
    }
    expect(state).toMatchObject({ state: 'done', exitCode: 0 });
    const judged = await queue.judged(job.id);
    expect(Object.keys(judged).length).toBeGreaterThan(0);
    expect(Object.keys(judged).every((r) => r.startsWith('REST.VERSION.'))).toBe(true);
    expect(Object.values(judged)).toContain('PASS');
    const stored = await hub.store.ruleVerdicts(state?.runId ?? 0);
    expect(stored.length).toBeGreaterThan(0);
    expect((await hub.store.run(state?.runId ?? 0))?.status).toBe('done');
  }, 240_000);
});
