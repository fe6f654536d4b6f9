/**
 * `erpcert hub`'s OpenID Connect options: the flags (each also ERPCERT_OIDC_* in the environment or the config
 * file), and the settings made of them, checked by the hub's oidcSettings before anything starts. The client secret
 * is read from ERPCERT_OIDC_CLIENT_SECRET only, and no message shows it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OidcSettings } from '@erpcert/hub';
import { OIDC_CALLBACK_PATH, OIDC_DEFAULTS, OIDC_SECRET_ENV, ROLES } from '@erpcert/hub/constants';
import type { FlagDef, OptionValues } from '../options.js';
import { UsageError } from '../options.js';

export const oidcFlags: readonly FlagDef[] = [
  {
    name: 'oidc-issuer',
    type: 'string',
    arg: 'URL',
    help: "OpenID Connect sign-in: the provider's issuer URL (https://; http:// only on loopback); turns sign-in on",
  },
  { name: 'oidc-client-id', type: 'string', arg: 'ID', help: "the hub's client id at the provider" },
  {
    name: 'oidc-redirect-uri',
    type: 'string',
    arg: 'URL',
    help: `the hub's public URL + ${OIDC_CALLBACK_PATH}, as registered at the provider`,
  },
  {
    name: 'oidc-scopes',
    type: 'string',
    arg: 'SCOPES',
    default: OIDC_DEFAULTS.scopes,
    help: 'scopes asked for (space-separated, with openid)',
  },
  {
    name: 'oidc-groups-claim',
    type: 'string',
    arg: 'CLAIM',
    default: OIDC_DEFAULTS.groupsClaim,
    help: "the claim that lists the user's groups (a.b for a nested one)",
  },
  {
    name: 'oidc-group-prefix',
    type: 'string',
    arg: 'PREFIX',
    default: OIDC_DEFAULTS.groupPrefix,
    help: 'a group PREFIX<org>:<role> gives that role in that organisation ("" turns this off)',
  },
  {
    name: 'oidc-group-map',
    type: 'string',
    arg: 'FILE',
    help: 'a JSON file { "<group>": "<org>:<role>" or a list of them }, beside the prefix',
  },
  {
    name: 'oidc-admin-group',
    type: 'string',
    arg: 'GROUP',
    default: OIDC_DEFAULTS.adminGroup,
    help: 'members of this group are admins of the hub ("" for none)',
  },
];

export const oidcDetails = [
  'OpenID Connect: with --oidc-issuer, users sign in at /auth/oidc through that provider (authorization code flow',
  `with PKCE); the client secret is read from ${OIDC_SECRET_ENV}. Roles (${ROLES.join(', ')})`,
  'come from the groups claim: PREFIX<org>:<role> groups, the --oidc-group-map file, and --oidc-admin-group.',
].join('\n');

/** The OIDC settings of these options, or undefined when --oidc-issuer is not set; a UsageError says what is wrong. */
export async function oidcOptions(
  values: OptionValues,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<OidcSettings | undefined> {
  const issuer = values['oidc-issuer'] as string | undefined;
  if (!issuer) {
    const stray = ['oidc-client-id', 'oidc-redirect-uri', 'oidc-group-map'].find((n) => values[n] !== undefined);
    if (stray) throw new UsageError(`--${stray} needs --oidc-issuer (OpenID Connect sign-in is off without it)`);
    return undefined;
  }
  let groupMap: unknown;
  const mapFile = values['oidc-group-map'] as string | undefined;
  if (mapFile !== undefined) {
    const path = resolve(cwd, mapFile);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new UsageError(
        `--oidc-group-map: cannot read ${mapFile}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    try {
      groupMap = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`--oidc-group-map: ${mapFile} is not valid JSON: ${(err as Error).message}`);
    }
  }
  // loaded when used, as the rest of the hub
  const { oidcSettings, OidcSettingsError } = await import('@erpcert/hub');
  try {
    return oidcSettings({
      issuer,
      clientId: values['oidc-client-id'] as string | undefined,
      clientSecret: env[OIDC_SECRET_ENV] || undefined,
      redirectUri: values['oidc-redirect-uri'] as string | undefined,
      scopes: values['oidc-scopes'] as string,
      groupsClaim: values['oidc-groups-claim'] as string,
      groupPrefix: values['oidc-group-prefix'] as string,
      groupMap,
      adminGroup: values['oidc-admin-group'] as string,
    });
  } catch (err) {
    if (err instanceof OidcSettingsError) throw new UsageError(err.message);
    throw err;
  }
}
