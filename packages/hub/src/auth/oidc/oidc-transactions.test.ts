import { describe, expect, it } from 'vitest';
import { MemoryTransactions, TRANSACTION_TTL_MS } from './oidc-transactions.js';

const tx = (n: number) => ({ state: `s${n}`, nonce: `n${n}`, codeVerifier: `v${n}`, returnTo: '/' });

describe('MemoryTransactions', () => {
  it('gives a transaction back once, by an id of 256 random bits', () => {
    const store = new MemoryTransactions();
    const id = store.put(tx(1));
    expect(id).toMatch(/^[\w-]{43}$/);
    expect(store.put(tx(2))).not.toBe(id);
    expect(store.take(id)).toEqual(tx(1));
    expect(store.take(id)).toBeUndefined();
    expect(store.take('never-given')).toBeUndefined();
  });

  it('forgets a transaction after ten minutes', () => {
    let now = 1_000_000;
    const store = new MemoryTransactions(() => now);
    const kept = store.put(tx(1));
    const late = store.put(tx(2));
    now += TRANSACTION_TTL_MS - 1;
    expect(store.take(kept)).toEqual(tx(1));
    now += 1;
    expect(store.take(late)).toBeUndefined();
  });

  it('holds at most 10,000 pending, dropping the oldest first', () => {
    const store = new MemoryTransactions();
    const first = store.put(tx(0));
    const second = store.put(tx(1));
    for (let i = 2; i <= 10_000; i++) store.put(tx(i));
    expect(store.size).toBe(10_000);
    expect(store.take(first)).toBeUndefined();
    expect(store.take(second)).toEqual(tx(1));
  });
});
