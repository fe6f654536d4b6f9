/**
 * `erpcert hub`'s OpenID Connect options: listed in --help, every wrong setting refused with exit 2 before anything
 * starts (no database file made), the client secret never printed; with good settings the hub serves /auth/oidc.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { erpcert } from '../testing/run-cli.js';
import { startChild, stopChild } from '../testing/serve-child.js';

const SECRET = 'planted-cli-oidc-secret-91d0';
const root = mkdtempSync(join(tmpdir(), 'erpcert-hub-oidc-'));
writeFileSync(join(root, 'map-good.json'), JSON.stringify({ 'cn=eng,dc=acme': 'acme:engineer' }));
writeFileSync(join(root, 'map-bad.json'), JSON.stringify({ 'cn=eng,dc=acme': 'acme:owner' }));
writeFileSync(join(root, 'map-broken.json'), '{ "cn=eng": ');

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const GOOD = [
  '--oidc-issuer',
  'https://id.example.com/realms/erp',
  '--oidc-client-id',
  'erpcert-hub',
  '--oidc-redirect-uri',
  'https://hub.example.com/auth/oidc/callback',
];

/** GOOD with one flag's value replaced, or removed when `value` is undefined. */
function goodBut(flag: string, value: string | undefined): string[] {
  const args = [...GOOD];
  const at = args.indexOf(flag);
  if (value === undefined) args.splice(at, 2);
  else args[at + 1] = value;
  return args;
}

describe('erpcert hub --oidc-*', () => {
  it('lists its options and the secret variable in --help', async () => {
    const r = await erpcert(['hub', '--help'], root);
    expect(r.code).toBe(0);
    for (const flag of [
      '--oidc-issuer URL',
      '--oidc-client-id ID',
      '--oidc-redirect-uri URL',
      '--oidc-scopes SCOPES',
      '--oidc-groups-claim CLAIM',
      '--oidc-group-prefix PREFIX',
      '--oidc-group-map FILE',
      '--oidc-admin-group GROUP',
    ])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain('ERPCERT_OIDC_CLIENT_SECRET');
  });

  const refused: [string, string[], NodeJS.ProcessEnv, RegExp][] = [
    ['no client secret', GOOD, {}, /ERPCERT_OIDC_CLIENT_SECRET must hold the client secret/],
    [
      'no client id',
      goodBut('--oidc-client-id', undefined),
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-client-id is required/,
    ],
    [
      'an http:// issuer elsewhere than loopback',
      goodBut('--oidc-issuer', 'http://id.example.com'),
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-issuer must be https:\/\//,
    ],
    [
      'a redirect URI to another path',
      goodBut('--oidc-redirect-uri', 'https://hub.example.com/'),
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /followed by \/auth\/oidc\/callback/,
    ],
    [
      'scopes without openid',
      [...GOOD, '--oidc-scopes', 'email'],
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-scopes must include openid/,
    ],
    [
      'a client id without an issuer',
      ['--oidc-client-id', 'x'],
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-client-id needs --oidc-issuer/,
    ],
    [
      'a missing group map',
      [...GOOD, '--oidc-group-map', 'nope.json'],
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-group-map: cannot read nope.json: ENOENT/,
    ],
    [
      'a group map that is not JSON',
      [...GOOD, '--oidc-group-map', 'map-broken.json'],
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /map-broken.json is not valid JSON/,
    ],
    [
      'a group map with an unknown role',
      [...GOOD, '--oidc-group-map', 'map-bad.json'],
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-group-map: group "cn=eng,dc=acme": "acme:owner" is not/,
    ],
    [
      'an unknown oidc option',
      [...GOOD, '--oidc-secret', SECRET],
      { ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /unknown option --oidc-secret/,
    ],
    [
      'an issuer from the environment that is no URL',
      [],
      { ERPCERT_OIDC_ISSUER: 'id.example.com', ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      /--oidc-issuer must be an absolute URL/,
    ],
  ];
  it.each(refused)('refuses %s: exit 2, nothing started, the secret not shown', async (_name, args, env, message) => {
    const r = await erpcert(['hub', '--port', '0', ...args], root, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(readdirSync(root).sort()).toEqual(['map-bad.json', 'map-broken.json', 'map-good.json']);
  });

  it('starts with good settings and serves the sign-in page; the secret is never printed', async () => {
    const data = mkdtempSync(join(tmpdir(), 'erpcert-hub-oidc-db-'));
    const hub = await startChild(
      'hub',
      ['--database', join(data, 'hub.sqlite'), '--workers', '0', ...GOOD, '--oidc-group-map', 'map-good.json'],
      {
        cwd: root,
        env: { ...process.env, ERPCERT_OIDC_CLIENT_SECRET: SECRET },
      },
    );
    try {
      const page = await fetch(`${hub.url}/auth/oidc`);
      expect(page.status).toBe(200);
      const body = await page.text();
      expect(body).toContain('Sign in with OpenID Connect');
      expect(body).toContain('id.example.com');
      expect(hub.stderr).toMatch(
        /OpenID Connect sign-in at http:\/\/127\.0\.0\.1:\d+\/auth\/oidc \(issuer https:\/\/id\.example\.com\/realms\/erp, client erpcert-hub\)/,
      );
      expect(hub.stderr + body).not.toContain(SECRET);
    } finally {
      await stopChild(hub);
      rmSync(data, { recursive: true, force: true });
    }
  }, 60_000);
});
