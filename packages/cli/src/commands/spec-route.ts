import type { ObservedCatalogue } from '@erpcert/contract';
import { type AppModule, textResponse } from '@erpcert/refserver';
import { SPEC_PATH, specText } from './spec.js';

/**
 * `erpcert serve` answers `GET /erpcert/record-rest.openapi.yaml` with the record REST OpenAPI document of what it
 * serves: the document of `erpcert spec`, with the registers of its --registers file merged. No live server has
 * this path; it is a convenience of the stand-in, so it needs no login. Built on the first request.
 */
export function specRouteModule(team: ObservedCatalogue | undefined, file: string | undefined): AppModule {
  let text: string | undefined;
  return {
    name: 'spec-route',
    setup(app) {
      app.mount(SPEC_PATH, (req) => {
        if (req.method !== 'GET')
          return textResponse({ charset: 'utf-8' }, 405, 'text/plain', `${SPEC_PATH}: GET only\n`, { Allow: 'GET' });
        text ??= specText(team, file);
        return {
          status: 200,
          headers: { 'Content-Type': 'application/yaml; charset=utf-8' },
          body: Buffer.from(text, 'utf8'),
        };
      });
    },
  };
}
