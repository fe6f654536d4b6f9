export { type App, type AppOptions, createApp } from './app.js';
export { type AllowList, parseAddress, parseAllowList } from './auth/allow-list.js';
export {
  type AuthConfig,
  type AuthSuccess,
  authenticate,
  readCookie,
  SESSION_COOKIE,
  sessionCookie,
  unauthorized,
} from './auth/authenticate.js';
export { ExpiringMap, randomId } from './auth/expiring-map.js';
export { applyNewDefaults, repriceRows, runHeaderTriggers, runRowTriggers } from './business/auto-fill.js';
export { checkCreditInvoice, checkPurchaseVat, checkRecord } from './business/checks.js';
export { addDays, type Draft, Explicit, localDate, lookup, type WriteContext } from './business/draft.js';
export {
  createFromForm,
  createFromJson,
  type FieldChanges,
  type JsonRecord,
  patchFromForm,
} from './business/record-write.js';
export { computeSums, numericFields, registersWithSums } from './business/sums.js';
export { badParameter, ErpError, ErrorCode, validationError } from './errors.js';
export { type CompanyDirectory, resolveCompany } from './http/company.js';
export { formChanges, parseForm } from './http/form-body.js';
export { parseJsonRecords } from './http/json-body.js';
export { parseListParams, parseRange } from './http/query-params.js';
export { dataResponse, encodeText, errorResponse, internalError, textResponse } from './http/respond.js';
export type { AppRequest, AppResponse, RouteHandler, RouteRequest } from './http/types.js';
export { type AppModule, builtinModules, registersOfModules } from './modules.js';
export { createObservedModule, observedModule } from './observed/index.js';
export { BLOCK_KEY, observedRegisters, registerInputOf } from './observed/observed-registers.js';
export {
  createPortalModule,
  DEFAULT_MAX_WEB_POST_SIZE,
  PORTAL_PATHS,
  type PortalOptions,
  portalModule,
  withPortalOptions,
} from './portal/index.js';
export {
  type EnvelopeInfo,
  type ErrorInfo,
  envelopeJson,
  envelopeXml,
  errorJson,
  errorXml,
} from './render/envelope.js';
export { type RenderOptions, recordsJson, recordsXml, recordUrl } from './render/records.js';
export { type FieldAddition, fieldAdditions } from './schema/field-additions.js';
export type { FieldAdditionInput } from './schema/field-merge.js';
export { catalogueRegistry, RegisterRegistry } from './schema/register-registry.js';
export {
  BASE_FIELDS,
  buildSchema,
  outputFields,
  type RegisterInput,
  type RegisterSchema,
  type SerialRule,
} from './schema/register-schema.js';
export { DEMO_COMPANIES, seedDemoData, seedIfNew } from './seed/seed-store.js';
export { handleNodeRequest, type RunningServer, type ServerOptions, startServer } from './server/node-server.js';
export { quirkyResponseBytes } from './server/quirks-wire.js';
export { type Db, openDatabase, type SyncMode } from './store/database.js';
export { derivedViews, ledgerSources } from './store/derived.js';
export { OffsetBookmarks } from './store/offset-bookmarks.js';
export {
  type DeletesQuery,
  type ListQuery,
  listDeletes,
  listRecords,
  pageFromRecords,
  type RangeSpec,
  type RecordPage,
  type RenderPlan,
} from './store/record-query.js';
export { type RecordChange, RecordStore, type StoreOptions, type Tombstone } from './store/record-store.js';
export { type RecordData, RecordTable, type StoredRecord, tableName } from './store/record-table.js';
export { formatAmount, formatQuantity, isDecimal, parseDecimal, round } from './values/decimal.js';
export { isKnownVatCode, vatRate, vatRates } from './values/vat.js';
