/**
 * @erpcert/hub: every run of a team in one place. The store (SQLite or PostgreSQL), ingest of report folders,
 * and the HTTP API under /api/v1; `erpcert hub` starts it, `erpcert publish` feeds it.
 */

export { API_BASE, createHubApp, type HubAppOptions } from './api/hub-app.js';
export { DEFAULT_DATABASE, TOKEN_ENV } from './constants.js';
export { type Ingested, ingestFiles, ingestZip } from './ingest/ingest.js';
export { IngestError } from './ingest/ingest-error.js';
export { DEFAULT_LIMITS, type IngestLimits } from './ingest/limits.js';
export { type PublishMeta, prepareRun, runDigest } from './ingest/prepare-run.js';
export { readRunFolder } from './ingest/read-folder.js';
export { readZip } from './ingest/read-zip.js';
export type { RunFiles } from './ingest/run-files.js';
export { signatureText } from './ingest/signature-status.js';
export { type HubOptions, type RunningHub, startHub } from './server.js';
export { HubStore, type RunFilter, type TargetSummary } from './store/hub-store.js';
export { DatabaseOpenError, isPostgresUrl, shownDatabase } from './store/open-store.js';
export type { RunSummary } from './store/run-summary.js';
