import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  AllowTargetsError,
  embeddedIPv4,
  parseTargetGuard,
  type Resolver,
  TargetRefusedError,
} from './target-guard.js';

const defaults = parseTargetGuard(undefined);
const opened = parseTargetGuard('127.0.0.1/32, 10.1.0.0/16 fd00::/8');

// [address, refused by default (pattern) or allowed (undefined), refused with the allow-list above]
const table: [string, RegExp | undefined, RegExp | undefined][] = [
  ['93.184.215.14', undefined, undefined],
  ['2606:2800:21f:cb07:6820:80da:af6b:8b2c', undefined, undefined],
  ['169.254.169.254', /link-local .*never a target/, /never a target/],
  ['169.254.0.1', /link-local/, /link-local/],
  ['fe80::1', /link-local/, /link-local/],
  ['fe80::1%eth0', /link-local/, /link-local/],
  ['::ffff:169.254.169.254', /carries 169\.254\.169\.254 is link-local/, /link-local/],
  ['::ffff:a9fe:a9fe', /carries 169\.254\.169\.254/, /link-local/],
  ['64:ff9b::a9fe:a9fe', /carries 169\.254\.169\.254/, /link-local/],
  ['2002:a9fe:a9fe::1', /carries 169\.254\.169\.254/, /link-local/],
  ['0.0.0.0', /this network/, /this network/],
  ['::', /unspecified/, /unspecified/],
  ['224.0.0.1', /multicast/, /multicast/],
  ['ff02::1', /multicast/, /multicast/],
  ['255.255.255.255', /reserved/, /reserved/],
  ['127.0.0.1', /loopback .*--allow-targets 127\.0\.0\.1\/32/, undefined],
  ['127.0.0.2', /loopback/, /loopback/],
  ['::1', /loopback/, /loopback/],
  ['::ffff:127.0.0.1', /carries 127\.0\.0\.1 is loopback/, undefined],
  ['::127.0.0.1', /carries 127\.0\.0\.1 is loopback/, undefined],
  ['10.0.0.1', /private/, /private/],
  ['10.1.2.3', /private/, undefined],
  ['172.16.0.1', /private/, /private/],
  ['172.31.255.255', /private/, /private/],
  ['172.32.0.1', undefined, undefined],
  ['192.168.1.1', /private/, /private/],
  ['100.64.0.1', /shared address space/, /shared/],
  ['fc00::1', /unique local/, /unique local/],
  ['fd12::1', /unique local/, undefined],
  ['::ffff:10.0.0.1', /carries 10\.0\.0\.1 is private/, /private/],
  ['not-an-address', /not an IP address/, /not an IP address/],
];

describe('parseTargetGuard: which addresses may be a target', () => {
  it.each(table)('%s', (address, byDefault, withList) => {
    const d = defaults.refusal(address);
    if (byDefault) expect(d).toMatch(byDefault);
    else expect(d).toBeUndefined();
    const o = opened.refusal(address);
    if (withList) expect(o).toMatch(withList);
    else expect(o).toBeUndefined();
  });

  it('names the setting to change in a refusal of an address it could open', () => {
    expect(defaults.refusal('192.168.1.1')).toContain('erpcert hub --allow-targets (ERPCERT_ALLOW_TARGETS)');
  });

  it.each([
    ['10.0.0.0/33', /not an address or a CIDR block/],
    ['example.com', /not an address or a CIDR block/],
    ['10.0.0.0/8/1', /not an address or a CIDR block/],
    ['169.254.169.254', /overlaps 169\.254\.0\.0\/16, link-local/],
    ['0.0.0.0/0', /overlaps 169\.254\.0\.0\/16/],
    ['::/0', /overlaps fe80::\/10/],
    ['224.0.0.0/3', /overlaps 224\.0\.0\.0\/4, multicast/],
  ])('refuses the allow-list entry %s', (entry, message) => {
    expect(() => parseTargetGuard(entry)).toThrow(AllowTargetsError);
    expect(() => parseTargetGuard(entry)).toThrow(message);
  });

  it('takes "none" as the defaults alone', () => {
    expect(parseTargetGuard('none').allowed).toEqual([]);
    expect(parseTargetGuard('none').refusal('127.0.0.1')).toMatch(/loopback/);
  });

  it('finds the IPv4 address an IPv6 one carries', () => {
    expect(embeddedIPv4('::ffff:a00:1')).toBe('10.0.0.1');
    expect(embeddedIPv4('2606:2800::1')).toBeUndefined();
    expect(embeddedIPv4('::1')).toBeUndefined();
  });
});

