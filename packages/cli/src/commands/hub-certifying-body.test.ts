/**
 * `erpcert hub --certifying-body SLUG`: the operator makes an organisation a certifying body (no organisation can
 * make itself one); organisations then submit signed runs to it. And `--init-admin` makes a hub admin, who makes
 * further organisations and certifying bodies by the API without a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AdminSession, hubWithAdmin } from '../testing/hub-admin.js';
import { erpcert } from '../testing/run-cli.js';
import { stopChild } from '../testing/serve-child.js';

const root = mkdtempSync(join(tmpdir(), 'erpcert-hub-body-'));
let admin: AdminSession | undefined;

afterAll(async () => {
  await stopChild(admin?.hub);
  rmSync(root, { recursive: true, force: true });
});

describe('erpcert hub --certifying-body', () => {
  it('makes the organisation a certifying body, listed by the API and in the audit log', async () => {
    admin = await hubWithAdmin(
      [
        '--port',
        '0',
        '--certifying-body',
        'cert-lab',
        '--organisation',
        'cert-lab',
        '--database',
        join(root, 'hub.sqlite'),
      ],
      {
        cwd: root,
      },
    );
    expect(admin.hub.stderr).toMatch(/cert-lab is a certifying body/);
    const res = await fetch(`${admin.hub.url}/api/v1/certifying-bodies`, { headers: admin.headers });
    expect(res.status).toBe(200);
    const { bodies } = (await res.json()) as { bodies: { id: number; slug: string }[] };
    expect(bodies.map((b) => b.slug)).toEqual(['cert-lab']);
    const audit = await fetch(`${admin.hub.url}/api/v1/organisations/${bodies[0]?.id}/audit`, {
      headers: admin.headers,
    });
    expect(audit.status).toBe(200);
    expect(JSON.stringify(await audit.json())).toMatch(/"action":"make-certifying-body"/);
  });

  it('--init-admin makes a hub admin: it makes an organisation and a certifying body by the API, no restart', async () => {
    const hub = admin?.hub.url as string;
    const me = (await (await fetch(`${hub}/api/v1/session`, { headers: admin?.headers })).json()) as {
      user: { hubAdmin: boolean };
    };
    expect(me.user.hubAdmin).toBe(true);
    const made = await fetch(`${hub}/api/v1/organisations`, {
      method: 'POST',
      headers: admin?.headers,
      body: JSON.stringify({ slug: 'vendor-a', name: 'Vendor A', adminEmail: 'lead@vendor-a.example' }),
    });
    expect(made.status).toBe(201);
    const { organisation, signInLink } = (await made.json()) as {
      organisation: { id: number; certifyingBody: boolean };
      signInLink: string;
    };
    expect([organisation.certifyingBody, signInLink]).toEqual([
      false,
      expect.stringMatching(/^\/sign-in\/link\?token=/),
    ]);
    const flagged = await fetch(`${hub}/api/v1/organisations/${organisation.id}`, {
      method: 'PATCH',
      headers: admin?.headers,
      body: JSON.stringify({ certifyingBody: true }),
    });
    expect(flagged.status).toBe(200);
    const { bodies } = (await (await fetch(`${hub}/api/v1/certifying-bodies`)).json()) as {
      bodies: { slug: string }[];
    };
    expect(bodies.map((b) => b.slug).sort()).toEqual(['cert-lab', 'vendor-a']);
  });

  it('without it, no organisation is a certifying body', async () => {
    const other = await hubWithAdmin(['--port', '0', '--database', join(root, 'plain.sqlite')], { cwd: root });
    try {
      const res = await fetch(`${other.hub.url}/api/v1/certifying-bodies`, { headers: other.headers });
      expect(((await res.json()) as { bodies: unknown[] }).bodies).toEqual([]);
    } finally {
      await stopChild(other.hub);
    }
  });

  it('exits 2 on a value that is no slug, and starts nothing', async () => {
    const r = await erpcert(['hub', '--port', '0', '--certifying-body', 'Cert Lab'], root, {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--certifying-body is an organisation slug/);
  });
});
