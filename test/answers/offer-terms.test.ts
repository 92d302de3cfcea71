import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { TestGateway } from "../support/gateway";
import { gateway, T0 } from "../orders-http/helpers";
import { airShoppingRQ, all, blocks, offerPriceRQ } from "../shopping/shop-requests";
import { seatAvailabilityRQ, serviceListRQ } from "../shopping/seat-availability-helpers";

/**
 * Issue 20 item 9, first part, over HTTP (every answer XSD-checked by t.ndc, xmllint --nonet):
 * AirShoppingRS and OfferPriceRS state, per flight offer item, the fee of a flight change and of
 * a refundable fare's cancellation (CancelRestrictions/ChangeRestrictions/Fee: the amount now per
 * passenger, the table's lowest and highest); each PaxSegment its cabin
 * (CabinTypeAssociationChoice/SegmentCabinType) when every offer on it sells that cabin; each
 * DatedOperatingSegment to or from the United States SecureFlightInd; every ALaCarteOffer item
 * (AirShoppingRS, ServiceListRS, SeatAvailabilityRS) its own CancelRestrictions and ChangeRestrictions.
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

/** The engine's fee (EUR, per passenger) by hours to departure: 25 from 72 h, 50 from 24 h, 75 after (docs/servicing.md). */
const feeAt = (hours: number) => (hours >= 72 ? "25.00" : hours >= 24 ? "50.00" : "75.00");

/** The outbound departure of an offer, read as UTC (the local time at the origin taken as UTC, as the engine does). */
function departureOf(body: string, offer: string): number {
  const seg = all(offer, "PaxSegmentRefID")[0]!;
  const mkt = blocks(body, "DatedMarketingSegment").find((s) => s.includes(`<cns:DatedMarketingSegmentId>${seg}-MKT<`))!;
  return Date.parse(`${all(blocks(mkt, "Dep")[0]!, "AircraftScheduledDateTime")[0]!}Z`);
}

/** Each flight offer item's restrictions: the Flight change's and the cancellation's fee (undefined when none). */
function feesOf(item: string) {
  const cancel = blocks(item, "CancelRestrictions")[0]!;
  const change = blocks(item, "ChangeRestrictions").find((b) => b.includes("<cns:ChangeTypeCode>Flight<"))!;
  const fee = (b: string) => {
    const f = blocks(b, "Fee")[0];
    return f === undefined ? undefined : { amount: all(f, "Amount")[0], min: all(f, "MinimumAmount")[0], max: all(f, "MaximumAmount")[0], text: all(f, "DescText")[0] };
  };
  return {
    changeable: all(change, "AllowedModificationInd")[0] === "true",
    refundable: all(cancel, "LevelTypeCode")[0] === "Full",
    change: fee(change),
    cancel: fee(cancel),
  };
}

test("AirShoppingRS and OfferPriceRS: change and refund fees of the band now, per flight offer item", async () => {
  // Flights of tomorrow: 07:10, 12:40 and 18:40 are 22, 27 and 33 hours away, so two bands show.
  const r = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2026-11-22" }], currency: "EUR" }));
  expect(r.status).toBe(200);
  const seen = new Set<string>();
  let changeable = 0;
  let refundable = 0;
  for (const offer of blocks(r.body, "Offer")) {
    const expected = feeAt((departureOf(r.body, offer) - clock.now()) / 3_600_000);
    for (const item of blocks(offer, "OfferItem")) {
      const f = feesOf(item);
      if (f.changeable) {
        changeable++;
        expect(f.change).toMatchObject({ amount: expected, min: "25.00", max: "75.00" });
        expect(f.change!.text).toContain("Per passenger");
        seen.add(f.change!.amount!);
      } else expect(f.change).toBeUndefined();
      if (f.refundable) {
        refundable++;
        expect(f.cancel).toMatchObject({ amount: expected, min: "25.00", max: "75.00" });
      } else expect(f.cancel).toBeUndefined();
    }
  }
  expect(changeable).toBeGreaterThan(0);
  expect(refundable).toBeGreaterThan(0);
  expect([...seen].sort()).toEqual(["50.00", "75.00"]);

  // OfferPriceRS of a changeable, refundable offer states the same fee.
  const flex = blocks(r.body, "Offer").find((o) => o.includes("<cns:PriceClassRefID>PC-FLEX<"))!;
  const expected = feeAt((departureOf(r.body, flex) - clock.now()) / 3_600_000);
  const p = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: all(flex, "OfferID")[0]!, items: [{ id: all(flex, "OfferItemID")[0]!, pax: ["PAX1"] }] }] }));
  expect(p.status).toBe(200);
  const priced = feesOf(blocks(blocks(p.body, "PricedOffer")[0]!, "OfferItem")[0]!);
  expect(priced.change).toMatchObject({ amount: expected, min: "25.00", max: "75.00" });
  expect(priced.cancel).toMatchObject({ amount: expected, min: "25.00", max: "75.00" });
  expect(T0).toBe(clock.now());
}, 60_000);

