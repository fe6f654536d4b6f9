/** One HTTP header as sent or received, in wire order (duplicates kept). */
export interface ExchangeHeader {
  readonly name: string;
  readonly value: string;
}

/** A request or response body as recorded in an {@link Exchange}, secrets masked. */
export interface ExchangeBody {
  /** MIME type from the Content-Type header, without parameters; empty when there was none. */
  readonly mimeType: string;
  /** The text (masked), or base64 of the bytes when `encoding` is `base64`. */
  readonly text: string;
  /** Set when `text` holds base64 of a binary body. */
  readonly encoding?: 'base64';
  /** Size of the whole body in bytes. */
  readonly size: number;
  /** Set when `text` holds only the first bytes of a larger body. */
  readonly truncated?: boolean;
}

/** The request half of an {@link Exchange}. */
export interface ExchangeRequest {
  readonly method: string;
  /** Absolute URL, secret query values masked. */
  readonly url: string;
  readonly headers: readonly ExchangeHeader[];
  readonly body?: ExchangeBody;
}

/** The response half of an {@link Exchange}. */
export interface ExchangeResponse {
  readonly status: number;
  /** Reason phrase; empty when the status line had none (real servers send `HTTP/1.1 200`). */
  readonly statusText: string;
  readonly httpVersion: string;
  readonly headers: readonly ExchangeHeader[];
  readonly body: ExchangeBody;
}

/**
 * One request and its response (or transport failure), with every secret masked: `Authorization`,
 * HSESSION cookie values, bearer tokens, OAuth client secrets and password fields.
 */
export interface Exchange {
  /** Sequence number within one client, from 1. */
  readonly id: number;
  /** Which API: `rest`, `portal`, or `oauth` (token requests). */
  readonly api: 'rest' | 'portal' | 'oauth';
  /** Operation name: `list`, `get`, `createForm`, ... for REST; the portal operationId. */
  readonly operation: string;
  readonly register?: string;
  /** ISO 8601 time the request started. */
  readonly startedAt: string;
  /** Milliseconds from start to the end of the response body (or failure). */
  readonly durationMs: number;
  readonly request: ExchangeRequest;
  readonly response?: ExchangeResponse;
  /** Transport failure text when there is no response. */
  readonly error?: string;
  /**
   * A throttled answer (429 or 503 with `Retry-After`, retry-after.ts): `retried` with the wait when the client
   * waited and sent the request again, `gave-up` with the reason when it handed this answer on.
   */
  readonly throttle?: ExchangeThrottle;
}

/** What the client did with a throttled answer. */
export type ExchangeThrottle =
  | { readonly outcome: 'retried'; readonly waitMs: number }
  | { readonly outcome: 'gave-up'; readonly reason: string };

/** Receives every exchange of a client once it is complete. Must not throw. */
export type ExchangeObserver = (exchange: Exchange) => void;

/** Case-insensitive lookup of the first header named `name`. */
export function headerValue(headers: readonly ExchangeHeader[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.name.toLowerCase() === lower)?.value;
}
