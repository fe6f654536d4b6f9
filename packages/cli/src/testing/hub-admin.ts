/**
 * A hub child started with `--init-admin`, signed in through its one-time link (as the admin would in a browser,
 * by the API here), with an API token made as an admin makes one: what CI then sends as ERPCERT_HUB_TOKEN.
 */
import { expect } from 'vitest';
import { type Served, startChild } from './serve-child.js';

export const ADMIN_EMAIL = 'admin@example.com';

export interface AdminSession {
  readonly hub: Served;
  /** The admin's cookie and CSRF token: headers of a state-changing request. */
  readonly headers: Record<string, string>;
  /** Makes an API token of the default organisation with `scopes`; returns its secret. */
  token(scopes: readonly ('publish' | 'read' | 'run')[]): Promise<string>;
}

/** A hub child started with `--init-admin ADMIN_EMAIL`, and the one-time sign-in link it printed (not used yet). */
export async function hubWithLink(
  args: readonly string[],
  o: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<{ readonly hub: Served; readonly link: string }> {
  const hub = await startChild('hub', [...args, '--init-admin', ADMIN_EMAIL], o);
  let link: string | undefined;
  for (let i = 0; i < 200 && !link; i++) {
    link = /^(http:\/\/\S+\/sign-in\/link\?token=\S+)$/m.exec(hub.stdout)?.[1];
    if (!link) await new Promise((r) => setTimeout(r, 50));
  }
  expect(link, `no sign-in link in: ${hub.stdout}`).toBeDefined();
  return { hub, link: link as string };
}

export async function hubWithAdmin(
  args: readonly string[],
  o: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<AdminSession> {
  const { hub, link } = await hubWithLink(args, o);
  const secret = new URL(link).searchParams.get('token');
  const res = await fetch(`${hub.url}/api/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ link: secret }),
  });
  expect(res.status).toBe(201);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const headers = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
  return {
    hub,
    headers,
    async token(scopes) {
      const made = await fetch(`${hub.url}/api/v1/organisations/1/tokens`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `test ${scopes.join('+')}`, scopes, days: 1 }),
      });
      expect(made.status).toBe(201);
      return ((await made.json()) as { secret: string }).secret;
    },
  };
}
