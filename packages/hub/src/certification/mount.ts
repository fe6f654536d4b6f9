/**
 * Where the certification routes go in the hub's app: its API under /api/v1, its pages at the root, both mounted
 * after the request authentication (auth/request-auth.ts `authenticate`) and before the hub's other pages (whose
 * last route answers every other GET with a 404 page).
 */
import type { Hono } from 'hono';
import { certificationApi } from './certification-api.js';
import { certificationPages } from './certification-page-routes.js';
import type { CertificationServices } from './services.js';

export function mountCertification(
  app: Hono,
  s: CertificationServices,
  o: { readonly log?: (line: string) => void } = {},
): void {
  app.route('/api/v1', certificationApi(s));
  app.route('/', certificationPages(s, o));
}
