import { describe, expect, it } from 'vitest';
import { sampleMutants } from './sample.js';

const pool = [
  ...Array.from({ length: 30 }, (_, i) => ({ id: `a${i}`, area: 'REST.RECORD' })),
  ...Array.from({ length: 5 }, (_, i) => ({ id: `b${i}`, area: 'PORTAL.LIST' })),
  { id: 'c0', area: 'PORTAL.LOGIN' },
];

describe('sampleMutants', () => {
  it('is the same for the same seed and differs for another', () => {
    const ids = (seed: number) => sampleMutants(pool, 6, seed).map((m) => m.id);
    expect(ids(1)).toEqual(ids(1));
    expect(ids(1)).not.toEqual(ids(2));
  });
  it('draws from every area before a second mutant of any', () => {
    const areas = sampleMutants(pool, 3, 7).map((m) => m.area);
    expect(new Set(areas)).toEqual(new Set(['REST.RECORD', 'PORTAL.LIST', 'PORTAL.LOGIN']));
  });
  it('takes n distinct mutants, or the whole pool when n is larger', () => {
    expect(new Set(sampleMutants(pool, 20, 3).map((m) => m.id)).size).toBe(20);
    expect(sampleMutants(pool, 100, 3)).toHaveLength(pool.length);
  });
});
