import { describe, expect, it } from 'vitest';
import { confirmed } from './preconditions.js';

describe('confirmed', () => {
  it.each([
    [true, {}],
    [false, { 'REST.SEQ.MONOTONIC': 'the delete of X changed nothing' }],
  ])('holds=%s records %j and returns holds', (holds, recorded) => {
    const seen: Record<string, string> = {};
    const ctx = {
      unconfirmed: (rules: string | readonly string[], reason: string) => {
        for (const r of typeof rules === 'string' ? [rules] : rules) seen[r] ??= reason;
      },
    };
    let built = 0;
    const got = confirmed(ctx, 'REST.SEQ.MONOTONIC', holds, () => {
      built++;
      return 'the delete of X changed nothing';
    });
    expect(got).toBe(holds);
    expect(seen).toEqual(recorded);
    expect(built).toBe(holds ? 0 : 1); // the reason is built only when the case is left out
  });
});
