/**
 * Seeded pseudo-randomness. Every "random" choice in the simulated airline (departure minutes,
 * fare noise, seat occupancy) comes from a stream keyed by the seed plus the thing being decided,
 * so one flight's occupancy never shifts because another flight was looked at first.
 */

/** cyrb53: a fast, well-mixed 53-bit string hash; stable across runtimes (integer ops only). */
export function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A generator of integers; floats are never handed out so callers cannot leak them into money. */
export interface Rng {
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [min, max], both inclusive. */
  between(min: number, max: number): number;
  /** True with probability perMille / 1000. */
  chance(perMille: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32 over a 32-bit state seeded from the key. */
export function rngFor(seed: string | number, ...key: (string | number)[]): Rng {
  let state = hash53([String(seed), ...key.map(String)].join("\u001f")) >>> 0;
  const next32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const int = (n: number): number => {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError(`rng.int needs a positive integer, got ${n}`);
    // Modulo bias is negligible for the small n used here (n << 2^32).
    return next32() % n;
  };
  return {
    int,
    between: (min, max) => min + int(max - min + 1),
    chance: (perMille) => int(1000) < perMille,
    pick: (items) => {
      if (items.length === 0) throw new RangeError("rng.pick on an empty list");
      return items[int(items.length)]!;
    },
  };
}
