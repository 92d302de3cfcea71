import type { AirShoppingRequest, AirShoppingView } from "../model";
import type { SellerRef } from "../context";

/**
 * Recently issued AirShopping answers, reused while their offers are valid (spec 8: offers should
 * be cached within their validity window). An identical request from the same seller within half
 * the offer validity gets the same answer: the same offers, already stored for that seller, with
 * the expiry they were issued with. Nothing is stored again and nothing is re-priced.
 *
 * What keeps it honest:
 * - The key is the seller (agency and client) plus the decoded request (no CorrelationID/TrxID:
 *   they are not part of it), so one seller is never served another's offers.
 * - An entry lives at most half the offer validity and never past the offers' expiry, so every
 *   offer served from it still has at least half its validity left and is resolvable.
 * - Only complete answers are kept (no catalogue read failed), and while any catalogue fault is
 *   switched on the cache is neither read nor written, so failures are never hidden.
 * - Bounded: at most ANSWER_CACHE_MAX_ENTRIES answers, least recently used dropped first. An
 *   entry holds the view and its encoded Response text: about 1.2 MB for the benchmark's 748 KB
 *   answer (measured), so under 40 MB when full.
 * - Caveat: it assumes an issued offer stays orderable until it expires. If OrderCreate ever
 *   consumes offers, it must also drop that seller's entries.
 */
export interface CachedAnswer {
  view: AirShoppingView;
  /** Until when (ms) the entry may be served. */
  reuseUntil: number;
}

export const ANSWER_CACHE_MAX_ENTRIES = 32;

const kept = new WeakSet<AirShoppingView>();

/** Marks an answer this cache will give again unchanged: its encoder may keep the encoded Response for as long as the view itself is kept. */
export function keepAnswer(view: AirShoppingView): void {
  kept.add(view);
}

/** Whether the answer will be given again unchanged (the encoder's question; the cache decides). */
export function isKeptAnswer(view: AirShoppingView): boolean {
  return kept.has(view);
}

export class AnswerCache {
  private readonly entries = new Map<string, CachedAnswer>();

  constructor(private readonly maxEntries = ANSWER_CACHE_MAX_ENTRIES) {}

  static key(seller: SellerRef, request: AirShoppingRequest): string {
    return `${seller.agencyId}\u0000${seller.clientId}\u0000${JSON.stringify(request)}`;
  }

  get(key: string, now: number): AirShoppingView | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (now >= e.reuseUntil) return undefined;
    this.entries.set(key, e); // most recently used last
    return e.view;
  }

  set(key: string, view: AirShoppingView, reuseUntil: number): void {
    this.entries.delete(key);
    this.entries.set(key, { view, reuseUntil });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

const bySupply = new WeakMap<object, AnswerCache>();

/** The answer cache of one gateway (one per supply instance, like the catalogue fault switch). */
export function answerCache(supply: object): AnswerCache {
  let c = bySupply.get(supply);
  if (!c) bySupply.set(supply, (c = new AnswerCache()));
  return c;
}
