import type { AppModule } from '../app-types.js';
import { ensureApiUser } from './api-user.js';
import { CallbackNotifier } from './callbacks/notifier.js';
import { createPortalRoute } from './dispatcher.js';
import { outboxRoute } from './document/outbox.js';
import { EditLocks } from './edit-locks.js';
import type { PortalState } from './handler.js';
import { recordHandlers } from './handlers-records.js';
import { seedWorkflow, setupWorkflow, workflowHandlers, workflowRegisters } from './handlers-workflow.js';
import { lockRoute } from './lock-route.js';
import { type PortalOptions, resolvePortalOptions } from './portal-options.js';
import { seedPortal } from './portal-seed.js';
import { ensurePortalTables } from './portal-tables.js';
import { portalRegisters } from './registers.js';

/** The paths the portal answers on: the documented one and the one real deployments use (DESIGN.md). */
export const PORTAL_PATHS = ['/WebErpAPI.hal', '/WebExcellentAPI.hal'] as const;

/**
 * The portal action API (portal-action-api.md) as an AppModule: its registers, its demo data, and the
 * routes `/WebErpAPI.hal`, `/WebExcellentAPI.hal`, `/erpcert/lock` and `/erpcert/outbox` on the app's store, sessions and
 * companies. README "Portal action API".
 */
export function createPortalModule(options: PortalOptions = {}): AppModule {
  const resolved = resolvePortalOptions(options);
  return {
    name: 'portal',
    registers: [...portalRegisters(), ...workflowRegisters],
    seed(app, size) {
      ensurePortalTables(app.store.db);
      seedPortal(app, size);
      seedWorkflow(app, size);
    },
    setup(app) {
      ensurePortalTables(app.store.db);
      ensureApiUser(app);
      const handlers = [...recordHandlers, ...workflowHandlers];
      const state: PortalState = {
        options: resolved,
        locks: new EditLocks(resolved.lockTtl, () => app.now().getTime()),
        subActions: new Set(handlers.filter((h) => h.kind === 'sub-action').map((h) => h.name)),
        callbacks: new CallbackNotifier(app, resolved),
      };
      const route = createPortalRoute(handlers, state);
      for (const path of PORTAL_PATHS) app.mount(path, route);
      app.mount('/erpcert/lock', lockRoute(state));
      app.mount('/erpcert/outbox', outboxRoute(), { prefix: true });
      setupWorkflow(app, state);
    },
  };
}

/** The portal module with default options (in `builtinModules`). */
export const portalModule: AppModule = createPortalModule();

/** `modules` with the portal module replaced by one with these options (`erpcert serve --max-web-post-size`). */
export function withPortalOptions(modules: readonly AppModule[], options: PortalOptions): AppModule[] {
  return modules.map((m) => (m.name === 'portal' ? createPortalModule(options) : m));
}

export { ACCESS_DENIED, type PortalContext, PortalError, type PortalHandler, RECORD_IS_LOCKED } from './handler.js';
export { DEFAULT_MAX_WEB_POST_SIZE, type PortalOptions } from './portal-options.js';
