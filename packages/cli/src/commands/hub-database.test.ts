/**
 * `erpcert hub --database :memory:`: SQLite's in-process database, for a throwaway hub (a demo, a test). It is a
 * name SQLite knows, not a file: nothing is written to the working folder, and a run published to it is served.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AdminSession, hubWithAdmin } from '../testing/hub-admin.js';
import { stopChild } from '../testing/serve-child.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-hub-memory-'));
let admin: AdminSession | undefined;

afterAll(async () => {
  await stopChild(admin?.hub);
  rmSync(root, { recursive: true, force: true });
});

describe('erpcert hub --database :memory:', () => {
  it('serves from a database in the process and writes no file to the working folder', async () => {
    admin = await hubWithAdmin(['--port', '0', '--database', ':memory:'], { cwd: root });
    const res = await fetch(`${admin.hub.url}/api/v1/targets`, { headers: admin.headers });
    expect(res.status).toBe(200);
    expect(admin.hub.stderr).toMatch(/\(database :memory:;/);
    expect(readdirSync(root)).toEqual([]);
  });
});
