/**
 * A real OpenID Connect provider for the tests (oidc-provider, with its development sign-in pages: any login name,
 * any password) on 127.0.0.1 with a free port. One confidential client (client_secret_basic, PKCE required), users
 * with email, name and a `groups` claim. By default the ID token carries only `sub` and the rest comes from UserInfo,
 * as oidc-provider does for a code flow; `claimsInIdToken` puts them in the ID token, as many providers do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestUser {
  readonly email: string;
  readonly name: string;
  readonly groups: readonly string[];
}

export interface TestProviderOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  /** By login name (the `sub`). */
  readonly users: Readonly<Record<string, TestUser>>;
  readonly claimsInIdToken?: boolean;
}

export interface TestProvider {
  readonly issuer: string;
  close(): Promise<void>;
}

/** A server listening on 127.0.0.1:0 now, whose handler is given later (when the URL of the other side is known). */
export async function listenFirst(): Promise<{ server: Server; url: string }> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

export async function startTestProvider(o: TestProviderOptions): Promise<TestProvider> {
  const { server, url } = await listenFirst();
  const provider = new Provider(url, {
    clients: [
      {
        client_id: o.clientId,
        client_secret: o.clientSecret,
        redirect_uris: [o.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    conformIdTokenClaims: !o.claimsInIdToken,
    pkce: { required: () => true },
    // lifetimes set (in seconds), so that the provider does not log a notice for each default it uses
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    cookies: { keys: ['oidc-test-provider-cookie-key'] },
    async findAccount(_ctx, id) {
      const user = o.users[id];
      if (!user) return undefined;
      return {
        accountId: id,
        async claims() {
          return { sub: id, email: user.email, email_verified: true, name: user.name, groups: [...user.groups] };
        },
      };
    },
  });
  // the development pages log a warning that they are for development: this provider is exactly that
  server.on('request', provider.callback());
  return { issuer: url, close: () => closeServer(server) };
}
