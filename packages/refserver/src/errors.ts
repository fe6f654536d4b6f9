/** An error as real deployments send it (DESIGN.md "What real deployments do"): code, description, row, field. */
export interface ErrorInfo {
  readonly code: string;
  readonly description: string;
  /** Row index of a row field, -1 for the header or none. */
  readonly row?: number;
  readonly field?: string;
}

/**
 * Error codes of the reference server. The docs show none ("HTTP status codes, error body format
 * and error codes of the REST interface: not shown", record-rest-api.md §7); README "Errors" lists them.
 */
export const ErrorCode = {
  unknownRegister: '1001',
  notFound: '1002',
  badParameter: '1003',
  unknownField: '1004',
  company: '1005',
  unauthorized: '1006',
  forbidden: '1007',
  methodNotAllowed: '1008',
  bodyTooLarge: '1009',
  unsupportedMediaType: '1010',
  malformedBody: '1011',
  internal: '1099',
  // validation errors of writes, sent with HTTP 200 (DESIGN.md "What real deployments do")
  unknownWriteField: '2001',
  required: '2002',
  invalidValue: '2003',
  duplicateKey: '2004',
  locked: '2005',
  unknownReference: '2006',
  creditInvoice: '2007',
  purchaseVat: '2008',
  readOnlyField: '2009',
} as const;

/**
 * The one error type of the server: an HTTP status plus the error shape (code, description, field,
 * row). Thrown anywhere; the app renders it. Status 200 is a validation error of a write.
 */
export class ErpError extends Error implements ErrorInfo {
  override readonly name = 'ErpError';
  readonly status: number;
  readonly code: string;
  readonly description: string;
  readonly field?: string;
  readonly row?: number;
  /** Extra response headers (WWW-Authenticate, Allow). */
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as text/plain instead of the error shape (updates_after on a register without sync index). */
  readonly plainText?: boolean;

  constructor(
    status: number,
    code: string,
    description: string,
    extra: { field?: string; row?: number; headers?: Record<string, string>; plainText?: boolean } = {},
  ) {
    super(description);
    this.status = status;
    this.code = code;
    this.description = description;
    if (extra.field !== undefined) this.field = extra.field;
    if (extra.row !== undefined) this.row = extra.row;
    this.headers = extra.headers ?? {};
    if (extra.plainText) this.plainText = true;
  }
}

/** A validation error of a write: HTTP 200 with `<error>` before `<data>`. */
export function validationError(code: string, description: string, field?: string, row?: number): ErpError {
  return new ErpError(200, code, description, {
    ...(field !== undefined ? { field } : {}),
    ...(row !== undefined ? { row } : {}),
  });
}

/** A malformed request parameter: HTTP 400. */
export function badParameter(description: string, field?: string): ErpError {
  return new ErpError(400, ErrorCode.badParameter, description, field !== undefined ? { field } : {});
}
