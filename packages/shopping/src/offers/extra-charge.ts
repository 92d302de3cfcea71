import type { StoredOfferItem } from "./payload";

/**
 * What one unit of an a-la-carte product is for, read from how the item was issued: a product
 * priced for a passenger type (paxType set: bags, lounges, bundles, rail and coach rides) is
 * bought per passenger; a seat is one seat; a per-vehicle ride and a partner product (issued
 * with no paxType) are bought once for the party, whoever travels in or with it.
 */
export type UnitBasis = "passenger" | "seat" | "party";

export function unitBasis(item: Pick<StoredOfferItem, "kind" | "paxType">): UnitBasis {
  if (item.kind === "seat") return "seat";
  if (item.paxType !== undefined || item.kind === "service" || item.kind === "bundle") return "passenger";
  return "party";
}

/**
 * The pricing rule of an a-la-carte pick, the one OfferPriceRQ and OrderCreateRQ both apply:
 * an a-la-carte offer lists a UNIT price, so the charge is unit x units, units being the
 * passengers it is bought for (per-passenger products), else one, times the quantity asked for.
 * `paxIds` are the passengers the pick is for: those named with PaxRefID, or every passenger
 * the item was issued for where the request form names none (CreateOrderItem).
 */
export function chargedUnits(item: Pick<StoredOfferItem, "kind" | "paxType">, paxIds: readonly string[], qty: number): number {
  return qty * (unitBasis(item) === "passenger" ? paxIds.length : 1);
}

export function extraCharge(unitMinor: number, item: Pick<StoredOfferItem, "kind" | "paxType">, paxIds: readonly string[], qty: number): number {
  return unitMinor * chargedUnits(item, paxIds, qty);
}
