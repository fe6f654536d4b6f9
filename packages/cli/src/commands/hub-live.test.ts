import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminSession, hubWithAdmin } from '../testing/hub-admin.js';
import { erpcert } from '../testing/run-cli.js';
import { type Served, stopChild } from '../testing/serve-child.js';

const PASSWORD = 'PLANTED-cli-hub-31f0';
const root = mkdtempSync(join(tmpdir(), 'erpcert-hub-live-'));
let hub: Served | undefined;
let url = '';
let admin: AdminSession;

beforeAll(async () => {
  // the target below is on loopback: opened by --allow-targets (refused by default)
  admin = await hubWithAdmin(
    ['--workers', '1', '--allow-targets', '127.0.0.1/32', '--database', join(root, 'hub.sqlite')],
    {
      cwd: root,
      env: { ...process.env, ERPCERT_HUB_SECRET: 'cli-hub-secret-0123456789abcdef' },
    },
  );
  hub = admin.hub;
  url = hub.url;
});

afterAll(async () => {
  await stopChild(hub);
  rmSync(root, { recursive: true, force: true });
});

describe('erpcert hub with ERPCERT_HUB_SECRET and --workers', () => {
  it('saves a password, executes a live run with the erpcert bin, and logs no password', async () => {
    // stdout's URL line comes first; stderr's lines follow
    for (let i = 0; i < 100 && !hub!.stderr.includes('live run(s) at once'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(hub!.stderr).toContain('executing up to 1 live run(s) at once');
    // the admin's session: saving a target needs a person (engineer or admin)
    const headers = admin.headers;
    // a target nobody listens on: conform says it cannot reach it, and the run ends failed with that message
    const saved = await fetch(`${url}/api/v1/saved-targets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: 'http://127.0.0.1:9', user: 'u', password: PASSWORD, compcode: 1 }),
    });
    const target = (await saved.json()) as { id: number; password: string };
    expect(saved.status).toBe(201);
    expect(target.password).toBe('set');
    const started = await fetch(`${url}/api/v1/saved-targets/${target.id}/live-runs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ kind: 'conformance', only: ['REST.VERSION.*'] }),
    });
    const { id } = (await started.json()) as { id: number };
    let run: { state: string; message: string | null; exitCode: number | null } = {
      state: 'queued',
      message: null,
      exitCode: null,
    };
    for (let i = 0; i < 600 && ['queued', 'running'].includes(run.state); i++) {
      await new Promise((r) => setTimeout(r, 200));
      run = (await (await fetch(`${url}/api/v1/live-runs/${id}`, { headers })).json()) as typeof run;
    }
    expect(run.state).toBe('failed');
    expect(run.exitCode).toBe(2);
    expect(run.message).toMatch(/^erpcert conform could not run: /);
    const events = await (await fetch(`${url}/api/v1/live-runs/${id}/events`, { headers })).text();
    expect(events).toContain('event: log');
    expect(`${events}${hub!.stderr}${run.message}`).not.toContain(PASSWORD);
  }, 180_000);

  it.each([
    [['--allow-targets', '169.254.169.254'], {}, /overlaps 169\.254\.0\.0\/16, link-local/],
    [[], { ERPCERT_ALLOW_TARGETS: '10.0.0.0/99' }, /"10\.0\.0\.0\/99" is not an address or a CIDR block/],
  ])('refuses an allow-list it cannot use, exit 2, nothing started (%j %j)', async (args, env, message) => {
    const r = await erpcert(['hub', '--port', '0', '--database', join(root, 'never.sqlite'), ...args], root, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
});
