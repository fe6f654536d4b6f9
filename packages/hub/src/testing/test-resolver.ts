/**
 * A resolver for tests of the hub's SSRF guard: names answer from a table (`rebind` answers in turn, the last one
 * repeating), any other name under `.example`, `.example.com` or `.test` (RFC 6761's names for tests) resolves to a documentation address (TEST-NET-3,
 * 203.0.113.0/24: public to the guard, routed nowhere), anything else is not found. Every question is recorded.
 */
import type { Resolver } from '@erpcert/contract';

export const PUBLIC_TEST_ADDRESS = '203.0.113.10';

export interface TestResolver extends Resolver {
  readonly asked: string[];
}

export function testResolver(table: Readonly<Record<string, string | readonly string[]>> = {}): TestResolver {
  const asked: string[] = [];
  const turns = new Map<string, number>();
  const resolve = async (host: string) => {
    asked.push(host);
    const entry = table[host];
    let address: string | undefined;
    if (Array.isArray(entry)) {
      const n = turns.get(host) ?? 0;
      turns.set(host, n + 1);
      address = entry[Math.min(n, entry.length - 1)];
    } else if (typeof entry === 'string') address = entry;
    else if (/\.(example(\.com)?|test)$/.test(host)) address = PUBLIC_TEST_ADDRESS;
    if (address === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
  return Object.assign(resolve, { asked });
}
