import type { ClientConfig } from './config.js';
import { type CallOptions, HttpCore, type RawResponse } from './http-core.js';
import { PortalClient } from './portal-client.js';
import { type RestCallOptions, RestClient } from './rest-client.js';
import {
  type FeedEvent,
  type FeedOptions,
  type PageOptions,
  restFeed,
  restPages,
  restRecords,
} from './rest-iterators.js';
import type { RegisterName, RestEnvelope, RestListQuery, RestRecord } from './rest-types.js';
import type { QueryPair } from './url.js';

/** The REST client with its iterators. */
export class RestApi extends RestClient {
  readonly #core: HttpCore;

  constructor(core: HttpCore, settings: ConstructorParameters<typeof RestClient>[1]) {
    super(core, settings);
    this.#core = core;
  }

  /** Pages of a list read, walking `offset`/`limit` (record-rest-api.md §4 "Query parameters"). */
  pages<R extends RegisterName>(
    register: R,
    query: RestListQuery<R> | undefined,
    options: PageOptions,
  ): AsyncGenerator<RestEnvelope<R>, void, undefined> {
    return restPages(this, this.#core.clock, register, query, options);
  }

  /** The records of {@link RestApi.pages}, one by one. */
  records<R extends RegisterName>(
    register: R,
    query: RestListQuery<R> | undefined,
    options: PageOptions,
  ): AsyncGenerator<RestRecord<R>, void, undefined> {
    return restRecords(this, this.#core.clock, register, query, options);
  }

  /** One round of the sequence feed: updates and deletions after `since`, then the next sequence value. */
  feed<R extends RegisterName>(register: R, options: FeedOptions): AsyncGenerator<FeedEvent<R>, void, undefined> {
    return restFeed(this, this.#core.clock, register, options);
  }
}

/** A free-form request for {@link ErpClient.request}. */
export interface RawRequest {
  /** Which API's credentials apply (the portal refuses bearer tokens). @defaultValue 'rest' */
  readonly api?: 'rest' | 'portal';
  /** Name recorded in the exchange. @defaultValue 'request' */
  readonly operation?: string;
  readonly method: string;
  /** Path below the base URL, starting with `/` (`/api/1/IVVc`, `/WebErpAPI.hal`). */
  readonly path: string;
  /** Query pairs, sent in order, percent-encoded. */
  readonly query?: readonly QueryPair[];
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  readonly options?: CallOptions;
}

/** A client for both APIs of one server, sharing credentials, session, pacing and connections. */
export class ErpClient {
  /** The record REST API (`/api/1/...`). */
  readonly rest: RestApi;
  /** The portal action API (`/WebErpAPI.hal?action=...`). */
  readonly portal: PortalClient;
  readonly #core: HttpCore;

  constructor(config: ClientConfig) {
    this.#core = new HttpCore(config);
    const compcode = config.compcode === undefined ? undefined : String(config.compcode);
    this.rest = new RestApi(this.#core, { companyIn: config.companyIn ?? 'query', compcode });
    this.portal = new PortalClient(this.#core, {
      ...(config.portalPath !== undefined ? { portalPath: config.portalPath } : {}),
      ...(config.compno !== undefined ? { compno: config.compno } : {}),
      ...(config.usercode !== undefined ? { usercode: config.usercode } : {}),
      ...(config.portalcc !== undefined ? { portalcc: config.portalcc } : {}),
    });
  }

  /** The HSESSION id the client holds, when a session is open. */
  get sessionId(): string | undefined {
    return this.#core.auth.sessionId;
  }

  /** Forgets the session; the next request logs in with Basic again. */
  clearSession(): void {
    this.#core.auth.clearSession();
  }

  /**
   * Sends any request with the client's credentials, session, pacing and recording, and returns the response
   * undecoded (no error is thrown for a status or an error body). For probes the typed methods cannot express.
   */
  request(request: RawRequest): Promise<RawResponse> {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    return this.#core.send({
      api: request.api ?? 'rest',
      operation: request.operation ?? 'request',
      method: request.method,
      path: request.path,
      ...(request.query ? { query: request.query } : {}),
      ...(request.headers ? { headers: request.headers } : {}),
      ...(body ? { body } : {}),
      ...(request.options ? { options: request.options } : {}),
    });
  }

  /** Masks secrets in any text the way exchanges are masked (for log lines and reports). */
  mask(text: string): string {
    return this.#core.masker.scrub(text);
  }

  /** Closes the client's connections. */
  close(): void {
    this.#core.close();
  }
}

/** Creates a client for both APIs. */
export function createClient(config: ClientConfig): ErpClient {
  return new ErpClient(config);
}

export type { RestCallOptions };
