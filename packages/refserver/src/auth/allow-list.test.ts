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

describe('IPv4-mapped IPv6 (node:net BlockList)', () => {
  it.each([
    // a mapped client against an IPv4 entry of each kind
    ['127.0.0.1', '::ffff:127.0.0.1', true],
    ['127.0.0.0/8', '::ffff:127.0.0.1', true],
    ['127.0.0.1-127.0.0.9', '::ffff:127.0.0.1', true],
    ['127.0.0.2-127.0.0.9', '::ffff:127.0.0.1', false],
    ['10.0.0.0/8', '::ffff:127.0.0.1', false],
    // the same client written in hex groups, and in full
    ['127.0.0.0/8', '::ffff:7f00:1', true],
    ['127.0.0.0/8', '0:0:0:0:0:ffff:7f00:1', true],
    ['127.0.0.0/8', '::FFFF:127.0.0.1', true],
    // a mapped entry against a plain IPv4 client
    ['::ffff:10.0.0.0/104', '10.1.2.3', true],
    ['::ffff:10.0.0.0/104', '11.1.2.3', false],
    ['::ffff:10.0.0.1-::ffff:10.0.0.9', '10.0.0.5', true],
    // an IPv6 address that only looks similar is not mapped
    ['127.0.0.0/8', '::7f00:1', false],
    ['127.0.0.0/8', '::fffe:7f00:1', false],
  ])('%s allows %s: %s', (spec, client, want) => {
    expect(parseAllowList(spec).allows(client)).toBe(want);
  });
});

describe('malformed entries: a clear error naming the entry', () => {
  it.each([
    ['10.0.0.1-', 'range'],
    ['-10.0.0.1', 'range'],
    ['10.0.0.1-10.0.0.x', 'range'],
    ['10.0.0.1-10.0.0.2-10.0.0.3', 'range'],
    ['2001:db8::ff-2001:db8::1', 'range'],
    ['::1-127.0.0.1', 'range'],
    ['10.0.0.0/', 'CIDR'],
    ['/8', 'CIDR'],
    ['10.0.0.0/8/8', 'CIDR'],
    ['10.0.0.0/-1', 'CIDR'],
    ['2001:db8::/129', 'CIDR'],
    ['10.0.0.0/1000', 'CIDR'],
    ['10.0.0', 'not an IPv4'],
    ['2001:db8:::1', 'not an IPv4'],
  ])('refuses %j (%s)', (entry, says) => {
    const list = `192.0.2.1, ${entry}`;
    expect(() => parseAllowList(list)).toThrow(says);
    expect(() => parseAllowList(list)).toThrow(`allow-list entry "${entry}"`);
  });
});

describe('parseAddress', () => {
  it('reads IPv6 with a dotted IPv4 tail and expands ::', () => {
    expect(parseAddress('::')).toEqual({ family: 'ipv6', address: '::' });
    expect(parseAddress('1:0:0:0:0:0:0:0')).toEqual({ family: 'ipv6', address: '1::' });
    // 192.0.2.1 is c000:0201
    expect(parseAddress('64:ff9b::192.0.2.1')).toEqual({ family: 'ipv6', address: '64:ff9b::c000:201' });
  });

  it.each([
    ['::ffff:192.0.2.9', '192.0.2.9'],
    ['::ffff:c000:209', '192.0.2.9'],
    [' 192.0.2.9 ', '192.0.2.9'],
  ])('reads %j as the IPv4 address %s', (text, address) => {
    expect(parseAddress(text)).toEqual({ family: 'ipv4', address });
  });

  it.each(['garbage', '', '10.0.0.256', 'fe80::1::2'])('is undefined for %j', (text) => {
    expect(parseAddress(text)).toBeUndefined();
  });
});
