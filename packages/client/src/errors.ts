import type { Exchange } from './exchange.js';

/** Where an error happened: the operation, its register and the masked exchange. */
export interface ErrorContext {
  /** `list`, `get`, `createForm`, ... or the portal operationId. */
  readonly operation: string;
  readonly register?: string;
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  /** The request and response, secrets masked. */
  readonly exchange?: Exchange;
}

/** The `kind` of each error class. */
export type ErpClientErrorKind = 'erp' | 'transport' | 'http-status' | 'decode' | 'config';

/** Every error the client throws extends this; switch on `kind`. */
export abstract class ErpClientError extends Error {
  abstract readonly kind: ErpClientErrorKind;
  readonly operation: string;
  readonly register: string | undefined;
  readonly status: number | undefined;
  readonly exchange: Exchange | undefined;

  constructor(message: string, context: ErrorContext, options?: { cause?: unknown }) {
    super(message, options);
    this.operation = context.operation;
    this.register = context.register;
    this.status = context.status;
    this.exchange = context.exchange;
  }
}

/** One `<error>` element or JSON `error` object as the server sent it (attribute values verbatim). */
export interface ErpErrorDetail {
  readonly code?: string;
  readonly description?: string;
  readonly field?: string;
  readonly row?: string;
}

/** A `<message>` element or `messages[]` entry: a warning, returned and never thrown. */
export interface ErpMessage {
  readonly description: string;
  /** Other attributes of the element, verbatim. */
  readonly attrs?: Readonly<Record<string, string>>;
}

/** How the server reported the failure. */
export type ErpErrorSource = 'error-element' | 'errstr' | 'json-error';

function where(c: ErrorContext): string {
  return c.register ? `${c.operation} ${c.register}` : c.operation;
}

/**
 * The server answered with a failure document: an `<error>` element (portal-action-api.md §7; before
 * `<data>` on real servers), a non-empty `errstr`, or a JSON `{"error": {...}}`. Often with HTTP 200.
 */
export class ErpError extends ErpClientError {
  override readonly name = 'ErpError';
  readonly kind = 'erp' as const;
  readonly source: ErpErrorSource;
  /** The error code, when the server gave one (`1058`). */
  readonly code: string | undefined;
  /** The field the error is about (`CustCode`). */
  readonly field: string | undefined;
  readonly row: string | undefined;
  /** The error text: `description` or the `errstr` value. */
  readonly description: string;
  /** Every error element of the body, the first one being the one above. */
  readonly errors: readonly ErpErrorDetail[];
  /** Warnings that came with the error. */
  readonly messages: readonly ErpMessage[];

  constructor(
    source: ErpErrorSource,
    errors: readonly ErpErrorDetail[],
    context: ErrorContext,
    messages: readonly ErpMessage[] = [],
  ) {
    const first = errors[0] ?? {};
    const description = first.description ?? '';
    const code = first.code ? ` ${first.code}` : '';
    const field = first.field ? ` (field ${first.field})` : '';
    const status = context.status === undefined ? '' : ` [HTTP ${context.status}]`;
    super(`${where(context)}: ERP error${code}${field}: ${description || '(no description)'}${status}`, context);
    this.source = source;
    this.code = first.code;
    this.field = first.field;
    this.row = first.row;
    this.description = description;
    this.errors = errors;
    this.messages = messages;
  }
}

/** Why a request got no usable HTTP response. */
export type TransportFailure = 'refused' | 'timeout' | 'reset' | 'malformed' | 'dns' | 'aborted' | 'other';

/** No usable HTTP response: connection refused, timeout, reset, unparseable HTTP. */
export class TransportError extends ErpClientError {
  override readonly name = 'TransportError';
  readonly kind = 'transport' as const;
  readonly reason: TransportFailure;
  /** The system or parser error code (`ECONNREFUSED`, `HPE_INVALID_CONSTANT`), when there is one. */
  readonly code: string | undefined;

  constructor(reason: TransportFailure, detail: string, context: ErrorContext, code?: string, cause?: unknown) {
    super(`${where(context)}: transport ${reason}${code ? ` (${code})` : ''}: ${detail}`, context, { cause });
    this.reason = reason;
    this.code = code;
  }
}

/** A non-2xx status whose body is no ERP error document (an empty 403, a plain-text 404). */
export class HttpStatusError extends ErpClientError {
  override readonly name = 'HttpStatusError';
  readonly kind = 'http-status' as const;
  override readonly status: number;
  readonly statusText: string;
  /** The decoded body text (may be empty). */
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string, context: ErrorContext) {
    const snippet = bodyText.trim().slice(0, 200);
    super(
      `${where(context)}: HTTP ${status}${statusText ? ` ${statusText}` : ''}${snippet ? `: ${snippet}` : ' (empty body)'}`,
      { ...context, status },
    );
    this.status = status;
    this.statusText = statusText;
    this.bodyText = bodyText;
  }
}

/** A 2xx body the client cannot read as the expected XML or JSON shape. */
export class DecodeError extends ErpClientError {
  override readonly name = 'DecodeError';
  readonly kind = 'decode' as const;

  constructor(detail: string, context: ErrorContext, cause?: unknown) {
    super(`${where(context)}: cannot decode the response: ${detail}`, context, { cause });
  }
}

/** The client configuration or a call's arguments cannot work (nothing was sent). */
export class ConfigError extends ErpClientError {
  override readonly name = 'ConfigError';
  readonly kind = 'config' as const;

  constructor(detail: string, context: ErrorContext = { operation: 'config' }) {
    super(`${where(context)}: ${detail}`, context);
  }
}

/** True for any error this client throws. */
export function isErpClientError(value: unknown): value is ErpClientError {
  return value instanceof ErpClientError;
}
