import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/erpcert.mjs', import.meta.url));
const BASIC = `Basic ${Buffer.from('erpcert:erpcert').toString('base64')}`;
const dir = mkdtempSync(join(tmpdir(), 'erpcert-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Serve {
  url: string;
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
const running: Serve[] = [];
afterEach(() => {
  for (const s of running.splice(0)) if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill('SIGKILL');
});

/** Starts `erpcert serve` as a child process and waits for the URL line. */
function serve(args: string[]): Promise<Serve> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  proc.stderr!.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) {
        const s = { url: line!, proc, stdout: () => out, stderr: () => err, exited };
        running.push(s);
        resolve(s);
      }
    });
    exited.then(({ code }) => reject(new Error(`erpcert serve exited ${code} before listening: ${err}`)));
  });
}

async function stop(s: Serve, signal: NodeJS.Signals = 'SIGTERM') {
  s.proc.kill(signal);
  return s.exited;
}

const form = (pairs: Record<string, string>) => ({
  method: 'POST',
  headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
  body: new URLSearchParams(pairs).toString(),
});
const getJson = async (url: string, headers: Record<string, string> = { authorization: BASIC }) =>
  fetch(url, { headers: { accept: 'application/json', ...headers } });

// each test starts the server process (tsx compiles it first): generous time on a busy 2-core machine
describe('erpcert serve (as a process)', { timeout: 120_000 }, () => {
  it('prints one line, the base URL; answers Basic, HSESSION and OAuth; stops on SIGTERM', async () => {
    const s = await serve(['--seed-size', '10', '--password', 'not-printed-pw']);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const auth = `Basic ${Buffer.from('erpcert:not-printed-pw').toString('base64')}`;
    const root = await fetch(`${s.url}/api/1/`, { headers: { authorization: auth } });
    expect(root.status).toBe(200);
    const cookie = root.headers.get('set-cookie')!.split(';')[0]!;
    expect((await getJson(`${s.url}/api/1/CUVc?limit=1`, { cookie })).status).toBe(200);
    expect((await getJson(`${s.url}/api/1/CUVc?limit=1`, {})).status).toBe(401);

    const token = await fetch(`${s.url}/oauth-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=erpcert-client&client_secret=erpcert-secret',
    });
    const { access_token } = (await token.json()) as { access_token: string };
    expect((await getJson(`${s.url}/api/1/TRVc?limit=1`, { authorization: `Bearer ${access_token}` })).status).toBe(
      200,
    );

    const redirect = 'http://127.0.0.1:1/cb';
    const authorize = await fetch(
      `${s.url}/oauth-authorize?response_type=code&client_id=erpcert-client&state=xyz&redirect_uri=${encodeURIComponent(redirect)}`,
      { redirect: 'manual' },
    );
    const location = new URL(authorize.headers.get('location')!);
    expect(location.searchParams.get('state')).toBe('xyz');
    const exchanged = await fetch(`${s.url}/oauth-token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('erpcert-client:erpcert-secret').toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code')!,
        redirect_uri: redirect,
      }).toString(),
    });
    expect(exchanged.status).toBe(200);

    expect(await stop(s)).toEqual({ code: 0, signal: null });
    expect(s.stdout()).toBe(`${s.url}\n`);
    expect(s.stderr()).not.toContain('not-printed-pw');
  });

  it('keeps data across a restart with --db and does not seed it again', async () => {
    const db = join(dir, 'restart.db');
    const a = await serve(['--db', db, '--seed-size', '5']);
    const posted = await fetch(`${a.url}/api/1/CUVc`, form({ 'set_field.Code': 'KEEP', 'set_field.Name': 'Kept' }));
    const seq = posted.headers.get('sequence');
    await stop(a);
    const b = await serve(['--db', db, '--seed-size', '5']);
    const res = await getJson(`${b.url}/api/1/CUVc/KEEP`);
    expect(res.status).toBe(200);
    expect(res.headers.get('sequence')).toBe(seq);
    expect(await res.text()).toContain('"Name":"Kept"');
    await stop(b);
  });

  it('keeps every acknowledged write after kill -9', async () => {
    const db = join(dir, 'kill.db');
    const a = await serve(['--db', db, '--seed-size', '0']);
    const serNrs: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(
        `${a.url}/api/1/TRVc`,
        form({ 'set_field.TransDate': '2025-01-02', 'set_row_field.0.DebVal': String(i + 1) }),
      );
      const body = (await res.json()) as { data: { TRVc: { Number: string }[] } };
      serNrs.push(body.data.TRVc[0]!.Number);
    }
    expect(await stop(a, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const b = await serve(['--db', db]);
    const list = (await (await getJson(`${b.url}/api/1/TRVc?fields=Number,DSum`)).json()) as {
      data: { TRVc: { Number: string; DSum: string }[] };
    };
    expect(list.data.TRVc.map((r) => r.Number)).toEqual(serNrs);
    expect(list.data.TRVc.map((r) => r.DSum)).toEqual(serNrs.map((_, i) => `${i + 1}.00`));
    await stop(b);
  });

  it('gives concurrent writers distinct sequence and serial numbers and loses no write', async () => {
    const s = await serve(['--seed-size', '0']);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => fetch(`${s.url}/api/1/GCVc`, form({ 'set_field.Amount': `${i}.00` }))),
    );
    const recs = await Promise.all(
      results.map(
        async (r) => ((await r.json()) as { data: { GCVc: { '@sequence': string; SerNr: string }[] } }).data.GCVc[0]!,
      ),
    );
    const seqs = recs.map((r) => Number(r['@sequence']));
    expect(new Set(seqs).size).toBe(40);
    expect(new Set(recs.map((r) => r.SerNr)).size).toBe(40);
    const list = (await (await getJson(`${s.url}/api/1/GCVc?fields=Amount`)).json()) as {
      data: { GCVc: { Amount: string }[] };
    };
    expect(list.data.GCVc.map((r) => r.Amount).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `${i}.00`).sort());
    const sorted = [...seqs].sort((a, b) => a - b);
    expect(sorted[39]! - sorted[0]!).toBe(39);
    await stop(s);
  });

  it('--quirks answers on the raw socket with a bare status line and chunked + Content-Length', async () => {
    const s = await serve(['--seed-size', '0', '--quirks']);
    const port = Number(new URL(s.url).port);
    const bytes = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.write(`GET /api/1/PDVc HTTP/1.1\r\nHost: x\r\nAuthorization: ${BASIC}\r\n\r\n`),
      );
      let got = '';
      socket.on('data', (d) => {
        got += d.toString('latin1');
      });
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    expect(bytes.startsWith('HTTP/1.1 200\r\n')).toBe(true);
    expect(bytes).toMatch(/\r\nContent-Length: \d+\r\n/);
    expect(bytes).toContain('\r\nTransfer-Encoding: chunked\r\n');
    await stop(s);
  });

  it('--allow refuses other clients with 403 and a malformed list exits 2', async () => {
    const s = await serve(['--seed-size', '0', '--allow', '10.0.0.0/8, 192.168.0.1-192.168.0.9']);
    expect((await getJson(`${s.url}/api/1/CUVc`)).status).toBe(403);
    await stop(s);
    const ok = await serve(['--seed-size', '0', '--allow', '127.0.0.1']);
    expect((await getJson(`${ok.url}/api/1/CUVc`)).status).toBe(200);
    await stop(ok);
    await expect(serve(['--allow', '10.0.0.0/40'])).rejects.toThrow(/exited 2 .*--allow/s);
  });
});
