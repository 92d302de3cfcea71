import type { Clock } from "@ndc/clock";
import type { Supply } from "@ndc/supply";
import type { OfferRepository } from "./offers/repository";
import type { PromotionCriteria } from "./offer-price/criteria";

/** The shopping settings the domain reads (config.shopping; spec 4.7, 8). */
export interface ShoppingSettings {
  servicesMaxOffers: number;
  catalogueReadTimeoutMs: number;
  catalogueDeadlineMs: number;
  promotionsTimeoutMs: number;
  offerTtlMinutes: number;
  /** SHOP_ANSWER_CACHE: reuse a seller's identical AirShopping answer (air-shopping/answer-cache.ts). */
  answerCache: boolean;
}

/** What shop() and price() work with; built per request from the handler deps (cheap: no copies). */
export interface ShoppingContext {
  supply: Supply;
  offers: OfferRepository;
  clock: Clock;
  settings: ShoppingSettings;
  /** The operator's switch of the promotion criteria (spec 4.5 rule 4), read by OfferPrice. */
  promotionCriteria: PromotionCriteria;
  /** The responding airline (OwnerCode of every offer). */
  ownerCode: string;
}

/** The seller an offer is issued to and resolved for. */
export interface SellerRef {
  clientId: string;
  agencyId: string;
}

/**
 * A view whose offers are being saved: `durable` settles once they are stored and durable, or
 * rejects if the save failed. The view may be encoded meanwhile, never sent before it settles.
 */
export interface Issued<V> {
  view: V;
  durable: Promise<void>;
}

/** Already durable (an answer-cache hit names offers saved when it was first issued). */
export const DURABLE: Promise<void> = Promise.resolve();

/**
 * The save's promise, marked handled here: a caller that fails before awaiting it (an encoder
 * that throws) must not turn a failed save into an unhandled rejection. Awaiting it still throws.
 */
export function pendingSave(save: Promise<void>): Promise<void> {
  save.catch(() => {});
  return save;
}
