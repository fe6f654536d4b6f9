/** A request as `App.handle` takes it: no socket needed (route tests build these directly). */
export interface AppRequest {
  readonly method: string;
  /** Path and query as sent, e.g. `/api/1/IVVc?limit=5`. */
  readonly url: string;
  /** Header names in any case; the app lower-cases them. */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  readonly body?: Buffer | string;
  /** The client's address, for the allow-list; undefined counts as 127.0.0.1. */
  readonly remoteAddress?: string;
}

/** A response as `App.handle` returns it. */
export interface AppResponse {
  status: number;
  /** Header names as sent on the wire. */
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** A request after the app parsed it: what route handlers receive. */
export interface RouteRequest {
  readonly method: string;
  readonly url: URL;
  /** The path exactly as sent (still percent-encoded). */
  readonly rawPath: string;
  readonly query: URLSearchParams;
  /** Lower-case header names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly remoteAddress: string;
  /** JSON when `Accept` names application/json (record-rest-api.md §1), else XML. */
  readonly format: 'xml' | 'json';
  /** Charset of text responses: UTF-8, or Latin-1 in `--quirks` mode unless the request asks for UTF-8. */
  readonly charset: 'utf-8' | 'latin1';
}

/** A route handler; mounted handlers (the portal) get the same request and the app. */
export type RouteHandler<A = unknown> = (req: RouteRequest, app: A) => AppResponse | Promise<AppResponse>;
