/**
 * A {@link ConnectGuard} that pins a client to one address: the target's host name is never resolved again, every
 * connection goes to the address the hub's target guard checked once (`erpcert load --target-guard`), so a name that
 * answers differently later (DNS rebinding) changes nothing. The request still names the host (URL, `Host`, TLS
 * server name); any other host or address literal is refused with {@link CONNECT_REFUSED_BY_GUARD}.
 */
import { isIPv6 } from 'node:net';
import { CONNECT_REFUSED_BY_GUARD, type ConnectGuard } from './transport.js';

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Connects `hostname` (as in the target URL) to `address`, and nothing else anywhere. */
export function pinnedConnectGuard(hostname: string, address: string): ConnectGuard {
  const host = bare(hostname);
  const pinned = bare(address);
  const family = isIPv6(pinned) ? 6 : 4;
  const refused = (what: string) =>
    Object.assign(new Error(`${what} is not the run's target, pinned to ${pinned} (${host})`), {
      code: CONNECT_REFUSED_BY_GUARD,
    });
  return {
    lookup(name, options, callback) {
      if (bare(name) !== host) {
        callback(refused(name), '');
        return;
      }
      if (typeof options === 'object' && options.all === true) callback(null, [{ address: pinned, family }]);
      else callback(null, pinned, family);
    },
    refusal: (literal) => (bare(literal) === pinned ? undefined : refused(literal).message),
  };
}
