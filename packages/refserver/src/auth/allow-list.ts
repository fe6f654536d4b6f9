import { BlockList, isIPv4, isIPv6, SocketAddress } from 'node:net';

/** A client or entry address: its family and its canonical text (`::ffff:a.b.c.d` counts as IPv4). */
export interface Address {
  readonly family: 'ipv4' | 'ipv6';
  readonly address: string;
}

/** A parsed allow-list (record-rest-api.md §5: single address, comma list, CIDR, from-to range). */
export interface AllowList {
  /** The entries as given. */
  readonly entries: readonly string[];
  /** True when the client address matches an entry. */
  allows(address: string | undefined): boolean;
}

/**
 * Parses an address with the platform's parser (`node:net` SocketAddress); IPv4-mapped IPv6
 * (`::ffff:10.0.0.1`, `::ffff:a00:1`) counts as the IPv4 address and a zone (`%eth0`) is dropped.
 * Undefined for something that is not an address.
 */
export function parseAddress(text: string): Address | undefined {
  const t = text.trim().replace(/%.*$/, '');
  if (isIPv4(t)) return { family: 'ipv4', address: new SocketAddress({ address: t, family: 'ipv4' }).address };
  if (!isIPv6(t)) return undefined;
  const address = new SocketAddress({ address: t, family: 'ipv6' }).address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  return mapped ? { family: 'ipv4', address: mapped[1]! } : { family: 'ipv6', address };
}

/** The family of an entry's address part as BlockList takes it: an IPv6 literal stays IPv6, even mapped. */
function literal(text: string): { address: string; family: 'ipv4' | 'ipv6' } | undefined {
  const t = text.trim().replace(/%.*$/, '');
  if (isIPv4(t)) return { address: t, family: 'ipv4' };
  if (isIPv6(t)) return { address: t, family: 'ipv6' };
  return undefined;
}

/** Adds one entry to the list; throws an error naming the entry when it is malformed. */
function addEntry(list: BlockList, entry: string): void {
  const slash = entry.indexOf('/');
  if (slash >= 0) {
    const base = literal(entry.slice(0, slash));
    const bitsText = entry.slice(slash + 1);
    const max = base?.family === 'ipv4' ? 32 : 128;
    if (!base || !/^\d{1,3}$/.test(bitsText) || Number(bitsText) > max)
      throw new Error(`allow-list entry "${entry}" is not a CIDR block <address>/<prefix>`);
    list.addSubnet(base.address, Number(bitsText), base.family);
    return;
  }
  const dash = entry.indexOf('-');
  if (dash >= 0) {
    const from = literal(entry.slice(0, dash));
    const to = literal(entry.slice(dash + 1));
    const refuse = () =>
      new Error(`allow-list entry "${entry}" is not a range <from>-<to> of one address family, from <= to`);
    if (!from || !to || from.family !== to.family) throw refuse();
    try {
      list.addRange(from.address, to.address, from.family);
    } catch {
      throw refuse(); // BlockList refuses a range whose start comes after its end
    }
    return;
  }
  const one = literal(entry);
  if (!one) throw new Error(`allow-list entry "${entry}" is not an IPv4 or IPv6 address`);
  list.addAddress(one.address, one.family);
}

/** The IPv4 loopback block; BlockList matches `::ffff:127.x.y.z` against it too. */
const LOOPBACK4 = new BlockList();
LOOPBACK4.addSubnet('127.0.0.0', 8, 'ipv4');

/**
 * Parses `--allow`: entries separated by commas (or spaces), each a single address, a CIDR block
 * `<address>/<prefix>` or a range `<from>-<to>`, IPv4 or IPv6. The matching is `node:net` BlockList's,
 * so an IPv4 entry matches the client's IPv4-mapped IPv6 address and the other way round. Loopback is
 * one host: `::1` and `127.0.0.1` match each other's entries. Throws on a malformed entry, naming it.
 */
export function parseAllowList(spec: string): AllowList {
  const entries = spec
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('the allow-list is empty');
  const list = new BlockList();
  for (const entry of entries) addEntry(list, entry);
  return {
    entries,
    allows(address) {
      const a = parseAddress(address ?? '127.0.0.1');
      if (!a) return false;
      if (list.check(a.address, a.family)) return true;
      if (a.family === 'ipv6' && a.address === '::1') return list.check('127.0.0.1', 'ipv4');
      if (a.family === 'ipv4' && LOOPBACK4.check(a.address, 'ipv4')) return list.check('::1', 'ipv6');
      return false;
    },
  };
}
