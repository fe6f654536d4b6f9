import type { AppModule } from './app-types.js';
import { observedModule } from './observed/index.js';
import { portalModule } from './portal/index.js';
import type { RegisterSchema } from './schema/register-schema.js';
import { RecordStore } from './store/record-store.js';

export type { AppModule } from './app-types.js';

/**
 * The modules `createApp` mounts by default: the portal action API, then the registers live servers serve
 * beyond the docs (last, so that its demo data comes after everyone else's).
 */
export const builtinModules: readonly AppModule[] = [portalModule, observedModule];

/** The registers an app built from these modules serves, by name, with their header and row fields. */
export function registersOfModules(modules: readonly AppModule[]): Map<string, RegisterSchema> {
  const registry = RecordStore.registryFor({
    registers: modules.flatMap((m) => m.registers ?? []),
    fields: modules.flatMap((m) => m.fields ?? []),
  });
  return new Map(registry.all().map((s) => [s.name, s]));
}
