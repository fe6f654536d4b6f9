/**
 * Throttled answers: 429 Too Many Requests (RFC 6585 §4) and 503 Service Unavailable (RFC 9110 §15.6.4) with a
 * `Retry-After` header (RFC 9110 §10.2.3), which is either delay-seconds or an HTTP-date. The client waits as
 * asked and sends the request again, within bounds; past them it hands the throttled answer to the caller.
 * Neither API document mentions throttling: this is what any HTTP server in front of an ERP may do.
 */

/** How the client honours `Retry-After`, for {@link ClientConfig.retryAfter}. */
export interface RetryAfterOptions {
  /** Resends of one request after throttled answers; 0 never waits. @defaultValue 3 */
  readonly maxRetries?: number;
  /** The longest single wait the client accepts, in milliseconds; a longer `Retry-After` is not waited for. @defaultValue 30000 */
  readonly maxWaitMs?: number;
}

/** @defaultValue 3 */
export const DEFAULT_MAX_RETRIES = 3;
/** @defaultValue 30000 */
export const DEFAULT_MAX_RETRY_WAIT_MS = 30_000;

/** The statuses whose `Retry-After` the client honours. */
export const THROTTLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Milliseconds to wait that a `Retry-After` value asks for, or undefined when the value is neither
 * delay-seconds nor an HTTP-date. A date in the past means now (0).
 *
 * @param nowEpochMs the wall clock, for an HTTP-date
 */
export function retryAfterMs(value: string | undefined, nowEpochMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // IMF-fixdate and the two obsolete forms RFC 9110 §5.6.7 still asks recipients to accept; Date.parse reads all three
  if (!/^[A-Za-z]{3,9},? /.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowEpochMs);
}

/** What the client does with one answer. */
export type ThrottleDecision =
  /** Not a throttled answer (or `Retry-After` is absent or unreadable): hand it on. */
  | { readonly action: 'answer' }
  /** Wait `waitMs`, then send the request again. */
  | { readonly action: 'retry'; readonly waitMs: number }
  /** Throttled, but past the bounds: hand the throttled answer on, and say why. */
  | { readonly action: 'give-up'; readonly reason: string };

/**
 * Decides on one answer. `retries` is how many times this request was already sent again.
 * A 503 without `Retry-After` is a server failure, not throttling; a 429 without it cannot be waited for sensibly.
 */
export function decideThrottle(
  status: number,
  retryAfter: string | undefined,
  retries: number,
  options: RetryAfterOptions | false | undefined,
  nowEpochMs: number,
): ThrottleDecision {
  if (!THROTTLE_STATUSES.has(status)) return { action: 'answer' };
  const waitMs = retryAfterMs(retryAfter, nowEpochMs);
  if (waitMs === undefined) return { action: 'answer' };
  if (options === false) return { action: 'give-up', reason: 'Retry-After is not honoured (retries off)' };
  const maxRetries = options?.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxWaitMs = options?.maxWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS;
  if (retries >= maxRetries)
    return { action: 'give-up', reason: `still throttled after ${retries} retr${retries === 1 ? 'y' : 'ies'}` };
  if (waitMs > maxWaitMs)
    return { action: 'give-up', reason: `Retry-After asks for ${waitMs} ms, more than the ${maxWaitMs} ms allowed` };
  return { action: 'retry', waitMs };
}
