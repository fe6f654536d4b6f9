import type { RestComponents, RestOperations } from '@erpcert/contract';
import type { ErpMessage } from './errors.js';
import type { RawResponse } from './http-core.js';

type Schemas = RestComponents['schemas'];

/** The literal keys of a type, without its index signature. */
export type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/**
 * The registers with a generated `<Reg>Record` schema: the 38 of the register table (record-rest-api.md §2) and
 * the plain observed ones (specs/observed-fields.yaml: PRVc, DepVc).
 */
export type RestRegisterName = { [K in keyof Schemas]: K extends `${infer R}Record` ? R : never }[keyof Schemas];

/** A register name: one of the table, or any other ("further registers up to 38 or more", §2). */
export type RegisterName = RestRegisterName | (string & {});

/** A record in the JSON shape (`@register`, `@sequence`, `@url`, fields, `rows` with `@rownumber`). */
export type RestRecord<R extends string = string> = R extends RestRegisterName
  ? Schemas[`${R}Record`]
  : Schemas['RecordBase'];

/** A record line: `@rownumber` (0-based string) and row fields. */
export type RestRow = Schemas['RowBase'];

/** Field names of a register's record (main fields and the base fields), for autocompletion. */
export type RestFieldName<R extends string> = Exclude<KnownKeys<RestRecord<R>>, `@${string}` | 'rows'> & string;

/** Header field values of a create or update: main fields are suggested, any other field is allowed. */
export type RestFields<R extends string> = { readonly [F in RestFieldName<R>]?: string } & {
  readonly [field: string]: string | undefined;
};

/** Row field values of a create or update (row N is the N-th entry, 0-based). */
export type RestRowFields = { readonly [field: string]: string | undefined };

type ListQueryOf<R extends string> = R extends RestRegisterName
  ? `list${R}` extends keyof RestOperations
    ? NonNullable<RestOperations[`list${R}`]['parameters']['query']>
    : never
  : never;

type CommonListParameter =
  | 'compcode'
  | 'fields'
  | 'sort'
  | 'range'
  | 'limit'
  | 'offset'
  | 'updates_after'
  | 'deletes_after';

/**
 * Query of a list read (record-rest-api.md §4 "Query parameters"): the documented parameters and `filter.<Field>`
 * (the register's main fields are suggested). `compcode` comes from the client config.
 */
export type RestListQuery<R extends string = string> = {
  readonly [K in Exclude<KnownKeys<ListQueryOf<R>>, CommonListParameter>]?: ListQueryOf<R>[K];
} & {
  readonly fields?: string | readonly string[];
  readonly sort?: string;
  readonly range?: string;
  readonly limit?: number;
  readonly offset?: number;
  readonly updates_after?: number | string;
  readonly deletes_after?: number | string;
  readonly [filter: `filter.${string}`]: string | undefined;
};

/** The response format of a call: XML is the server default, JSON is asked for with `Accept: application/json`. */
export type RestFormat = 'xml' | 'json';

/** A decoded REST envelope; records are in the JSON shape whichever format was requested. */
export interface RestEnvelope<R extends string = string> {
  /** `data@register`, or the requested register when the body has no envelope. */
  readonly register: string;
  /** `data@sequence`, the current sequence number. */
  readonly sequence: string | undefined;
  /** `data@systemversion`. */
  readonly systemVersion: string | undefined;
  readonly records: RestRecord<R>[];
  /** The `Sequence` response header (record-rest-api.md §4 rule 6). */
  readonly sequenceHeader: string | undefined;
  /** `<message>` elements / JSON messages: warnings. */
  readonly messages: readonly ErpMessage[];
  readonly format: RestFormat;
  /** False when the body held no `data` envelope (a 204, an empty body, a PATCH answer of another shape). */
  readonly hasEnvelope: boolean;
  /**
   * True when a PATCH was answered 2xx with a malformed body that holds no error, as live servers do (issue 10): the
   * write was done, the answer says nothing more.
   */
  readonly answerMalformed?: boolean;
  /** The HTTP response, with the raw body and the masked exchange. */
  readonly raw: RawResponse;
}
