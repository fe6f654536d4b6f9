/**
 * @erpcert/hub: every run of a team in one place. The store (SQLite or PostgreSQL), ingest of report folders,
 * and the HTTP API under /api/v1; `erpcert hub` starts it, `erpcert publish` feeds it.
 */

export { API_BASE, createHubApp, type HubAppOptions } from './api/hub-app.js';
export { Accounts, type VerifiedIdentity } from './auth/accounts.js';
export { type Actor, type Membership, ROLES, type Role, SCOPES, type Scope } from './auth/actor.js';
export { ApiTokens } from './auth/api-tokens.js';
export { type AuthOptions, type HubAuth, hubAuth } from './auth/hub-auth.js';
export {
  type GroupMapping,
  type Membership as OidcMembership,
  mapGroups,
  ORG_SLUG,
  type OrgRole,
} from './auth/oidc/group-mapping.js';
export type { OidcIdentity, OnSignedIn } from './auth/oidc/oidc-identity.js';
export { oidcSignInLink } from './auth/oidc/oidc-pages.js';
export { type OidcRoutesOptions, oidcRoutes } from './auth/oidc/oidc-routes.js';
export {
  CALLBACK_PATH as OIDC_CALLBACK_PATH,
  OIDC_DEFAULTS,
  OIDC_SECRET_ENV,
  type OidcSettings,
  OidcSettingsError,
  type OidcSettingsInput,
  oidcSettings,
} from './auth/oidc/oidc-settings.js';
export { MemoryTransactions, type OidcTransaction, type OidcTransactionStore } from './auth/oidc/oidc-transactions.js';
export { oidcSignIn } from './auth/oidc-sign-in.js';
export { type Action, can } from './auth/permissions.js';
export { startSession } from './auth/sign-in.js';
export { Certification } from './certification/certification-store.js';
export { DEFAULT_DATABASE, TOKEN_ENV } from './constants.js';
export { type Ingested, ingestFiles, ingestZip } from './ingest/ingest.js';
export { IngestError } from './ingest/ingest-error.js';
export { DEFAULT_LIMITS, type IngestLimits } from './ingest/limits.js';
export { type PublishMeta, prepareRun, runDigest } from './ingest/prepare-run.js';
export { readRunFolder } from './ingest/read-folder.js';
export { readZip } from './ingest/read-zip.js';
export type { RunFiles } from './ingest/run-files.js';
export { signatureText } from './ingest/signature-status.js';
export {
  type ConformSettings,
  type Job,
  JobQueue,
  type LoadSettings,
  type ProgressEvent,
  type RunSettings,
} from './live/job-queue.js';
export type { LoadScenarioChoice } from './live/live-actions.js';
export { EMBEDDED_TARGET, type SavedTarget, SavedTargets, type TargetConnection } from './live/saved-targets.js';
export { NO_SECRET_MESSAGE, SECRET_ENV, SecretBox } from './live/secret-box.js';
export {
  defaultPoolSize,
  type ExecutorContext,
  type ExecutorResult,
  type ExecutorRun,
  type LiveRunExecutor,
  WorkerPool,
} from './live/worker-pool.js';
export { LIVE_SCRIPT_PATH, liveRunSection } from './pages/live-run.js';
export { type HubOptions, type RunningHub, startHub } from './server.js';
export { HubStore, type RunFilter, type TargetSummary } from './store/hub-store.js';
export { DEFAULT_ORGANISATION_ID } from './store/migrations/0003-accounts.js';
export { DatabaseOpenError, isPostgresUrl, shownDatabase } from './store/open-store.js';
export type { RunSummary } from './store/run-summary.js';
