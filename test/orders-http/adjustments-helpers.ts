/** Shop -> OfferPrice over HTTP: a priced offer (OPR-...) with its promotion adjustments, ready to book. */
import { expect } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, offerPriceRQ } from "../shopping/shop-requests";
import { TRAVEL_DATE, type Shopped } from "./helpers";

export const minor = (s: string | undefined) => Math.round(Number(s) * 100);

export interface Priced extends Shopped {
  /** The PricedOffer block of OfferPriceRS, to compare with the order. */
  offer: string;
}

/**
 * LHR-CDG in EUR, the offer of `brand` priced for passengers of the
 * given types (PAX1, PAX2, ...; one adult by default). FLEX in EUR on the NDC channel
 * carries both a discount (PR-NDC-FLEX10, 10%) and a surcharge (PR-NDC-FUEL, EUR 3.00 a passenger);
 * any other brand carries the surcharge alone (packages/supply/src/promotions/rules.ts).
 * `currency`: another currency (JPY: PR-NDC-JPY's 1000 JPY discount on the flight instead);
 * `totalMinor` assumes 2 decimals, so read `offer` for another.
 */
export async function pricedOffer(t: Pick<TestGateway, "ndc">, o: { brand?: string; ptcs?: string[]; bag?: boolean; headers?: Record<string, string>; currency?: string } = {}): Promise<Priced> {
  const currency = o.currency ?? "EUR";
  const pax = (o.ptcs ?? ["ADT"]).map((ptc, i): [string, string] => [`PAX${i + 1}`, ptc]);
  const criteria = o.bag ? [{ rfisc: ["0CC"] }] : undefined;
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: TRAVEL_DATE }], pax, currency, criteria }), { headers: o.headers });
  expect(shop.status).toBe(200);
  const brand = o.brand ?? "FLEX";
  const offers = blocks(shop.body, "Offer");
  const idx = offers.findIndex((x) => x.includes(`<cns:PriceClassRefID>PC-${brand}</cns:PriceClassRefID>`));
  expect(idx).toBeGreaterThanOrEqual(0);
  const offer = offers[idx]!;
  const items = blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") }));
  const selected = [{ offerId: all(offer, "OfferID")[0]!, items }];
  if (o.bag) {
    // One checked bag for PAX1 from the offer's a-la-carte services (an extra: PR-NDC-EXTRAS5).
    const alc = blocks(shop.body, "ALaCarteOffer")[idx]!;
    const bag = blocks(alc, "OfferItem").find((i) => all(i, "PaxRefID").includes("PAX1"))!;
    selected.push({ offerId: all(alc, "OfferID")[0]!, items: [{ id: all(bag, "OfferItemID")[0]!, pax: ["PAX1"] }] });
  }
  const priced = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: selected, currency }), { headers: o.headers });
  expect(priced.status).toBe(200);
  const po = blocks(priced.body, "PricedOffer")[0]!;
  const total = all(blocks(po, "TotalPrice")[0]!, "TotalAmount").at(-1);
  const pricedItems = blocks(po, "OfferItem");
  // Each item is booked for the passengers the priced offer states it is for (FareDetail, Service).
  const itemPax = pricedItems.map((i) => [...new Set(all(i, "PaxRefID"))]);
  return { offerId: all(po, "OfferID")[0]!, itemIds: pricedItems.map((i) => all(i, "OfferItemID")[0]!), itemPax, totalMinor: minor(total), offer: po };
}

/**
 * Rule id -> amount (minor units) of each Discount or Surcharge of one price block. A price holds
 * one Discount whose DiscountContext names each rule ("<name>: 12.34 EUR"); Surcharge repeats.
 */
export function adjustmentsOf(price: string): { discounts: Map<string, number>; surcharges: Map<string, number> } {
  const discounts = new Map<string, number>();
  for (const d of blocks(price, "DiscountContext")) discounts.set(all(d, "KeyText")[0]!, minor(/([0-9.]+) [A-Z]{3}$/.exec(all(d, "ValueText")[0]!)?.[1]));
  const surcharges = new Map<string, number>();
  for (const s of blocks(price, "Surcharge")) surcharges.set(all(s, "DesigText")[0] ?? "?", minor(all(s, "TotalAmount")[0]));
  return { discounts, surcharges };
}

/** The sum of a map's amounts. */
export const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
