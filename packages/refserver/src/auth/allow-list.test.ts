import { describe, expect, it } from 'vitest';
import { parseAddress, parseAllowList } from './allow-list.js';

describe('parseAllowList: every documented entry format (record-rest-api.md §5)', () => {
  it.each([
    // single address
    ['10.1.2.3', '10.1.2.3', true],
    ['10.1.2.3', '10.1.2.4', false],
    // comma-separated list (spaces tolerated)
    ['10.1.2.3, 10.1.2.4', '10.1.2.4', true],
    ['10.1.2.3,10.1.2.4', '10.1.2.5', false],
    // CIDR
    ['172.16.0.0/12', '172.31.255.255', true],
    ['172.16.0.0/12', '172.32.0.0', false],
    ['0.0.0.0/0', '8.8.8.8', true],
    ['10.1.2.3/32', '10.1.2.3', true],
    // range
    ['10.0.0.250-10.0.1.5', '10.0.1.0', true],
    ['10.0.0.250-10.0.1.5', '10.0.1.6', false],
    // IPv6
    ['2001:db8::/32', '2001:db8:1::7', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['2001:db8::1-2001:db8::ff', '2001:db8::80', true],
    ['fe80::1', 'fe80::1%eth0', true],
    // mapped and loopback
    ['192.0.2.0/24', '::ffff:192.0.2.9', true],
    ['::ffff:192.0.2.9', '192.0.2.9', true],
    ['127.0.0.1', '::1', true],
    ['::1', '127.0.0.1', true],
    ['127.0.0.1', '::2', false],
  ])('%s allows %s: %s', (spec, client, want) => {
    expect(parseAllowList(spec).allows(client)).toBe(want);
  });

  it.each([
    ['', 'empty'],
    ['10.0.0.300', 'not an IPv4'],
    ['10.0.0.0/33', 'CIDR'],
    ['10.0.0.0/x', 'CIDR'],
    ['10.0.0.9-10.0.0.1', 'range'],
    ['10.0.0.1-::1', 'range'],
    ['example.com', 'not an IPv4'],
  ])('refuses %j (%s)', (spec, says) => {
    expect(() => parseAllowList(spec)).toThrow(says);
  });

  it('refuses a client address that is not an address', () => {
    expect(parseAllowList('0.0.0.0/0').allows('garbage')).toBe(false);
  });
});

describe('parseAddress', () => {
  it('reads IPv6 with a dotted IPv4 tail and expands ::', () => {
    expect(parseAddress('::')).toEqual({ family: 6, value: 0n });
    expect(parseAddress('1::')).toEqual({ family: 6, value: 1n << 112n });
    expect(parseAddress('64:ff9b::192.0.2.1')).toEqual({
      family: 6,
      value: (0x64n << 112n) | (0xff9bn << 96n) | 0xc0000201n,
    });
  });
});