describe('checkHost: every resolved address is checked', () => {
  const resolver =
    (answers: Record<string, string[]>): Resolver =>
    async (host) => {
      const a = answers[host];
      if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
  const r = resolver({
    'public.example': ['93.184.215.14'],
    'metadata.example': ['169.254.169.254'],
    'mixed.example': ['93.184.215.14', '10.0.0.7'],
    'v6.example': ['2606:2800::1', '::ffff:127.0.0.1'],
  });

  it.each([
    ['public.example', undefined],
    ['metadata.example', /metadata\.example resolves to 169\.254\.169\.254 is link-local/],
    ['mixed.example', /mixed\.example resolves to 10\.0\.0\.7 is private/],
    ['v6.example', /resolves to ::ffff:127\.0\.0\.1 carries 127\.0\.0\.1 is loopback/],
    ['[::1]', /::1 is loopback/],
    ['169.254.169.254', /^169\.254\.169\.254 is link-local/],
  ])('%s', async (host, refused) => {
    const check = defaults.checkHost(host, r);
    if (refused) await expect(check).rejects.toThrow(refused);
    else await expect(check).resolves.toEqual(['93.184.215.14']);
  });

  it('checks a URL by its host and gives the refused address', async () => {
    const err = await defaults.checkUrl('http://metadata.example:8080/x', r).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetRefusedError);
    expect(err).toMatchObject({ code: 'ETARGETREFUSED', address: '169.254.169.254' });
  });

  it('passes a resolver failure on', async () => {
    await expect(defaults.checkHost('nowhere.example', r)).rejects.toThrow(/ENOTFOUND/);
  });
});

describe('lookup: the check at connect time', () => {
  it('refuses the connection when the name resolves to a refused address (rebinding: public, then private)', async () => {
    const server = http.createServer((_req, res) => res.end('reached'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    let calls = 0;
    // the first answer (the check before the run) is public; the second (the connection) is loopback
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    const guard = parseTargetGuard(undefined, rebinding);
    try {
      await expect(guard.checkHost('rebind.example')).resolves.toEqual(['93.184.215.14']);
      const got = await new Promise<string>((resolve) => {
        const req = http.get({ host: 'rebind.example', port, path: '/', lookup: guard.lookup, agent: false }, (res) => {
          res.resume();
          resolve(`answered ${res.statusCode}`);
        });
        req.on('error', (e: NodeJS.ErrnoException) => resolve(`${e.code}: ${e.message}`));
      });
      expect(got).toMatch(/^ETARGETREFUSED: rebind\.example resolves to 127\.0\.0\.1 is loopback/);
      expect(calls).toBe(2);
      // the same connection with loopback allowed reaches the server: the refusal above was the guard's
      const allowing = parseTargetGuard('127.0.0.1/32', async () => [{ address: '127.0.0.1', family: 4 }]);
      const reached = await new Promise<string>((resolve, reject) => {
        http
          .get({ host: 'rebind.example', port, path: '/', lookup: allowing.lookup, agent: false }, (res) => {
            let body = '';
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve(body));
          })
          .on('error', reject);
      });
      expect(reached).toBe('reached');
    } finally {
      server.close();
    }
  });
});
