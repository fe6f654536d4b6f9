import type { AppModule } from './app-types.js';
import { observedModule } from './observed/index.js';
import { portalModule } from './portal/index.js';

export type { AppModule } from './app-types.js';

/**
 * The modules `createApp` mounts by default: the portal action API, then the registers live servers serve
 * beyond the docs (last, so that its demo data comes after everyone else's).
 */
export const builtinModules: readonly AppModule[] = [portalModule, observedModule];
