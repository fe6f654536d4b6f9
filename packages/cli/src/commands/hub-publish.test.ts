import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Masker } from '@erpcert/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleResults } from '../reports/testing.js';
import { writeReports } from '../reports/write-reports.js';
import { type AdminSession, hubWithAdmin } from '../testing/hub-admin.js';
import { erpcert } from '../testing/run-cli.js';
import { type Served, stopChild } from '../testing/serve-child.js';

/** An API token with the publish scope, made by the admin once the hub is up (what CI holds). */
let TOKEN = '';
let admin: AdminSession;
const root = mkdtempSync(join(tmpdir(), 'erpcert-hub-cli-'));
const folder = join(root, 'reports', 'run1');
writeReports(sampleResults(), folder, { docsBase: '', masker: new Masker() });

let hub: Served | undefined;
let url = '';

beforeAll(async () => {
  admin = await hubWithAdmin(['--database', join(root, 'hub', 'hub.sqlite')], { cwd: root, env: process.env });
  hub = admin.hub;
  url = hub.url;
  TOKEN = await admin.token(['publish']);
});

afterAll(async () => {
  await stopChild(hub);
  rmSync(root, { recursive: true, force: true });
});

let read = '';
const readToken = async () => {
  read ||= await admin.token(['read']);
  return read;
};

describe('erpcert hub and erpcert publish', () => {
  it('publishes a folder: new the first time, already there the second, the token never printed', async () => {
    const first = await erpcert(['publish', 'reports/run1', '--hub', url, '--build', 'abc123'], root, {
      ERPCERT_HUB_TOKEN: TOKEN,
    });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^new +run (\d+) {2}reports\/run1 {2}unsigned {2}http:\/\/127\.0\.0\.1:\d+\/api\/v1\/runs\/\1$/m,
    );
    expect(first.stdout).toMatch(/^1 new, 0 already there$/m);
    const again = await erpcert(['publish', 'reports/run1', '--hub', `${url}/`], root, { ERPCERT_HUB_TOKEN: TOKEN });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^already there {2}run \d+ {2}reports\/run1/m);
    expect(again.stdout).toMatch(/^0 new, 1 already there$/m);
    for (const text of [first.stdout, first.stderr, again.stdout, again.stderr, hub!.stderr])
      expect(text).not.toContain(TOKEN);
    const runs = (await (await fetch(`${url}/api/v1/targets`, { headers: admin.headers })).json()) as {
      targets: { runCount: number; latest: { build: string } }[];
    };
    expect(runs.targets).toHaveLength(1);
    expect(runs.targets[0]).toMatchObject({ runCount: 1, latest: { build: 'abc123' } });
  });

  const refused: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
    ['no token', ['publish', 'reports/run1', '--hub', 'HUB'], {}, /the hub's token is missing: set ERPCERT_HUB_TOKEN/],
    [
      'a wrong token',
      ['publish', 'reports/run1', '--hub', 'HUB'],
      { ERPCERT_HUB_TOKEN: 'wrong' },
      /refused it \(401\): the token is unknown, revoked or expired/,
    ],
    [
      'a token without the publish scope',
      ['publish', 'reports/run1', '--hub', 'HUB'],
      { ERPCERT_HUB_TOKEN: 'READ_TOKEN' },
      /refused it \(403\): your token may not publish runs/,
    ],
    ['no --hub', ['publish', 'reports/run1'], { ERPCERT_HUB_TOKEN: 'TOKEN' }, /--hub URL is required/],
    [
      'a folder that is not there',
      ['publish', 'reports/none', '--hub', 'HUB'],
      { ERPCERT_HUB_TOKEN: 'TOKEN' },
      /reports\/none does not exist/,
    ],
    [
      'a folder without results.json',
      ['publish', 'reports', '--hub', 'HUB'],
      { ERPCERT_HUB_TOKEN: 'TOKEN' },
      /reports holds no results\.json: is it a report folder of erpcert conform or load\?/,
    ],
    [
      'conform --publish without a token',
      ['conform', '--publish', 'HUB'],
      {},
      /--publish needs the hub's token in ERPCERT_HUB_TOKEN\. Nothing was run\./,
    ],
    [
      'load --publish without a token',
      ['load', '--publish', 'HUB'],
      {},
      /--publish needs the hub's token in ERPCERT_HUB_TOKEN\. Nothing was run\./,
    ],
  ];
  it.each(refused)('exits 2 with %s, saying why', async (_name, args, env, message) => {
    const tokens: Record<string, string> = { TOKEN, READ_TOKEN: await readToken() };
    const r = await erpcert(
      args.map((a) => (a === 'HUB' ? url : a)),
      root,
      Object.fromEntries(Object.entries(env).map(([k, v]) => [k, tokens[v ?? ''] ?? v])),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('prints a one-time sign-in link for --init-admin that works once', async () => {
    const link = /^(http:\/\/\S+\/sign-in\/link\?token=\S+)$/m.exec(hub!.stdout)?.[1] as string;
    expect(hub!.stderr).toMatch(
      /admin@example\.com is admin of default and a hub admin \(makes organisations on \/organisations\): open the link above within 15 minutes/,
    );
    expect(hub!.stderr).not.toContain(new URL(link).searchParams.get('token') as string);
    const again = await fetch(`${url}/api/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ link: new URL(link).searchParams.get('token') }),
    });
    expect(again.status).toBe(401);
  });

  it('exits 2 when its database cannot be opened, the password masked', async () => {
    const r = await erpcert(['hub', '--port', '0', '--database', 'postgres://hub:topsecret@127.0.0.1:1/hub'], root, {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot start: cannot migrate the database postgres:\/\/hub:\*\*\*@127\.0\.0\.1:1\/hub/);
    expect(r.stderr + r.stdout).not.toContain('topsecret');
  });

  it('stops on SIGTERM with exit 0', async () => {
    const exited = new Promise<number | null>((r) => hub!.child.once('exit', (code) => r(code)));
    hub!.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(hub!.stderr).toMatch(/SIGTERM, stopping/);
  });
});
