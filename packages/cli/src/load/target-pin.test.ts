import { parseTargetGuard } from '@erpcert/contract';
import { describe, expect, it } from 'vitest';
import { testResolver } from '../../../hub/src/testing/test-resolver.js';
import { pinTarget } from './target-pin.js';

describe('pinTarget: the address a guarded load run is pinned to', () => {
  it('a rebinding name is asked once: the run keeps the first, allowed answer', async () => {
    const resolver = testResolver({ 'erp.test': ['127.0.0.1', '169.254.169.254'] });
    const pin = await pinTarget(parseTargetGuard('127.0.0.1/32'), 'http://erp.test:8080/erp', resolver);
    expect(pin).toEqual({
      ok: true,
      hostname: 'erp.test',
      address: '127.0.0.1',
      note: 'target guard: erp.test resolves to 127.0.0.1, allowed; the run is pinned to 127.0.0.1 (the engines do not resolve the name again)',
    });
    expect(resolver.asked).toEqual(['erp.test']);
  });

  it.each([
    ['http://127.0.0.1:8080', '127.0.0.1'],
    ['http://[::1]:8080', '::1'],
  ])('an address literal %s is pinned to itself, nothing resolved', async (url, address) => {
    const resolver = testResolver();
    const pin = await pinTarget(parseTargetGuard('127.0.0.1/32 ::1/128'), url, resolver);
    expect(pin).toMatchObject({ ok: true, address, note: `target guard: ${address} is allowed` });
    expect(resolver.asked).toEqual([]);
  });

  it.each([
    [
      'a name resolving to a private address not allowed',
      { 'erp.test': '10.1.2.3' },
      'http://erp.test',
      /^refused by the hub's target guard: erp\.test resolves to 10\.1\.2\.3 is private/,
    ],
    [
      'the metadata address as a literal',
      {},
      'http://169.254.169.254',
      /^refused by the hub's target guard: 169\.254\.169\.254 is link-local/,
    ],
    ['a name nothing resolves', {}, 'http://erp.invalid', /^cannot resolve the target's host: ENOTFOUND$/],
  ])('%s: the run does not start', async (_what, table, url, message) => {
    const pin = await pinTarget(parseTargetGuard('127.0.0.1/32'), url, testResolver(table));
    expect(pin.ok).toBe(false);
    expect(pin.ok ? '' : pin.message).toMatch(message);
  });
});
