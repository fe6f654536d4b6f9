/**
 * The JSON object body of an API request, or a 400 that says what to send: the one reader of the routes that take
 * JSON (accounts, live runs, certification).
 */
import { ApiError } from './api-error.js';

/**
 * The body as an object. `expected` (e.g. `{ "days": 7 }`) is named in the refusal; without it the refusal says
 * only that the body must be a JSON object.
 */
export async function jsonBody(
  c: { req: { json(): Promise<unknown> } },
  expected?: string,
): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, expected === undefined ? 'the body must be a JSON object' : `send JSON: ${expected}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(
      400,
      expected === undefined ? 'the body must be a JSON object' : `send a JSON object: ${expected}`,
    );
  return body as Record<string, unknown>;
}
