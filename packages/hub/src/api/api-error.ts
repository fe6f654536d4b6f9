/**
 * Errors of the API: every refusal is JSON `{ "error": "<what is wrong>" }` with a 4xx; anything unexpected is a
 * plain 500 that says nothing of the inside (the stack goes to the hub's log), as hono's default handler does.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { AccountError } from '../auth/accounts.js';
import { IngestError } from '../ingest/ingest-error.js';
import { TargetInputError } from '../live/saved-targets.js';
import { SecretBoxError } from '../live/secret-box.js';
import { StoreInputError } from '../store/hub-store.js';

/** A refusal with its status. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 503,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export interface ErrorBody {
  readonly error: string;
}

export function errorResponse(err: unknown, c: Context, log: (line: string) => void): Response {
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
    return c.json({ error: err.message } satisfies ErrorBody, err.status as ContentfulStatusCode);
  }
  if (err instanceof IngestError) return c.json({ error: err.message } satisfies ErrorBody, err.status);
  if (err instanceof AccountError) return c.json({ error: err.message } satisfies ErrorBody, err.status);
  if (err instanceof TargetInputError) return c.json({ error: err.message } satisfies ErrorBody, err.status);
  if (err instanceof SecretBoxError) return c.json({ error: err.message } satisfies ErrorBody, 422);
  if (err instanceof StoreInputError) return c.json({ error: err.message } satisfies ErrorBody, 400);
  log(`hub: ${c.req.method} ${c.req.path} failed: ${(err as Error)?.stack ?? String(err)}`);
  return c.json({ error: 'internal error of the hub (see its log)' } satisfies ErrorBody, 500);
}

/** A positive integer path or query parameter, or a 400 naming it. */
export function intParam(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined || value === '') {
    if (fallback !== undefined) return fallback;
    throw new ApiError(400, `${name} is required`);
  }
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2_147_483_647)
    throw new ApiError(400, `${name} must be a positive integer, not ${JSON.stringify(value.slice(0, 40))}`);
  return Number(value);
}
