/**
 * `erpcert load --target-guard` (the hub's SSRF allow-list for the load runs it starts): the target's host is
 * resolved once, every address is checked, and the run is pinned to the first one. The engines then connect to that
 * address (k6's `hosts`, autocannon's URL with the name as Host and TLS server name, the setup clients' pinned
 * lookup) and never resolve the name again, so a name that answers an allowed address first and another one later
 * (DNS rebinding) cannot move the run.
 */
import { type Resolver, TARGET_REFUSED, type TargetGuard } from '@erpcert/contract';

export type TargetPin =
  | { readonly ok: true; readonly hostname: string; readonly address: string; readonly note: string }
  | { readonly ok: false; readonly message: string };

/** Resolves and checks `target`'s host once; the address to pin the run to, or why the run may not start. */
export async function pinTarget(guard: TargetGuard, target: string, resolver?: Resolver): Promise<TargetPin> {
  const hostname = new URL(target).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  try {
    addresses = await guard.checkHost(hostname, resolver);
  } catch (err) {
    const e = err as Error & { code?: string };
    return {
      ok: false,
      message:
        e.code === TARGET_REFUSED
          ? `refused by the hub's target guard: ${e.message}`
          : `cannot resolve the target's host: ${e.code ?? e.message}`,
    };
  }
  const address = addresses[0]!;
  const note =
    address === hostname
      ? `target guard: ${hostname} is allowed`
      : `target guard: ${hostname} resolves to ${addresses.join(', ')}, allowed; the run is pinned to ${address} (the engines do not resolve the name again)`;
  return { ok: true, hostname, address, note };
}
