import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { createApiKey, registerAgency, registerClient } from "@ndc/auth";
import { OfferRepository, type ALaCartePayload, type FlightOfferPayload } from "@ndc/shopping";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, offerPriceRQ, type PriceOpts, type ShopOpts } from "./shop-requests";

/** OfferPriceRQ through the real HTTP stack (spec 4.5). */
let t: TestGateway;
let start: string;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
let otherKey = "";
beforeAll(async () => {
  t = await startTestGateway({}, clock);
  start = t.gw.supply.startDate;
  await registerAgency(t.gw.store, { agencyId: "AGY-OTHER", iataNumber: "12121212", name: "Another agency" });
  const c = await registerClient(t.gw.store, { agency: "AGY-OTHER", scopes: "ndc:shop" });
  otherKey = (await createApiKey(t.gw.store, c.clientId)).apiKey;
});
afterAll(() => t.close());

const PAX: [string, string][] = [["P1", "ADT"], ["P2", "ADT"], ["P3", "CHD"]];
async function shopIt(o: Partial<ShopOpts> = {}) {
  const r = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(start, 30) }, { from: "FRA", to: "LHR", date: day(start, 33) }], pax: PAX, ...o }));
  expect(r.status).toBe(200);
  return r.body;
}
const offerOf = (xml: string, brand: string) => blocks(xml, "Offer").find((o) => o.includes(`<cns:PriceClassRefID>PC-${brand}</cns:PriceClassRefID>`))!;
const flightSelection = (offer: string): PriceOpts["offers"][number] => ({
  offerId: all(offer, "OfferID")[0]!,
  items: blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") })),
});
const priceIt = (o: PriceOpts, headers?: Record<string, string>) => t.ndc("OfferPriceRQ", offerPriceRQ(o), headers ? { headers } : undefined);
const codes = (xml: string) => all(xml, "Code");
const amount = (xml: string, name: string) => Math.round(Number(all(xml, name)[0]) * 100);

