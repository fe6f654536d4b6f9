/**
 * The SSRF guard of URLs that users type (the hub's saved targets, and the runs it starts against them): which
 * addresses a target may resolve to. Never a target: link-local (169.254.0.0/16, the cloud metadata address
 * 169.254.169.254 among them; fe80::/10), "this network" and unspecified (0.0.0.0/8, ::), multicast and reserved.
 * Refused unless the operator's allow-list opens them: loopback (127.0.0.0/8, ::1) and the private ranges (10/8,
 * 172.16/12, 192.168/16, 100.64/10 shared address space, 198.18/15, fc00::/7, fec0::/10). An IPv6 address that
 * carries an IPv4 one (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged
 * by the IPv4 address as well. Matching is `node:net` BlockList's. The OWASP SSRF prevention cheat sheet's
 * "application layer" defence: an allow-list checked after DNS resolution, on every resolved address, and again at
 * connect time ({@link TargetGuard.lookup}), so that a name that resolves elsewhere between the two is caught.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { BlockList, isIP, isIPv4, isIPv6, SocketAddress } from 'node:net';

/** The setting an operator changes to open a refused range (named in every refusal). */
export const ALLOW_TARGETS_SETTING = 'erpcert hub --allow-targets (ERPCERT_ALLOW_TARGETS)';

/** The error code of a refused address, at check or connect time. */
export const TARGET_REFUSED = 'ETARGETREFUSED';

interface Range {
  readonly cidr: string;
  readonly what: string;
}

/** Never a target, whatever the allow-list says. */
const NEVER: readonly Range[] = [
  { cidr: '169.254.0.0/16', what: 'link-local (the cloud metadata address 169.254.169.254 is in it)' },
  { cidr: 'fe80::/10', what: 'link-local' },
  { cidr: '0.0.0.0/8', what: '"this network" (0.0.0.0 reaches the host itself)' },
  { cidr: '::/128', what: 'the unspecified address' },
  { cidr: '224.0.0.0/4', what: 'multicast' },
  { cidr: 'ff00::/8', what: 'multicast' },
  { cidr: '240.0.0.0/4', what: 'reserved (255.255.255.255 broadcast among them)' },
];

/** Refused unless the allow-list opens them. */
const CLOSED: readonly Range[] = [
  { cidr: '127.0.0.0/8', what: 'loopback' },
  { cidr: '::1/128', what: 'loopback' },
  { cidr: '10.0.0.0/8', what: 'private' },
  { cidr: '172.16.0.0/12', what: 'private' },
  { cidr: '192.168.0.0/16', what: 'private' },
  { cidr: '100.64.0.0/10', what: 'shared address space (carrier-grade NAT)' },
  { cidr: '198.18.0.0/15', what: 'private (benchmarking)' },
  { cidr: 'fc00::/7', what: 'private (unique local)' },
  { cidr: 'fec0::/10', what: 'private (site-local)' },
];

type Family = 'ipv4' | 'ipv6';

function split(cidr: string): { address: string; bits: number; family: Family } | undefined {
  const [address = '', bitsText, extra] = cidr.trim().split('/');
  if (extra !== undefined) return undefined;
  const family: Family | undefined = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  if (!family) return undefined;
  const max = family === 'ipv4' ? 32 : 128;
  if (bitsText === undefined) return { address, bits: max, family };
  if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > max) return undefined;
  return { address, bits: Number(bitsText), family };
}

function listOf(ranges: readonly { cidr: string }[]): BlockList {
  const list = new BlockList();
  for (const r of ranges) {
    const s = split(r.cidr);
    if (s) list.addSubnet(s.address, s.bits, s.family);
  }
  return list;
}

function matching(ranges: readonly Range[], address: string, family: Family): Range | undefined {
  return ranges.find((r) => listOf([r]).check(address, family));
}

