import type { App } from './app.js';
import { portalModule } from './portal/index.js';
import type { RegisterInput } from './schema/register-schema.js';

/**
 * A piece of the server that plugs into `createApp`: the portal action API (issue 4) is one.
 * Registers are defined before the tables are made; `seed` runs once when the database is new;
 * `setup` mounts routes (`app.mount('/WebErpAPI.hal', handler)`) and may create extra tables
 * through `app.store.db`.
 */
export interface AppModule {
  readonly name: string;
  readonly registers?: readonly RegisterInput[];
  /** Fills the module's demo data; `size` is `--seed-size`. Runs inside the seeding transaction. */
  seed?(app: App, size: number): void;
  setup?(app: App): void;
}

/** The modules `createApp` mounts by default. The portal module adds itself here. */
export const builtinModules: readonly AppModule[] = [portalModule];