test("PaxSegment states its cabin when every offer on it sells that cabin; flights to or from the US carry SecureFlightInd", async () => {
  const cabinOf = (body: string) => new Map(blocks(body, "PaxSegment").map((s) => [all(s, "PaxSegmentID")[0]!, all(blocks(s, "SegmentCabinType")[0] ?? "", "CabinTypeCode")[0]]));
  const business = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2027-01-12", cabin: "C" }], currency: "EUR" }));
  expect(business.status).toBe(200);
  const cabins = cabinOf(business.body);
  expect(cabins.size).toBeGreaterThan(0);
  expect([...cabins.values()].every((c) => c === "C")).toBe(true);

  // Every cabin: a segment sold in two cabins states none; one sold in one cabin states it, as its fare components do.
  const mixed = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2027-01-12" }], currency: "EUR" }));
  const sold = new Map<string, Set<string>>();
  for (const fc of blocks(mixed.body, "FareComponent")) {
    const code = all(blocks(fc, "CabinType")[0]!, "CabinTypeCode")[0]!;
    for (const seg of all(fc, "PaxSegmentRefID")) sold.set(seg, (sold.get(seg) ?? new Set()).add(code));
  }
  for (const [seg, stated] of cabinOf(mixed.body)) {
    const codes = [...sold.get(seg)!];
    expect(stated).toBe(codes.length === 1 ? codes[0]! : (undefined as unknown as string));
  }

  const us = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "JFK", date: "2027-01-12" }], currency: "EUR" }));
  expect(us.status).toBe(200);
  const usSegments = blocks(us.body, "DatedOperatingSegment");
  expect(usSegments.length).toBeGreaterThan(0);
  expect(usSegments.every((s) => all(s, "SecureFlightInd")[0] === "true")).toBe(true);
  expect(blocks(mixed.body, "DatedOperatingSegment").some((s) => s.includes("SecureFlightInd"))).toBe(false);
}, 60_000);

test("every ALaCarteOffer item states its terms: cancelled alone with a full refund; a service not changed, a seat replaced", async () => {
  const itemsOf = (body: string) => blocks(body, "ALaCarteOffer").flatMap((a) => blocks(a, "OfferItem"));
  const terms = (item: string) => ({
    refund: all(blocks(item, "CancelRestrictions")[0] ?? "", "LevelTypeCode")[0],
    cancelText: all(blocks(item, "CancelRestrictions")[0] ?? "", "DescText")[0],
    changeable: all(blocks(item, "ChangeRestrictions")[0] ?? "", "AllowedModificationInd")[0],
  });
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2027-01-12" }], currency: "EUR", criteria: [{ taxonomy: ["1B58"] }] }));
  expect(shop.status).toBe(200);
  const offerId = all(blocks(shop.body, "Offer")[0]!, "OfferID")[0]!;
  const list = await t.ndc("ServiceListRQ", serviceListRQ({ offerId }));
  expect(list.status).toBe(200);
  const seats = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId }));
  expect(seats.status).toBe(200);
  for (const [body, changeable] of [[shop.body, "false"], [list.body, "false"], [seats.body, "true"]] as const) {
    const items = itemsOf(body);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(terms(item)).toMatchObject({ refund: "Full", changeable, cancelText: expect.stringContaining("full refund") });
  }
}, 60_000);

test("OfferPriceRS: one PaymentFunctions per method the airline takes for the offer, each naming the priced offer", async () => {
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2027-01-12" }], currency: "EUR" }));
  const offer = blocks(shop.body, "Offer")[0]!;
  const methodsOf = async (currency: string) => {
    const p = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: all(offer, "OfferID")[0]!, items: [{ id: all(offer, "OfferItemID")[0]!, pax: ["PAX1"] }] }], currency }));
    expect(p.status).toBe(200);
    const pricedId = all(blocks(p.body, "PricedOffer")[0]!, "OfferID")[0]!;
    return blocks(p.body, "PaymentFunctions").map((pf) => {
      expect(all(blocks(pf, "OfferAssociation")[0]!, "OfferRefID")).toEqual([pricedId]);
      expect(blocks(pf, "PaymentSurcharge")).toEqual([]);
      return `${all(pf, "PaymentTypeCode")[0]} ${all(pf, "RemarkText")[0]}`;
    });
  };
  const eur = await methodsOf("EUR");
  // A card by token, the three settlement plans, a voucher, and the airline's points.
  expect(eur.map((m) => m.split(" ")[0])).toEqual(["CC", "CA", "DP", "MS", "MS", "MS"]);
  expect(eur.find((m) => m.includes("LoyaltyRedemption"))).toBeDefined();
  expect(eur.find((m) => m.startsWith("MS Voucher"))).toBeDefined();
}, 60_000);
