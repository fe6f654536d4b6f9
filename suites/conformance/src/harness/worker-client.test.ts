import { describe, expect, it } from 'vitest';
import { ExchangeRecorder } from './recorder.js';
import { TargetConfigError, targetFromEnv } from './target.js';
import { clientConfigFor } from './worker-client.js';

const base = { ERPCERT_TARGET: 'http://erp.example.com', ERPCERT_RUN_TAG: 'ECAB12', ERPCERT_LEDGER: '/tmp/l.jsonl' };

describe("the workers' client and the hub's target guard (ERPCERT_TARGET_GUARD)", () => {
  it('without it, the client connects anywhere (a run by hand)', () => {
    expect(clientConfigFor(targetFromEnv(base), new ExchangeRecorder()).connectGuard).toBeUndefined();
  });

  it.each([
    ['none', '10.1.2.3', /10\.1\.2\.3 is private/],
    ['none', '169.254.169.254', /link-local/],
    ['10.0.0.0/8', '10.1.2.3', undefined],
    ['10.0.0.0/8', '127.0.0.1', /loopback/],
  ])('with %s, the client judges %s at connect time', (spec, address, refused) => {
    const target = targetFromEnv({ ...base, ERPCERT_TARGET_GUARD: spec });
    expect(target.targetGuard).toBe(spec);
    const guard = clientConfigFor(target, new ExchangeRecorder()).connectGuard;
    expect(typeof guard?.lookup).toBe('function');
    if (refused) expect(guard?.refusal(address)).toMatch(refused);
    else expect(guard?.refusal(address)).toBeUndefined();
  });

  it('refuses a guard it cannot read, naming the variable', () => {
    expect(() => targetFromEnv({ ...base, ERPCERT_TARGET_GUARD: '169.254.0.0/16' })).toThrow(TargetConfigError);
    expect(() => targetFromEnv({ ...base, ERPCERT_TARGET_GUARD: '169.254.0.0/16' })).toThrow(
      /^ERPCERT_TARGET_GUARD: .*overlaps 169\.254\.0\.0\/16/,
    );
  });
});
