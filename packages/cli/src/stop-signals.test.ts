import { describe, expect, it } from 'vitest';
import { listenForStop } from './stop-signals.js';

describe('listenForStop', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s ends the wait, also when it came before the wait began', async (s) => {
    const before = listenForStop();
    process.emit(s, s);
    await expect(before.stopped()).resolves.toBe(s);
    before.detach();
    const after = listenForStop();
    const waiting = after.stopped();
    process.emit(s, s);
    await expect(waiting).resolves.toBe(s);
    after.detach();
  });

  it('detach stops listening', () => {
    const count = () => process.listenerCount('SIGTERM') + process.listenerCount('SIGINT');
    const start = count();
    const signals = listenForStop();
    expect(count()).toBe(start + 2);
    signals.detach();
    expect(count()).toBe(start);
  });
});
