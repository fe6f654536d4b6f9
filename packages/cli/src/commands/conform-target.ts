/**
 * Step 1 of `erpcert conform` (target and preflight): the connection of the run, the embedded reference
 * server when there is no `--target`, and the check that a given target answers and accepts the credentials.
 */
import { type RunningServer, startServer } from '@erpcert/refserver';
import type { TargetInfo } from '@erpcert/runs';
import { checkTarget, type TargetConnection } from '../reports/runner.js';
import { type ConformSettings, EMBEDDED_DEFAULT, EMBEDDED_SEED_SIZE } from './conform-settings.js';

/** The connection the settings name; for the embedded server, its default login and company (URL filled in later). */
export function connectionOf(s: ConformSettings): TargetConnection {
  const embedded = s.target === undefined;
  return {
    url: s.target ?? '',
    user: s.user ?? (embedded ? EMBEDDED_DEFAULT.user : undefined),
    password: s.password ?? (embedded ? EMBEDDED_DEFAULT.password : undefined),
    compcode: s.compcode ?? (embedded ? EMBEDDED_DEFAULT.compcode : undefined),
    companyIn: s.companyIn,
    portalPath: s.portalPath,
    timeoutMs: s.timeoutMs,
    ...(s.targetGuard ? { guard: s.targetGuard.guard } : {}),
  };
}

/** The second company of the run: `--other-compcode`, or for the embedded server the demo company that is not the run's. */
export function otherCompany(s: ConformSettings, conn: TargetConnection): number | undefined {
  if (s.otherCompcode !== undefined || s.target !== undefined) return s.otherCompcode;
  return conn.compcode === EMBEDDED_DEFAULT.otherCompcode ? EMBEDDED_DEFAULT.compcode : EMBEDDED_DEFAULT.otherCompcode;
}

/** An opened target: the connection with its URL, and the embedded server to close at the end (if any). */
export type OpenedTarget =
  | { readonly ok: true; readonly conn: TargetConnection; readonly server?: RunningServer }
  | { readonly ok: false };

/**
 * Starts the embedded server (no `--target`), or checks the target (preflight). `ok: false` means exit 2:
 * the reason has been said, nothing was run.
 */
export async function openTarget(
  s: ConformSettings,
  conn: TargetConnection,
  say: (line: string) => void,
): Promise<OpenedTarget> {
  if (s.target === undefined) {
    let server: RunningServer;
    try {
      server = await startServer({
        host: '127.0.0.1',
        port: 0,
        seed: EMBEDDED_SEED_SIZE,
        user: conn.user,
        password: conn.password,
        log: () => {},
      });
    } catch (err) {
      say(`cannot start the embedded reference server: ${(err as Error).message}`);
      return { ok: false };
    }
    say(`no --target: running against the embedded reference server at ${server.url}`);
    return { ok: true, conn: { ...conn, url: server.url }, server };
  }
  const check = await checkTarget(conn);
  if (!check.ok) {
    say(`${check.message}. Nothing was run.`);
    return { ok: false };
  }
  return { ok: true, conn };
}

/** The target as the report describes it. */
export function targetInfo(s: ConformSettings, conn: TargetConnection): TargetInfo {
  return {
    url: conn.url,
    embedded: s.target === undefined,
    user: conn.user ?? null,
    compcode: conn.compcode ?? null,
    otherCompcode: otherCompany(s, conn) ?? null,
    companyIn: s.companyIn,
    portalPath: s.portalPath,
    portalcc: s.portalcc ?? null,
    usercode: s.usercode ?? (s.target === undefined ? EMBEDDED_DEFAULT.usercode : null),
  };
}
