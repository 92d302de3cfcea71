import { stableId } from "../core/ids";
import type { CurrencyCode } from "@ndc/money";
import { money, type Money } from "@ndc/money";
import { convert } from "../exchange/rates";
import type { PaxType } from "../fares/pax";
import type { Flight } from "../schedule/flights";
import { serviceBundle } from "./bundles";
import { partnerProduct } from "./partners";
import { rideByCode } from "./rides";
import { catalogueService } from "./services";

/**
 * Priced a-la-carte items. The item id is derived from the seed and everything that determines
 * the price (product, flights, passenger type, currency), so pricing the same thing again names
 * it the same and OfferPrice/OrderCreate can resolve it without a counter.
 */
export interface PricedItem {
  itemId: string;
  kind: "service" | "bundle" | "ride" | "partner";
  code: string;
  /** Flights the item is for (one for a per-segment extra, the direction's for a per-journey one). */
  flightKeys: string[];
  paxType: PaxType | undefined;
  unitPrice: Money;
}

const longHaul = (flights: readonly Flight[]): boolean => flights.some((f) => f.aircraft.wideBody);

export function priceService(seed: string | number, code: string, flights: readonly Flight[], paxType: PaxType, currency: CurrencyCode): PricedItem {
  const s = catalogueService(code);
  if (!s) throw new RangeError(`unknown service ${code}`);
  if (paxType === "INF" && !s.infantsAllowed) throw new RangeError(`${code} is not sold to lap infants`);
  if (s.per === "segment" && flights.length !== 1) throw new RangeError(`${code} is sold per flight`);
  const base = longHaul(flights) ? s.price.long : s.price.short;
  const keys = flights.map((f) => f.key);
  return { itemId: stableId("SRV", seed, code, ...keys, paxType, currency), kind: "service", code, flightKeys: keys, paxType, unitPrice: convert(base, currency) };
}

export function priceBundle(seed: string | number, code: string, flights: readonly Flight[], paxType: PaxType, currency: CurrencyCode): PricedItem {
  const b = serviceBundle(code);
  if (!b) throw new RangeError(`unknown bundle ${code}`);
  const keys = flights.map((f) => f.key);
  const base = longHaul(flights) ? b.price.long : b.price.short;
  return { itemId: stableId("BND", seed, code, ...keys, paxType, currency), kind: "bundle", code, flightKeys: keys, paxType, unitPrice: convert(base, currency) };
}

/** Rides are priced per passenger or per vehicle (then paxType is undefined). */
export function priceRide(seed: string | number, code: string, flight: Flight, paxType: PaxType | undefined, currency: CurrencyCode): PricedItem {
  const r = rideByCode(code);
  if (!r) throw new RangeError(`unknown ride ${code}`);
  if (r.airport !== flight.origin && r.airport !== flight.destination) throw new RangeError(`${code} does not serve flight ${flight.key}`);
  const who = r.pricedPer === "vehicle" ? undefined : (paxType ?? "ADT");
  return { itemId: stableId("RIDE", seed, code, flight.key, who ?? "vehicle", currency), kind: "ride", code, flightKeys: [flight.key], paxType: who, unitPrice: convert(r.price, currency) };
}

export function pricePartnerProduct(seed: string | number, code: string, flights: readonly Flight[], currency: CurrencyCode): PricedItem {
  const p = partnerProduct(code);
  if (!p) throw new RangeError(`unknown partner product ${code}`);
  const keys = flights.map((f) => f.key);
  return { itemId: stableId("PART", seed, code, ...keys, currency), kind: "partner", code, flightKeys: keys, paxType: undefined, unitPrice: convert(p.price, currency) };
}

/** A seat's price in the requested currency, with a stable id per flight, seat and currency. */
export function priceSeat(seed: string | number, flightKey: string, seatId: string, basePrice: Money, currency: CurrencyCode): { itemId: string; price: Money } {
  return { itemId: stableId("SEAT", seed, flightKey, seatId, currency), price: basePrice.amount === 0 ? money(0, currency) : convert(basePrice, currency) };
}
