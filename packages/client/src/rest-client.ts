import { BodySyntaxError, decodeBody, salvageJsonError } from './body-decode.js';
import type { CompanyPlacement } from './config.js';
import { DecodeError, ErpError } from './errors.js';
import type { CallOptions, HttpCore, RawResponse } from './http-core.js';
import { contextOf, decodeChecked, isSuccess } from './response-check.js';
import { EnvelopeShapeError, envelopeParts } from './rest-envelope.js';
import {
  type CompanyOptions,
  companyQuery,
  formBody,
  keyParts,
  listQueryPairs,
  type RecordKey,
  restPath,
} from './rest-request.js';
import type {
  RegisterName,
  RestEnvelope,
  RestFields,
  RestFormat,
  RestListQuery,
  RestRecord,
  RestRowFields,
} from './rest-types.js';

/** Options of one REST call. */
export interface RestCallOptions extends CallOptions {
  /** Response format. XML is the server default; JSON sends `Accept: application/json`. @defaultValue 'xml' */
  readonly format?: RestFormat;
  /** Overrides the configured company code for this call; `null` sends none. */
  readonly compcode?: number | string | null;
  /** Overrides the configured company placement for this call. */
  readonly companyIn?: CompanyPlacement;
}

/** The answer of `GET /api/1/` (the session start): no body is described (record-rest-api.md §4). */
export interface RestRootResult {
  readonly status: number;
  /** The HSESSION id the client holds after the call, when a session is open. */
  readonly sessionId: string | undefined;
  readonly sequenceHeader: string | undefined;
  readonly raw: RawResponse;
}

const FORM = 'application/x-www-form-urlencoded; charset=UTF-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** Settings the REST client takes from the client config. */
export interface RestSettings {
  readonly companyIn: CompanyPlacement;
  readonly compcode: string | undefined;
}

/**
 * The record REST API (`/api/1/<register>`, docs/record-rest-api.md): list, get by key, create (form or JSON),
 * update (PATCH form) and the API root. Results are decoded envelopes with records in the JSON shape.
 */
export class RestClient {
  readonly #core: HttpCore;
  readonly #settings: RestSettings;

  constructor(core: HttpCore, settings: RestSettings) {
    this.#core = core;
    this.#settings = settings;
  }

