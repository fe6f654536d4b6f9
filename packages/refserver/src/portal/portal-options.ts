/**
 * Options of the portal module (`createPortalModule`). Every one has a documented default
 * (README "Portal action API", "Options").
 */
export interface PortalOptions {
  /**
   * "Max Web Post Size" (portal-action-api.md §8 "Upload size": "set by a server setting named Max Web Post
   * Size"; the default is "not shown"): the largest `doupload` request body in bytes. `erpcert serve
   * --max-web-post-size`. @defaultValue 8388608 (8 MiB)
   */
  readonly maxWebPostSize?: number;
  /** Lifetime of an edit lock (`POST /erpcert/lock`) in seconds. @defaultValue 900 */
  readonly lockTtl?: number;
  /** registerapi callbacks: attempts per notice (first try included). @defaultValue 5 */
  readonly callbackAttempts?: number;
  /** registerapi callbacks: delay before the first retry in ms, doubled per retry. @defaultValue 500 */
  readonly callbackBackoffMs?: number;
  /** registerapi callbacks: time limit of one POST in ms. @defaultValue 5000 */
  readonly callbackTimeoutMs?: number;
  /** registerapi callbacks: notices waiting per callback before the oldest are dropped. @defaultValue 1000 */
  readonly callbackQueueMax?: number;
}

/** PortalOptions with every default filled in. */
export type ResolvedPortalOptions = Required<PortalOptions>;

/** The default "Max Web Post Size": 8 MiB. */
export const DEFAULT_MAX_WEB_POST_SIZE = 8 * 1024 * 1024;

/** Fills in the defaults. */
export function resolvePortalOptions(o: PortalOptions = {}): ResolvedPortalOptions {
  return {
    maxWebPostSize: o.maxWebPostSize ?? DEFAULT_MAX_WEB_POST_SIZE,
    lockTtl: o.lockTtl ?? 900,
    callbackAttempts: o.callbackAttempts ?? 5,
    callbackBackoffMs: o.callbackBackoffMs ?? 500,
    callbackTimeoutMs: o.callbackTimeoutMs ?? 5000,
    callbackQueueMax: o.callbackQueueMax ?? 1000,
  };
}
