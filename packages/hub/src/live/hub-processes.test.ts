import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

// child processes start tsx and a hub each: more than vitest's 5 s default
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

import { parseTargetGuard } from '@erpcert/contract';
import { type RunningHub, startHub } from '../server.js';
import { HubStore } from '../store/hub-store.js';
import { DEFAULT_ORGANISATION_ID } from '../store/migrations/0003-accounts.js';
import { FakeExecutor } from '../testing/fake-executor.js';
import { freshDatabase, postgresUrl, testDialects } from '../testing/test-databases.js';
import { testResolver } from '../testing/test-resolver.js';
import { JobQueue, RESTARTED } from './job-queue.js';
import { SavedTargets } from './saved-targets.js';

const SCRIPT = fileURLToPath(new URL('../testing/hub-process.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

interface Proc {
  readonly child: ChildProcess;
  readonly lines: string[];
  waitFor(re: RegExp): Promise<string>;
}

const procs: Proc[] = [];

function hubProcess(database: string, mode: 'fast' | 'hang' | 'ingest'): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    cwd: REPO,
    env: { ...process.env, HUB_DATABASE: database, HUB_MODE: mode },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let buf = '';
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  child.stdout?.on('data', (d) => {
    buf += d;
    let i = buf.indexOf('\n');
    while (i >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters])
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      i = buf.indexOf('\n');
    }
  });
  const p: Proc = {
    child,
    lines,
    waitFor: (re) => {
      const seen = lines.find((l) => re.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ re, resolve });
        child.once('exit', (code) =>
          reject(new Error(`hub process exited (${code}) before ${re}: ${err.slice(-2000)}`)),
        );
      });
    },
  };
  procs.push(p);
  return p;
}

const exited = (c: ChildProcess) =>
  c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise((r) => c.once('exit', r));

afterEach(async () => {
  for (const p of procs.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null && p.child.pid) process.kill(p.child.pid, 'SIGKILL');
    await exited(p.child);
  }
});

describe.skipIf(!postgresUrl)('two hub processes on one PostgreSQL', () => {
  it('execute 20 queued runs, each exactly once', async () => {
    const { database, drop } = await freshDatabase('postgres');
    const store = await HubStore.open(database);
    try {
      const targets = new SavedTargets(store.db, undefined, undefined, parseTargetGuard(undefined, testResolver()));
      const queue = new JobQueue(store.db, store.dialect);
      const t = await targets.save({ url: 'https://two.example' }, DEFAULT_ORGANISATION_ID);
      const ids: number[] = [];
      for (let i = 0; i < 20; i++)
        ids.push((await queue.enqueue(t.id, { kind: 'conformance', profile: 'gate', only: [] })).id);
      const a = hubProcess(database, 'fast');
      const b = hubProcess(database, 'fast');
      for (;;) {
        const jobs = await queue.list([DEFAULT_ORGANISATION_ID], { limit: 100 });
        if (jobs.every((j) => j.state === 'done')) break;
        // a job that ended otherwise (interrupted, failed) never becomes done: say which, instead of a timeout
        const ended = jobs.filter((j) => j.state !== 'done' && j.state !== 'queued' && j.state !== 'running');
        expect(ended.map((j) => `${j.id} ${j.state}`)).toEqual([]);
        await new Promise((r) => setTimeout(r, 100));
      }
      const executed = [...a.lines, ...b.lines].filter((l) => l.startsWith('executed ')).map((l) => Number(l.slice(9)));
      expect(executed.sort((x, y) => x - y)).toEqual(ids);
      const runs = await store.db.selectFrom('jobs').select('run_id').execute();
      expect(new Set(runs.map((r) => r.run_id)).size).toBe(20);
    } finally {
      await store.close();
      for (const p of procs.splice(0)) {
        if (p.child.pid) process.kill(p.child.pid, 'SIGKILL');
        await exited(p.child);
      }
      await drop();
    }
  });
});

describe.each(testDialects)('kill -9 of a hub on %s', (dialect) => {
  let hub: RunningHub | undefined;
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });

  it('during an ingest leaves no half-stored run', async () => {
    const { database, drop } = await freshDatabase(dialect);
    try {
      const p = hubProcess(database, 'ingest');
      await p.waitFor(/^stored 2$/);
      // the process does nothing but ingest: the kill lands inside one
      await new Promise((r) => setTimeout(r, 150));
      if (p.child.pid) process.kill(p.child.pid, 'SIGKILL');
      await exited(p.child);
      const store = await HubStore.open(database);
      try {
        const runs = await store.db.selectFrom('runs').select('id').execute();
        expect(runs.length).toBeGreaterThanOrEqual(2);
        for (const r of runs) {
          const files = await store.db.selectFrom('run_files').select(['sha256']).where('run_id', '=', r.id).execute();
          // results.json, junit.xml, summary.md, report.html and 400 data files: all of them or none
          expect(files.length).toBe(404);
          const blobs = await store.db
            .selectFrom('blobs')
            .select('sha256')
            .where(
              'sha256',
              'in',
              files.map((f) => f.sha256),
            )
            .execute();
          expect(new Set(blobs.map((b) => b.sha256)).size).toBe(new Set(files.map((f) => f.sha256)).size);
          const verdicts = await store.db
            .selectFrom('rule_verdicts')
            .select('rule_id')
            .where('run_id', '=', r.id)
            .execute();
          expect(verdicts.length).toBeGreaterThan(0);
        }
        const stray = await store.db
          .selectFrom('run_files')
          .select('run_id')
          .where(
            'run_id',
            'not in',
            runs.map((r) => r.id),
          )
          .execute();
        expect(stray).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      await drop();
    }
  });

  it('during a run: after a restart the run is marked interrupted with what it judged', async () => {
    const { database, drop } = await freshDatabase(dialect);
    try {
      const store = await HubStore.open(database);
      const t = await new SavedTargets(
        store.db,
        undefined,
        undefined,
        parseTargetGuard(undefined, testResolver()),
      ).save({ url: 'https://kill.example' }, DEFAULT_ORGANISATION_ID);
      const job = await new JobQueue(store.db, store.dialect).enqueue(t.id, {
        kind: 'conformance',
        profile: 'gate',
        only: [],
      });
      await store.close();
      const p = hubProcess(database, 'hang');
      await p.waitFor(new RegExp(`^executing ${job.id}$`));
      if (p.child.pid) process.kill(p.child.pid, 'SIGKILL');
      await exited(p.child);
      hub = await startHub({
        port: 0,
        database,
        executor: new FakeExecutor(),
        resolver: testResolver(),
        timing: { pollMs: 50, heartbeatMs: 50, staleMs: 300 },
      });
      const queue = new JobQueue(hub.store.db, hub.store.dialect);
      let state = await queue.get(job.id);
      for (let i = 0; i < 200 && state?.state === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        state = await queue.get(job.id);
      }
      expect(state).toMatchObject({ state: 'interrupted', message: RESTARTED });
      expect(await queue.judged(job.id)).toEqual({ 'REST.VERSION.PATH': 'PASS' });
    } finally {
      await hub?.close();
      hub = undefined;
      await drop();
    }
  });
});
