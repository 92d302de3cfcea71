/**
 * A bounded memo of a pure supply computation, shared by every request of a process: least
 * recently used entries are dropped beyond `max`. Values are deep-frozen when stored, so a caller
 * that tried to change a shared result in place (say, marking a seat taken) would throw instead of
 * corrupting every later answer; what changes (seat availability, holds) is layered on by the
 * caller on a copy and never stored here.
 */
export class Memo<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly max: number) {}

  get(key: string, compute: () => V): V {
    return this.find(key) ?? this.add(key, compute());
  }

  /** The kept value (now the most recently used), or undefined. */
  find(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Keeps a value (deep-frozen, returned) under the key, dropping the least recently used beyond the bound. */
  add(key: string, computed: V): V {
    const value = deepFreeze(computed);
    if (value === undefined) return value;
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}

function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== "object" || Object.isFrozen(v)) return v;
  Object.freeze(v);
  // No key array per object (this runs for every object of every value kept): arrays by index,
  // objects by their own keys; primitives need no call at all.
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== null && typeof x === "object") deepFreeze(x);
    }
  } else {
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const x = (v as Record<string, unknown>)[k];
      if (x !== null && typeof x === "object") deepFreeze(x);
    }
  }
  return v;
}
