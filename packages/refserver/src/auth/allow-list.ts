import { isIPv4, isIPv6 } from 'node:net';

/** An address as a number in its family's space. */
interface Address {
  readonly family: 4 | 6;
  readonly value: bigint;
}

/** A parsed allow-list (record-rest-api.md §5: single address, comma list, CIDR, from-to range). */
export interface AllowList {
  /** The entries as given. */
  readonly entries: readonly string[];
  /** True when the client address matches an entry. */
  allows(address: string | undefined): boolean;
}

function v4(text: string): bigint {
  return text.split('.').reduce((a, p) => (a << 8n) | BigInt(Number(p)), 0n);
}

/** An IPv6 address (already checked by isIPv6) as a 128-bit number; a dotted IPv4 tail becomes two groups. */
function v6(text: string): bigint {
  let s = text;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const n = v4(dotted[1]!);
    s = `${s.slice(0, dotted.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const a = head ? head.split(':') : [];
  const b = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? a : [...a, ...Array<string>(8 - a.length - b.length).fill('0'), ...b];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

/**
 * Parses a client address; IPv4-mapped IPv6 (`::ffff:10.0.0.1`) counts as the IPv4 address and a
 * zone (`%eth0`) is dropped. Undefined for something that is not an address.
 */
export function parseAddress(text: string): Address | undefined {
  const t = text.trim().replace(/%.*$/, '');
  if (isIPv4(t)) return { family: 4, value: v4(t) };
  if (!isIPv6(t)) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(t);
  if (mapped) return { family: 4, value: v4(mapped[1]!) };
  const value = v6(t);
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

type Matcher = (a: Address) => boolean;

function entryMatcher(entry: string): Matcher {
  const slash = entry.indexOf('/');
  if (slash >= 0) {
    const base = parseAddress(entry.slice(0, slash));
    const bitsText = entry.slice(slash + 1);
    const max = base?.family === 4 ? 32 : 128;
    if (!base || !/^\d{1,3}$/.test(bitsText) || Number(bitsText) > max)
      throw new Error(`allow-list entry "${entry}" is not a CIDR block <address>/<prefix>`);
    const shift = BigInt(max - Number(bitsText));
    return (a) => a.family === base.family && a.value >> shift === base.value >> shift;
  }
  const dash = entry.indexOf('-');
  if (dash >= 0) {
    const from = parseAddress(entry.slice(0, dash));
    const to = parseAddress(entry.slice(dash + 1));
    if (!from || !to || from.family !== to.family || from.value > to.value)
      throw new Error(`allow-list entry "${entry}" is not a range <from>-<to> of one address family, from <= to`);
    return (a) => a.family === from.family && a.value >= from.value && a.value <= to.value;
  }
  const one = parseAddress(entry);
  if (!one) throw new Error(`allow-list entry "${entry}" is not an IPv4 or IPv6 address`);
  return (a) => a.family === one.family && a.value === one.value;
}

const LOOPBACK4: Address = { family: 4, value: v4('127.0.0.1') };
const LOOPBACK6: Address = { family: 6, value: 1n };

/**
 * Parses `--allow`: entries separated by commas (or spaces), each a single address, a CIDR block
 * `<address>/<prefix>` or a range `<from>-<to>`, IPv4 or IPv6. Loopback is one host: `::1` and
 * `127.0.0.1` match each other's entries. Throws on a malformed entry.
 */
export function parseAllowList(spec: string): AllowList {
  const entries = spec
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error('the allow-list is empty');
  const matchers = entries.map(entryMatcher);
  const test = (a: Address) => matchers.some((m) => m(a));
  return {
    entries,
    allows(address) {
      const a = parseAddress(address ?? '127.0.0.1');
      if (!a) return false;
      if (test(a)) return true;
      if (a.family === 6 && a.value === 1n) return test(LOOPBACK4);
      if (a.family === 4 && a.value >> 24n === 127n) return test(LOOPBACK6);
      return false;
    },
  };
}
