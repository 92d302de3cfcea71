import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, offerPriceRQ, type PriceOpts } from "./shop-requests";

/** Price adjustments on OfferPrice (SHPREV, SHPDSC; spec 4.5 rules 3-5). */
let t: TestGateway;
let start: string;
beforeAll(async () => {
  t = await startTestGateway({ SHOP_PROMOTIONS_TIMEOUT_MS: "50" }, new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0)));
  start = t.gw.supply.startDate;
});
afterAll(() => t.close());
afterEach(() => {
  t.gw.supply.promotions.mode = "ok";
});

/** Shops LHR-FRA one-way for an adult and a child in a currency, then prices the brand's offer (plus one bag). */
async function priced(brand: string, currency = "EUR", withBag = false) {
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(start, 30) }], pax: [["A", "ADT"], ["C", "CHD"]], currency, criteria: withBag ? [{ rfisc: ["0CC"] }] : undefined }));
  const offers = blocks(shop.body, "Offer");
  const idx = offers.findIndex((o) => o.includes(`<cns:PriceClassRefID>PC-${brand}</cns:PriceClassRefID>`));
  const offer = offers[idx]!;
  const sel: PriceOpts["offers"] = [{ offerId: all(offer, "OfferID")[0]!, items: blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") })) }];
  if (withBag) {
    const alc = blocks(shop.body, "ALaCarteOffer")[idx]!;
    const bag = blocks(alc, "OfferItem").find((i) => all(i, "PaxRefID").includes("A"))!;
    sel.push({ offerId: all(alc, "OfferID")[0]!, items: [{ id: all(bag, "OfferItemID")[0]!, pax: ["A"], qty: 1 }] });
  }
  const r = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: sel, currency }));
  expect(r.status).toBe(200);
  return r.body;
}
const cents = (s: string | undefined) => Math.round(Number(s) * 100);
const codes = (xml: string) => all(xml, "Code");
const ruleIds = (xml: string) => [...all(xml, "KeyText"), ...all(xml, "DesigText")];

describe("NDC auto-apply rules", () => {
  test("FLEX in EUR: 10% discount and the EUR fuel surcharge on each flight item and on the offer", async () => {
    const body = await priced("FLEX");
    const offer = blocks(body, "PricedOffer")[0]!;
    for (const item of blocks(offer, "OfferItem")) {
      const p = blocks(item, "Price")[0]!;
      expect(ruleIds(p)).toContain("PR-NDC-FLEX10");
      expect(ruleIds(p)).toContain("PR-NDC-FUEL");
      // base + taxes + surcharge - discount = total, exactly.
      const total = cents(all(p, "BaseAmount")[0]) + cents(all(p, "TotalTaxAmount")[0]) + cents(all(blocks(p, "Surcharge")[0]!, "TotalAmount")[0]) - cents(all(p, "DiscountAmount")[0]);
      expect(total).toBe(cents(all(p, "TotalAmount").at(-1)));
    }
    // Fuel: 3.00 per passenger, two passengers -> 6.00 on the offer.
    const totalPrice = blocks(offer, "TotalPrice")[0]!;
    expect(all(blocks(totalPrice, "Surcharge")[0]!, "TotalAmount")[0]).toBe("6.00");
    expect(ruleIds(totalPrice)).toContain("PR-NDC-FLEX10");
  });

  test("rules of other channels and rules not auto-applied never apply", async () => {
    const body = await priced("FLEX");
    expect(body).not.toContain("PR-WEB-15");
    expect(body).not.toContain("PR-NDC-CODE");
  });

  test("a fixed amount in another currency is not applied and a Warning says so", async () => {
    const body = await priced("SAVER"); // LHR departure: the GBP 7 rule targets it, the offer is in EUR
    expect(ruleIds(body)).not.toContain("PR-NDC-GBP7");
    expect(codes(body)).toContain("promotion_not_applied");
    expect(blocks(body, "Warning").find((w) => w.includes("promotion_not_applied"))).toContain("PR-NDC-GBP7 (fixed in GBP, offer in EUR)");
  });

  test("in GBP the GBP rule applies and the EUR fuel surcharge does not", async () => {
    const body = await priced("SAVER", "GBP");
    expect(ruleIds(body)).toContain("PR-NDC-GBP7");
    expect(ruleIds(body)).not.toContain("PR-NDC-FUEL");
    expect(blocks(body, "Warning").find((w) => w.includes("promotion_not_applied"))).toContain("PR-NDC-FUEL");
  });

  test("extras get their own discount per item", async () => {
    const body = await priced("SAVER", "EUR", true);
    const bag = blocks(body, "OfferItem").find((i) => all(i, "OfferItemID")[0]!.startsWith("SRV-"))!;
    expect(ruleIds(bag)).toContain("PR-NDC-EXTRAS5");
    expect(cents(all(bag, "DiscountAmount")[0])).toBe(Math.round(cents(all(bag, "BaseAmount")[0]) * 0.05));
  });
});

describe("engine unavailable: no adjustments at all, surcharges included (spec 4.5 rule 4)", () => {
  for (const mode of ["unreachable", "slow", "refusing"] as const) {
    test(mode, async () => {
      t.gw.supply.promotions.mode = mode;
      const body = await priced("FLEX", "EUR", true);
      expect(body).not.toContain("<cns:Discount>");
      expect(body).not.toContain("<cns:Surcharge>");
      expect(codes(body)).toContain("promotions_unavailable");
      expect(codes(body)).not.toContain("promotion_not_applied");
    });
  }
});
