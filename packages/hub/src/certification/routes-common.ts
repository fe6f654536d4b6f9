/**
 * What the certification routes share: registering a route with its access row (access.ts), the workflow's errors
 * as the API's refusals, the JSON body, and the public URLs of a certified run and its badge.
 */
import type { Context, Hono } from 'hono';
import { ApiError } from '../api/api-error.js';
import { href } from '../pages/html.js';
import { accessOf, type Guarded, guard } from './access.js';
import { CertificationError, type CertifiedRun } from './certification-store.js';
import { FrozenRunError } from './frozen-runs.js';
import type { CertificationServices } from './services.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The workflow's refusals as the API's: 400/404/409 with their message. */
export function asApiError(err: unknown): unknown {
  if (err instanceof CertificationError) return new ApiError(err.status, err.message);
  if (err instanceof FrozenRunError) return new ApiError(409, err.message);
  return err;
}

/**
 * Registers `handler` at `method path`, behind the route's access row; a route without a row throws here. A page's
 * POST reads its form first (its CSRF field): `form` does that.
 */
export function route(
  app: Hono,
  s: CertificationServices,
  method: Method,
  path: string,
  handler: (c: Context, g: Guarded, form?: FormData) => Promise<Response>,
  o: {
    readonly form?: boolean;
    /** Around the whole request, guard included (the pages turn refusals into HTML pages and set their headers). */
    readonly wrap?: (c: Context, run: () => Promise<Response>) => Promise<Response>;
  } = {},
): void {
  const access = accessOf(method, path);
  const wrap = o.wrap ?? ((_c: Context, run: () => Promise<Response>) => run());
  app.on(method, path, (c) => wrap(c, () => handle(c)));
  const handle = async (c: Context): Promise<Response> => {
    try {
      let form: FormData | undefined;
      if (o.form) {
        try {
          form = await c.req.raw.formData();
        } catch {
          throw new ApiError(400, 'send the form');
        }
      }
      const csrf = form?.get('csrf');
      const g = await guard(c, s, access, typeof csrf === 'string' ? csrf : undefined);
      return await handler(c, g, form);
    } catch (err) {
      throw asApiError(err);
    }
  };
}

/** The certified run's read-only report: anyone may open it. */
export function reportUrl(runId: number): string {
  return href(['certified', 'runs', runId]);
}

/** The badge of an implementation (organisation, target): stable, whatever run is certified last. */
export function badgeUrl(c: Pick<CertifiedRun, 'organisation' | 'targetId'>): string {
  return href(['badges', c.organisation.slug, `${c.targetId}.svg`]);
}

/** A share link's path for its token. */
export function sharePath(secret: string): string {
  return href(['s', secret]);
}
