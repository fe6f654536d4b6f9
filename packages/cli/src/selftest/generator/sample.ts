/**
 * The random sample of `erpcert self-test --sample N --seed S`: deterministic for a seed, and drawn from every
 * rule area in turn (each area shuffled by the seed), so that a small sample still reaches every area.
 */
import type { GeneratedMutant } from './generated-mutant.js';

/** mulberry32: a small, fast, seedable generator (same seed, same sequence, on every platform). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * `n` mutants of `pool` (all when `n` is at least its size), drawn round-robin over the rule areas in a
 * seed-shuffled order, each area's mutants in a seed-shuffled order. Returned in the order drawn.
 */
export function sampleMutants<T extends Pick<GeneratedMutant, 'area'>>(
  pool: readonly T[],
  n: number,
  seed: number,
): T[] {
  const random = seededRandom(seed);
  const byArea = new Map<string, T[]>();
  for (const m of pool) byArea.set(m.area, [...(byArea.get(m.area) ?? []), m]);
  const areas = shuffled([...byArea.keys()].sort(), random);
  const queues = areas.map((a) => shuffled(byArea.get(a)!, random));
  const out: T[] = [];
  for (let round = 0; out.length < Math.min(n, pool.length); round++)
    for (const q of queues) if (round < q.length && out.length < n) out.push(q[round]!);
  return out;
}

/**
 * `n` behaviour mutants (all when `n` is at least the pool): round-robin over the operators in a seed-shuffled
 * order, each operator's mutants drawn round-robin over their rule areas ({@link sampleMutants}), so that a sample
 * of eight holds every operator and a larger one every operator and area.
 */
export function sampleByOperator<T extends Pick<GeneratedMutant, 'area' | 'operator'>>(
  pool: readonly T[],
  n: number,
  seed: number,
): T[] {
  const random = seededRandom(seed);
  const byOperator = new Map<string, T[]>();
  for (const m of pool) byOperator.set(m.operator ?? '', [...(byOperator.get(m.operator ?? '') ?? []), m]);
  const queues = shuffled([...byOperator.keys()].sort(), random).map((op, i) =>
    sampleMutants(byOperator.get(op)!, Number.MAX_SAFE_INTEGER, seed + i + 1),
  );
  const out: T[] = [];
  for (let round = 0; out.length < Math.min(n, pool.length); round++)
    for (const q of queues) if (round < q.length && out.length < n) out.push(q[round]!);
  return out;
}
