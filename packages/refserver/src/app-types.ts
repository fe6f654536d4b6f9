import type { AllowList } from './auth/allow-list.js';
import type { AuthConfig, AuthSuccess } from './auth/authenticate.js';
import type { WriteContext } from './business/draft.js';
import type { ErpError } from './errors.js';
import type { AppRequest, AppResponse, RouteHandler, RouteRequest } from './http/types.js';
import type { LogLine } from './log.js';
import type { FieldAdditionInput } from './schema/field-merge.js';
import type { RegisterInput } from './schema/register-schema.js';

export type { FieldAdditionInput } from './schema/field-merge.js';

import type { SyncMode } from './store/database.js';
import type { RecordStore } from './store/record-store.js';

/**
 * The app's types, in a module of their own: handlers, modules and seeds import these, never app.ts, so
 * that imports point one way (README "Layers"): app.ts builds the app from the modules that use these types.
 */

/** Options of `createApp`; every one has a documented default (README "Options"). */
export interface AppOptions {
  /** Use this store instead of opening one. */
  readonly store?: RecordStore;
  /** SQLite file; without it data lives in memory. */
  readonly db?: string;
  /** @defaultValue `'normal'` */
  readonly sync?: SyncMode;
  /** @defaultValue `'erpcert'` */
  readonly user?: string;
  /** @defaultValue `'erpcert'` */
  readonly password?: string;
  /** Idle lifetime of an HSESSION session in seconds. @defaultValue 1800 */
  readonly sessionTtl?: number;
  /** Lifetime of an OAuth bearer token in seconds. @defaultValue 3600 */
  readonly tokenTtl?: number;
  /** @defaultValue `'erpcert-client'` */
  readonly oauthClientId?: string;
  /** @defaultValue `'erpcert-secret'` */
  readonly oauthClientSecret?: string;
  /** Client allow-list (`--allow`); undefined lets everyone in. */
  readonly allow?: string;
  /** Rough wire of real servers (README "Quirks"). @defaultValue false */
  readonly quirks?: boolean;
  /** Largest request body in bytes. @defaultValue 16 MiB */
  readonly maxBody?: number;
  /** `@systemversion` of every envelope. @defaultValue `'1.0'` */
  readonly systemVersion?: string;
  /** Demo data size when the database is new; false seeds nothing but the companies. @defaultValue 0 (master data) */
  readonly seed?: number | false;
  /** The clock (dates of new records, expiry). */
  readonly now?: () => Date;
  /** Where log lines go. @defaultValue stderr */
  readonly log?: LogLine;
  /** Modules mounted into the app. @defaultValue builtinModules */
  readonly modules?: readonly AppModule[];
}

/** The reference ERP as an in-process object: `handle` answers a request without a socket. */
export interface App {
  readonly store: RecordStore;
  readonly systemVersion: string;
  readonly quirks: boolean;
  readonly maxBody: number;
  readonly auth: AuthConfig;
  readonly oauthClientId: string;
  readonly allowList?: AllowList;
  /** Answers one request; never throws. */
  handle(req: AppRequest): Promise<AppResponse>;
  /** A finished error response for a request the app will not read (the node adapter's early 413). */
  reject(headers: AppRequest['headers'], err: ErpError): AppResponse;
  /** Mounts a handler on a path (exact), or on every path under it with `prefix`. */
  mount(path: string, handler: RouteHandler<App>, options?: { prefix?: boolean }): void;
  /** Basic, HSESSION or (when allowed) bearer; throws a 401 ErpError. The portal passes allowBearer false. */
  authenticate(req: RouteRequest, options?: { allowBearer?: boolean }): AuthSuccess;
  /** The company of a request (path segment and/or a query parameter, see http/company.ts). */
  company(req: RouteRequest, pathSegment?: string, parameter?: string): number;
  /** What the business layer needs for a write in a company. */
  writeContext(company: number): WriteContext;
  now(): Date;
  log: LogLine;
  /** Closes the store. */
  close(): void;
}

/**
 * A piece of the server that plugs into `createApp`: the portal action API (issue 4) is one.
 * Registers are defined before the tables are made; `seed` runs once when the database is new;
 * `setup` mounts routes (`app.mount('/WebErpAPI.hal', handler)`) and may create extra tables
 * through `app.store.db`.
 */
export interface AppModule {
  readonly name: string;
  readonly registers?: readonly RegisterInput[];
  /** Fields added to registers of the catalogue or of other modules (the observed ActVc fields, a team's file). */
  readonly fields?: readonly FieldAdditionInput[];
  /** Fills the module's demo data; `size` is `--seed-size`. Runs inside the seeding transaction. */
  seed?(app: App, size: number): void;
  setup?(app: App): void;
}
