import type { Clock } from "@ndc/clock";
import type { Supply } from "@ndc/supply";
import type { OfferRepository } from "./offers/repository";

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
  /** The responding airline (OwnerCode of every offer). */
  ownerCode: string;
}

/** The seller an offer is issued to and resolved for. */
export interface SellerRef {
  clientId: string;
  agencyId: string;
}