function expand(v6: string): number[] {
  // eight 16-bit groups of a canonical IPv6 address (SocketAddress gives the compressed form)
  const [head = '', tail] = v6.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const groups = (xs: string[]) =>
    xs.flatMap((g) => {
      if (!g.includes('.')) return [Number.parseInt(g, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const h = groups(part(head));
  const t = tail === undefined ? [] : groups(part(tail));
  return [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 one carries (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(v6: string): string | undefined {
  const g = expand(v6);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (zeros(0, 6) && (g[6]! > 0 || g[7]! > 1)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/** The canonical text and family of an address, a zone (`%eth0`) and IPv6 brackets dropped; undefined if none. */
export function canonicalAddress(text: string): { address: string; family: Family } | undefined {
  const t = text
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (isIPv4(t)) return { address: new SocketAddress({ address: t, family: 'ipv4' }).address, family: 'ipv4' };
  if (isIPv6(t)) return { address: new SocketAddress({ address: t, family: 'ipv6' }).address, family: 'ipv6' };
  return undefined;
}

/** Resolves a host name to every address it has (the system resolver, or a test's). */
export type Resolver = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** A target address the guard refuses (at check or at connect time). */
export class TargetRefusedError extends Error {
  override readonly name = 'TargetRefusedError';
  readonly code = TARGET_REFUSED;
  constructor(
    message: string,
    /** The refused address. */
    readonly address: string,
  ) {
    super(message);
  }
}

/** A malformed allow-list: the message names the entry. */
export class AllowTargetsError extends Error {
  override readonly name = 'AllowTargetsError';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` of `net.connect` / `http.request` options. */
export type GuardedLookup = (
  hostname: string,
  options: LookupOptions | LookupAllOptions | number,
  callback: LookupCallback,
) => void;

export interface TargetGuard {
  /** The allow-list entries as given (empty: the defaults alone). */
  readonly allowed: readonly string[];
  /** Why an address is refused, or undefined when it may be a target. */
  refusal(address: string): string | undefined;
  /** Resolves a host (an address literal stands for itself) and checks every address; throws TargetRefusedError. */
  checkHost(hostname: string, resolver?: Resolver): Promise<string[]>;
  /** {@link checkHost} on a URL's host. */
  checkUrl(url: string | URL, resolver?: Resolver): Promise<string[]>;
  /**
   * A `lookup` for node:net/http: resolves, and fails the connection with {@link TargetRefusedError} when any
   * address is refused, so the address connected to is the one checked (no rebinding between check and connect).
   */
  readonly lookup: GuardedLookup;
}

/**
 * Parses an allow-list: CIDR blocks or single addresses, IPv4 or IPv6, separated by commas or spaces; `none` (or
 * nothing) keeps the defaults alone. An entry that overlaps a never-allowed range (link-local, multicast, ...) is
 * refused: the metadata address cannot be opened by a typo.
 */
export function parseTargetGuard(spec: string | undefined, resolver: Resolver = systemResolver): TargetGuard {
  const entries = (spec ?? '')
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter((e) => e !== '' && e.toLowerCase() !== 'none');
  const open = new BlockList();
  for (const entry of entries) {
    const s = split(entry);
    if (!s)
      throw new AllowTargetsError(
        `--allow-targets entry "${entry}" is not an address or a CIDR block <address>/<prefix>`,
      );
    const mine = listOf([{ cidr: entry }]);
    const never = NEVER.find((r) => {
      const n = split(r.cidr)!;
      return n.family === s.family && (mine.check(n.address, n.family) || listOf([r]).check(s.address, s.family));
    });
    if (never)
      throw new AllowTargetsError(
        `--allow-targets entry "${entry}" overlaps ${never.cidr}, ${never.what}: that range is never a target`,
      );
    open.addSubnet(s.address, s.bits, s.family);
  }

  const judge = (address: string, family: Family): string | undefined => {
    const never = matching(NEVER, address, family);
    if (never) return `${address} is ${never.what} (${never.cidr}): never a target`;
    const closed = matching(CLOSED, address, family);
    if (closed && !open.check(address, family))
      return (
        `${address} is ${closed.what} (${closed.cidr}) and not allowed: to allow it, add it to ` +
        `${ALLOW_TARGETS_SETTING}, e.g. --allow-targets ${family === 'ipv4' ? `${address}/32` : `${address}/128`}`
      );
    return undefined;
  };

  const refusal = (text: string): string | undefined => {
    const a = canonicalAddress(text);
    if (!a) return `${JSON.stringify(text)} is not an IP address`;
    if (a.family === 'ipv6') {
      const inner = embeddedIPv4(a.address);
      if (inner !== undefined) {
        const why = judge(inner, 'ipv4');
        if (why) return `${a.address} carries ${why}`;
      }
    }
    return judge(a.address, a.family);
  };

  const checkHost = async (hostname: string, r: Resolver = resolver): Promise<string[]> => {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const addresses = isIP(host.replace(/%.*$/, '')) ? [host] : (await r(host)).map((a) => a.address);
    if (addresses.length === 0) throw new TargetRefusedError(`${host} resolves to no address`, '');
    for (const address of addresses) {
      const why = refusal(address);
      if (why) throw new TargetRefusedError(host === address ? why : `${host} resolves to ${why}`, address);
    }
    return addresses;
  };

  const lookup: GuardedLookup = (hostname, options, callback) => {
    const all = typeof options === 'object' && options.all === true;
    const f = typeof options === 'number' ? options : options.family;
    const wanted = f === 'IPv4' ? 4 : f === 'IPv6' ? 6 : (f ?? 0);
    checkHost(hostname).then(
      (addresses) => {
        const list = addresses
          .map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }))
          .filter((a) => wanted === 0 || a.family === wanted);
        const first = list[0];
        if (!first) {
          callback(
            Object.assign(new Error(`${hostname} has no address of family ${wanted}`), { code: 'ENOTFOUND' }),
            '',
          );
          return;
        }
        if (all) callback(null, list);
        else callback(null, first.address, first.family);
      },
      (err: Error) => callback(err as NodeJS.ErrnoException, ''),
    );
  };

  return {
    allowed: entries,
    refusal,
    checkHost,
    checkUrl: (url, r) => checkHost(new URL(url).hostname, r),
    lookup,
  };
}
