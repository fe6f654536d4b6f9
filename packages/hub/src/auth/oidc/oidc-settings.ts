/**
 * The settings of OpenID Connect sign-in, checked once at start-up: a wrong one is refused with a message that says
 * which and why (the CLI prints it and exits 2). The client secret comes from {@link OIDC_SECRET_ENV} only and no
 * message ever shows it.
 */
import { GroupMapError, type GroupMapping, parseGroupMap } from './group-mapping.js';

/** Where the client secret comes from (never a command-line flag: it would show in the process list). */
export const OIDC_SECRET_ENV = 'ERPCERT_OIDC_CLIENT_SECRET';

/** The path the provider sends the browser back to; the redirect URI registered at the provider ends with it. */
export const CALLBACK_PATH = '/auth/oidc/callback';
export const START_PATH = '/auth/oidc/start';
/** The page with the "Sign in with OpenID Connect" link. */
export const SIGN_IN_PATH = '/auth/oidc';

export const OIDC_DEFAULTS = {
  scopes: 'openid email profile',
  groupsClaim: 'groups',
  groupPrefix: 'erpcert:',
  adminGroup: 'erpcert:admin',
} as const;

/** What the operator gives (flags, environment, a group map file already parsed as JSON). */
export interface OidcSettingsInput {
  readonly issuer?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly redirectUri?: string;
  /** Space-separated; must hold `openid`. @defaultValue `openid email profile` */
  readonly scopes?: string;
  /** @defaultValue `groups` */
  readonly groupsClaim?: string;
  /** Groups `<prefix><organisation>:<role>` give that role; empty turns the pattern off. @defaultValue `erpcert:` */
  readonly groupPrefix?: string;
  /** An explicit map: group value -> `"<organisation>:<role>"` or a list of them (JSON). */
  readonly groupMap?: unknown;
  /** The group whose members are admins of the hub; empty for none. @defaultValue `erpcert:admin` */
  readonly adminGroup?: string;
}

export interface OidcSettings {
  readonly issuer: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: URL;
  readonly scopes: readonly string[];
  readonly groupsClaim: string;
  readonly mapping: GroupMapping;
  /** http:// on a loopback address: a local provider (tests, a developer's machine). */
  readonly insecureLoopback: boolean;
}

/** A setting that is wrong: the message names it and says what is expected (never a secret's value). */
export class OidcSettingsError extends Error {
  override readonly name = 'OidcSettingsError';
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function httpUrl(name: string, text: string | undefined): URL {
  if (!text) throw new OidcSettingsError(`${name} is required for OpenID Connect sign-in`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OidcSettingsError(`${name} must be an absolute URL, got ${JSON.stringify(text)}`);
  }
  if (url.username || url.password) throw new OidcSettingsError(`${name} must not carry a user or password`);
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return url;
  throw new OidcSettingsError(
    `${name} must be https:// (http:// only on 127.0.0.1, localhost or [::1]), got ${JSON.stringify(url.origin)}`,
  );
}

function explicitMap(doc: unknown): GroupMapping['explicit'] {
  try {
    return parseGroupMap(doc);
  } catch (err) {
    if (err instanceof GroupMapError) throw new OidcSettingsError(`--oidc-group-map: ${err.message}`);
    throw err;
  }
}

/** Checks every setting; throws {@link OidcSettingsError} on the first that is wrong. */
export function oidcSettings(i: OidcSettingsInput): OidcSettings {
  const issuer = httpUrl('--oidc-issuer', i.issuer);
  if (issuer.search || issuer.hash)
    throw new OidcSettingsError('--oidc-issuer must be the issuer identifier: no query, no fragment');
  const clientId = i.clientId?.trim();
  if (!clientId) throw new OidcSettingsError('--oidc-client-id is required with --oidc-issuer');
  if (!i.clientSecret)
    throw new OidcSettingsError(`${OIDC_SECRET_ENV} must hold the client secret registered at the provider`);
  const redirectUri = httpUrl('--oidc-redirect-uri', i.redirectUri);
  if (!redirectUri.pathname.endsWith(CALLBACK_PATH) || redirectUri.search || redirectUri.hash)
    throw new OidcSettingsError(
      `--oidc-redirect-uri must be the hub's public URL followed by ${CALLBACK_PATH} (no query), got ${JSON.stringify(redirectUri.href)}`,
    );
  const scopes = (i.scopes ?? OIDC_DEFAULTS.scopes).split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid'))
    throw new OidcSettingsError(`--oidc-scopes must include openid, got ${JSON.stringify(scopes.join(' '))}`);
  const groupsClaim = (i.groupsClaim ?? OIDC_DEFAULTS.groupsClaim).trim();
  if (!groupsClaim) throw new OidcSettingsError('--oidc-groups-claim must name a claim');
  const mapping: GroupMapping = {
    prefix: i.groupPrefix ?? OIDC_DEFAULTS.groupPrefix,
    explicit: explicitMap(i.groupMap),
    adminGroup: i.adminGroup ?? OIDC_DEFAULTS.adminGroup,
  };
  if (mapping.prefix === '' && mapping.explicit.size === 0 && mapping.adminGroup === '')
    throw new OidcSettingsError(
      'no group gives access: set --oidc-group-prefix, --oidc-group-map or --oidc-admin-group',
    );
  return {
    issuer,
    clientId,
    clientSecret: i.clientSecret,
    redirectUri,
    scopes,
    groupsClaim,
    mapping,
    insecureLoopback: issuer.protocol === 'http:',
  };
}
