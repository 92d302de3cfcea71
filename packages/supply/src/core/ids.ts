import { hash53 } from "./random";

/**
 * Stable ids: the same seed and inputs always give the same id, so an offer priced twice (or by
 * two gateway processes) names its items identically and the offers store can key on them.
 * Ids are opaque to sellers; the prefix only helps a human reading logs.
 */
export function stableId(prefix: string, seed: string | number, ...parts: (string | number)[]): string {
  const text = [String(seed), ...parts.map(String)].join("\u001f");
  // Two independent hashes give ~106 bits: collisions across a sandbox's lifetime are not a concern.
  const a = hash53(text).toString(36).padStart(11, "0");
  const b = hash53(`${text}\u001e`).toString(36).padStart(11, "0");
  return `${prefix}-${a}${b}`.toUpperCase();
}