  #company(options: RestCallOptions | undefined): CompanyOptions {
    const cc = options?.compcode === undefined ? this.#settings.compcode : options.compcode;
    return {
      companyIn: options?.companyIn ?? this.#settings.companyIn,
      compcode: cc === null || cc === undefined ? undefined : String(cc),
    };
  }

  #headers(options: RestCallOptions | undefined, extra: Record<string, string> = {}): Record<string, string> {
    return options?.format === 'json' ? { Accept: 'application/json', ...extra } : extra;
  }

  #envelope<R extends string>(raw: RawResponse, operation: string, register: R, format: RestFormat): RestEnvelope<R> {
    const body = decodeChecked(raw, operation, register);
    let parts: ReturnType<typeof envelopeParts>;
    try {
      parts = envelopeParts(body, register);
    } catch (err) {
      if (err instanceof EnvelopeShapeError) throw new DecodeError(err.message, contextOf(raw, operation, register));
      throw err;
    }
    return {
      register: parts.register,
      sequence: parts.sequence,
      systemVersion: parts.systemVersion,
      records: parts.records as RestRecord<R>[],
      sequenceHeader: raw.header('sequence'),
      messages: body.messages,
      format: body.format === 'json' ? 'json' : body.format === 'xml' ? 'xml' : format,
      hasEnvelope: parts.hasEnvelope,
      raw,
    };
  }

  /** `GET /api/1/` (record-rest-api.md §4 "API root (session start)"): opens the session when `useSession` is on. */
  async root(options?: RestCallOptions): Promise<RestRootResult> {
    const raw = await this.#core.send({
      api: 'rest',
      operation: 'root',
      method: 'GET',
      path: restPath(this.#company(options)),
      headers: this.#headers(options),
      forceBasic: true,
      ...(options ? { options } : {}),
    });
    try {
      decodeChecked(raw, 'root');
    } catch (err) {
      // the root's body is not described: only an ERP error or a failure status counts
      if (!(err instanceof DecodeError)) throw err;
    }
    return {
      status: raw.status,
      sessionId: this.#core.auth.sessionId,
      sequenceHeader: raw.header('sequence'),
      raw,
    };
  }

  /** `GET /api/1/<register>` with fields, sort, range, limit, offset, updates_after, deletes_after, `filter.<F>`. */
  async list<R extends RegisterName>(
    register: R,
    query: RestListQuery<R> = {},
    options?: RestCallOptions,
  ): Promise<RestEnvelope<R>> {
    const company = this.#company(options);
    const raw = await this.#core.send({
      api: 'rest',
      operation: 'list',
      register,
      method: 'GET',
      path: restPath(company, register),
      query: [...listQueryPairs(query as RestListQuery), ...companyQuery(company)],
      headers: this.#headers(options),
      ...(options ? { options } : {}),
    });
    return this.#envelope(raw, 'list', register, options?.format ?? 'xml');
  }

  /**
   * `GET /api/1/<register>/<key>`: one record by key. Not shown in the docs (record-rest-api.md §4 rule 10);
   * real deployments answer it with the envelope holding that record (DESIGN.md).
   */
  async get<R extends RegisterName>(register: R, key: RecordKey, options?: RestCallOptions): Promise<RestEnvelope<R>> {
    const company = this.#company(options);
    const raw = await this.#core.send({
      api: 'rest',
      operation: 'get',
      register,
      method: 'GET',
      path: restPath(company, register, keyParts(register, key)),
      query: companyQuery(company),
      headers: this.#headers(options),
      ...(options ? { options } : {}),
    });
    return this.#envelope(raw, 'get', register, options?.format ?? 'xml');
  }

  /**
   * `POST /api/1/<register>` with a form body (`set_field.<F>`, `set_row_field.<N>.<F>`): runs the auto-fill of the
   * user interface (record-rest-api.md §4 rule 1).
   */
  async createForm<R extends RegisterName>(
    register: R,
    header: RestFields<R>,
    rows: readonly RestRowFields[] = [],
    options?: RestCallOptions,
  ): Promise<RestEnvelope<R>> {
    return this.#form('createForm', 'POST', register, undefined, header, rows, options);
  }

  /**
   * `POST /api/1/<register>` with `{"data": {"<register>": [records]}}`: no auto-fill, all required values must be
   * supplied; several records per request (record-rest-api.md §4 rules 2 and 3).
   */
  async createJson<R extends RegisterName>(
    register: R,
    records: readonly Record<string, unknown>[],
    options?: RestCallOptions,
  ): Promise<RestEnvelope<R>> {
    const company = this.#company(options);
    const raw = await this.#core.send({
      api: 'rest',
      operation: 'createJson',
      register,
      method: 'POST',
      path: restPath(company, register),
      query: companyQuery(company),
      headers: this.#headers(options, { 'Content-Type': JSON_TYPE }),
      body: Buffer.from(JSON.stringify({ data: { [register]: records } }), 'utf8'),
      ...(options ? { options } : {}),
    });
    return this.#envelope(raw, 'createJson', register, options?.format ?? 'xml');
  }

  /**
   * `PATCH /api/1/<register>/<key>` with a form body. The response body of PATCH is not shown (record-rest-api.md
   * §4 rule 9): `hasEnvelope` says whether it held an envelope, `answerMalformed` that it was a malformed 2xx body
   * (the write was done; read the record back for its values). An error nested in `data`, even cut short, throws.
   */
  async update<R extends RegisterName>(
    register: R,
    key: RecordKey,
    header: RestFields<R>,
    rows: readonly RestRowFields[] = [],
    options?: RestCallOptions,
  ): Promise<RestEnvelope<R>> {
    const raw = await this.#formCall('update', 'PATCH', register, key, header, rows, options);
    const format = options?.format ?? 'xml';
    if (!isSuccess(raw.status)) return this.#envelope(raw, 'update', register, format);
    try {
      decodeBody(raw.text);
    } catch (err) {
      if (!(err instanceof BodySyntaxError)) throw err;
      return this.#malformedPatch(raw, register, format);
    }
    return this.#envelope(raw, 'update', register, format);
  }

  /**
   * A PATCH answered 2xx with a malformed body, as live servers do (DESIGN.md, issue 10): an error that made it out
   * before the cut (`{"data": {"messages": [...], "error": {"@code", ...` ) is thrown as an ErpError; anything
   * else means the write was done, and comes back as an answer without envelope, `answerMalformed` set.
   */
  #malformedPatch<R extends string>(raw: RawResponse, register: R, format: RestFormat): RestEnvelope<R> {
    const salvaged = salvageJsonError(raw.text);
    if (salvaged)
      throw new ErpError('json-error', salvaged.errors, contextOf(raw, 'update', register), salvaged.messages);
    return {
      register,
      sequence: undefined,
      systemVersion: undefined,
      records: [],
      sequenceHeader: raw.header('sequence'),
      messages: [],
      format,
      hasEnvelope: false,
      answerMalformed: true,
      raw,
    };
  }

  async #form<R extends string>(
    operation: string,
    method: string,
    register: R,
    key: RecordKey | undefined,
    header: RestFields<R>,
    rows: readonly RestRowFields[],
    options: RestCallOptions | undefined,
  ): Promise<RestEnvelope<R>> {
    const raw = await this.#formCall(operation, method, register, key, header, rows, options);
    return this.#envelope(raw, operation, register, options?.format ?? 'xml');
  }

  /** Sends a form-encoded write (spaces as `%20`, never `+`: live servers keep a `+` as a plus sign). */
  async #formCall<R extends string>(
    operation: string,
    method: string,
    register: R,
    key: RecordKey | undefined,
    header: RestFields<R>,
    rows: readonly RestRowFields[],
    options: RestCallOptions | undefined,
  ): Promise<RawResponse> {
    const company = this.#company(options);
    return this.#core.send({
      api: 'rest',
      operation,
      register,
      method,
      path: restPath(company, register, key === undefined ? undefined : keyParts(register, key)),
      query: companyQuery(company),
      headers: this.#headers(options, { 'Content-Type': FORM }),
      body: Buffer.from(formBody(header as RestFields<string>, rows), 'utf8'),
      ...(options ? { options } : {}),
    });
  }
}
