import type { AppModule } from './app-types.js';
import { portalModule } from './portal/index.js';

export type { AppModule } from './app-types.js';

/** The modules `createApp` mounts by default. The portal module adds itself here. */
export const builtinModules: readonly AppModule[] = [portalModule];
