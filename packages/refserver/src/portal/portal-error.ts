/**
 * A failure the portal answers as `<data><res errstr="<message>"/></data>` (portal-action-api.md §7), or
 * for a JSON operation as `{"success":false,"res":false,"messages":[{"description":"<message>"}]}`.
 * Throw it from a handler for every operation failure and every bad parameter; the message is the text
 * the client sees, so it names the parameter, register or record concerned.
 */
export class PortalError extends Error {
  override readonly name = 'PortalError';
  /** HTTP status of the answer. @defaultValue 200 (real deployments answer failures with 200) */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, options: { status?: number; headers?: Record<string, string> } = {}) {
    super(message);
    this.status = options.status ?? 200;
    this.headers = options.headers ?? {};
  }
}

/** The documented known error texts (portal-action-api.md §7 "Known error texts"). */
export const RECORD_IS_LOCKED = 'Record is locked';
export const ACCESS_DENIED = 'Access denied';