describe("re-pricing a shopped offer", () => {
  test("the flight offer comes back priced with taxes, conditions and a stored, bindable id", async () => {
    const shop = await shopIt();
    const saver = offerOf(shop, "SAVER");
    const r = await priceIt({ offers: [flightSelection(saver)] });
    expect(r.status).toBe(200);
    const priced = blocks(r.body, "PricedOffer")[0]!;
    expect(all(priced, "OfferID")[0]).toMatch(/^OPR-/);
    expect(all(priced, "OfferItemID").map((i) => i.slice(-3))).toEqual(["ADT", "CHD"]);
    expect(priced).toContain("<cns:TaxSummary>");
    expect(priced).toContain("Flight changes not allowed.");
    // The priced offer is stored for the seller: it prices again under its own id.
    const again = await priceIt({ offers: [flightSelection(priced.replace("<cns:PricedOffer>", "").replace("</cns:PricedOffer>", ""))] });
    expect(again.status).toBe(200);
  });

  test("an a-la-carte item is priced per passenger and quantity with its taxonomy", async () => {
    const shop = await shopIt({ criteria: [{ rfisc: ["0CC"] }] });
    const offer = blocks(shop, "Offer")[0]!;
    const alc = blocks(shop, "ALaCarteOffer")[0]!;
    const bag = blocks(alc, "OfferItem").find((i) => all(i, "PaxRefID").includes("P1"))!;
    const unit = amount(bag, "TotalAmount");
    const r = await priceIt({ offers: [flightSelection(offer), { offerId: all(alc, "OfferID")[0]!, items: [{ id: all(bag, "OfferItemID")[0]!, pax: ["P1", "P2"], qty: 1 }] }] }, undefined);
    expect(r.status).toBe(200);
    const item = blocks(r.body, "OfferItem").find((i) => all(i, "OfferItemID")[0] === all(bag, "OfferItemID")[0])!;
    expect(amount(item, "BaseAmount")).toBe(unit * 2);
    expect(all(item, "TaxonomyCode")).toEqual(["0110"]);
  });

  test("AcceptOrderItemList: flight item ids name their offer", async () => {
    const shop = await shopIt();
    const ids = all(offerOf(shop, "LIGHT"), "OfferItemID");
    const items = ids.map((id) => `<cns:CreateOrderItem><cns:OfferItemRefID>${id}</cns:OfferItemRefID><cns:OwnerCode>XB</cns:OwnerCode></cns:CreateOrderItem>`).join("");
    const body = offerPriceRQ({ offers: [] }).replace(/<cns:SelectedOfferList>.*<\/cns:SelectedOfferList>/, `<cns:AcceptOrderItemList>${items}</cns:AcceptOrderItemList>`);
    const r = await t.ndc("OfferPriceRQ", body);
    expect(r.status).toBe(200);
    expect(all(blocks(r.body, "PricedOffer")[0]!, "PriceClassRefID")).toContain("PC-LIGHT");
  });

  test("a ride and a partner product sold with the offer are re-priced from the catalogue", async () => {
    const shop = await shopIt();
    const offer = offerOf(shop, "CLASSIC");
    const offerId = all(offer, "OfferID")[0]!;
    const repo = new OfferRepository(t.gw.store, clock);
    const flight = await repo.resolve<FlightOfferPayload>(offerId, { clientId: "sandbox-local", agencyId: "SANDBOX-AGENCY" });
    const key = flight.payload.journeys[0]!.flightKeys[0]!;
    const payload: ALaCartePayload = {
      kind: "a_la_carte",
      currency: "EUR",
      language: "en",
      flightOfferId: offerId,
      items: [
        { offerItemId: "RIDE-TEST-1", kind: "ride", paxIds: ["P1", "P2", "P3"], totalMinor: 1, unitMinor: 1, ref: "RD-LHR-RAIL", flightKeys: [key], paxType: "ADT" },
        { offerItemId: "PART-TEST-1", kind: "partner_product", paxIds: ["P1"], totalMinor: 1, unitMinor: 1, ref: "PP-FOOD-FCO", flightKeys: [key] },
      ],
    };
    await repo.save([{ offerId: "ALC-TEST-RIDES", source: "service_list", owner: { clientId: "sandbox-local", agencyId: "SANDBOX-AGENCY" }, createdAt: clock.now(), expiresAt: clock.now() + 60_000, payload }]);
    const r = await priceIt({ offers: [flightSelection(offer), { offerId: "ALC-TEST-RIDES", items: [{ id: "RIDE-TEST-1", pax: ["P1", "P2"] }, { id: "PART-TEST-1", pax: ["P1"] }] }] });
    expect(r.status).toBe(200);
    const ride = blocks(r.body, "OfferItem").find((i) => i.includes("RIDE-TEST-1"))!;
    expect(all(ride, "BaseAmount")[0]).toBe("58.00"); // Heathrow Express 29.00 per passenger, 2 passengers; the stored 0.01 is not trusted
    expect(all(ride, "TaxonomyCode")).toEqual(["2E7C"]);
    const part = blocks(r.body, "OfferItem").find((i) => i.includes("PART-TEST-1"))!;
    expect(Number(all(part, "BaseAmount")[0])).toBeGreaterThan(0.01);
  });

  test("prices are in the requested currency", async () => {
    const shop = await shopIt();
    const r = await priceIt({ offers: [flightSelection(offerOf(shop, "SAVER"))], currency: "JPY" });
    const total = all(blocks(blocks(r.body, "PricedOffer")[0]!, "TotalPrice")[0]!, "TotalAmount")[0]!;
    expect(total).toMatch(/^\d+$/);
    expect(all(r.body, "DecimalsAllowedNumber")).toEqual(["0"]);
  });

  test("COMFORT keeps the supplier's conditions with fare_conditions_supplier", async () => {
    const shop = await shopIt();
    const r = await priceIt({ offers: [flightSelection(offerOf(shop, "COMFORT"))] });
    expect(codes(r.body)).toContain("fare_conditions_supplier");
  });

  test("determinism: pricing the same selection twice answers the same bytes", async () => {
    const shop = await shopIt();
    const sel = { offers: [flightSelection(offerOf(shop, "FLEX"))], correlationId: "op-det" };
    expect((await priceIt(sel)).body).toBe((await priceIt(sel)).body);
  });
});

describe("refusals", () => {
  test("another seller's offer is answered exactly like a missing one", async () => {
    const shop = await shopIt();
    const sel = flightSelection(offerOf(shop, "SAVER"));
    const theirs = await priceIt({ offers: [sel] }, { "x-api-key": otherKey });
    const missing = await priceIt({ offers: [{ ...sel, offerId: "OFR-DOESNOTEXIST" }] }, { "x-api-key": otherKey });
    expect(theirs.status).toBe(404);
    expect(errorCode(theirs.body)).toBe("offer_not_found");
    expect(missing.status).toBe(theirs.status);
    expect(errorCode(missing.body)).toBe(errorCode(theirs.body));
  });

  test("an unknown item of a real offer: offer_item_not_found", async () => {
    const shop = await shopIt();
    const sel = flightSelection(offerOf(shop, "SAVER"));
    const r = await priceIt({ offers: [{ ...sel, items: [{ id: "NOPE-ADT", pax: ["P1"] }] }] });
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("offer_item_not_found");
  });

  test("an expired offer: offer_expired", async () => {
    const shop = await shopIt();
    const sel = flightSelection(offerOf(shop, "SAVER"));
    const now = clock.now();
    clock.advance(31 * 60_000);
    try {
      const r = await priceIt({ offers: [sel] });
      expect(r.status).toBe(410);
      expect(errorCode(r.body)).toBe("offer_expired");
    } finally {
      clock.set(now);
    }
  });
});
