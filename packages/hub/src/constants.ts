/**
 * What the CLI needs to declare the hub's commands without loading the hub (its store, kysely, pg, hono load only
 * when `erpcert hub` or `publish` runs): `@erpcert/hub/constants`.
 */
export { ROLES } from './auth/oidc/group-mapping.js';
export { CALLBACK_PATH as OIDC_CALLBACK_PATH, OIDC_DEFAULTS, OIDC_SECRET_ENV } from './auth/oidc/oidc-settings.js';
export { DEFAULT_LIMITS } from './ingest/limits.js';

/** The environment variable holding an organisation's API token on the publishing side (the hub does not read it). */
export const TOKEN_ENV = 'ERPCERT_HUB_TOKEN';

/** The default SQLite file, relative to the working folder. */
export const DEFAULT_DATABASE = './erpcert-hub/hub.sqlite';
