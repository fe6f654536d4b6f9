/** Where the hub's OpenAPI document is: the tests hold the API to it, and `pnpm bench` runs Schemathesis over it. */
import { fileURLToPath } from 'node:url';

export const HUB_OPENAPI: string = fileURLToPath(new URL('../../hub.openapi.yaml', import.meta.url));
