import { expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { bandFee, cancelTerms, type Order } from "@ndc/orders";
import type { Supply } from "@ndc/supply";

/**
 * The cancel terms (packages/orders/src/cancel/terms.ts): the band edges at 72 h and 24 h before
 * the first departure (read as UTC), the fee a bare integer in every currency's major unit, and
 * refundability from the outbound direction only. Pure: a one-flight schedule stands in.
 */
const DEP = Date.UTC(2027, 0, 12, 7, 10);
const H = 3_600_000;
const supply = { flight: (k: string) => (k === "OUT" ? { departureUtcMs: DEP } : k === "BACK" ? { departureUtcMs: DEP + 72 * H } : undefined) } as unknown as Supply;

function order(o: { currency?: string; out?: string; back?: string; seatMinor?: number } = {}): Order {
  const journeys = [{ paxJourneyId: "PJ1", flightKeys: ["OUT"], brandCode: o.out ?? "FLEX", cabin: "Y" }];
  if (o.back) journeys.push({ paxJourneyId: "PJ2", flightKeys: ["BACK"], brandCode: o.back, cabin: "Y" });
  const items = [{ orderItemId: "I1", offerId: "O", offerItemId: "OI", kind: "flight" as const, paxIds: ["P"], totalMinor: 100_000 }];
  if (o.seatMinor) items.push({ orderItemId: "I2", offerId: "O", offerItemId: "OI2", kind: "seat" as never, paxIds: ["P"], totalMinor: o.seatMinor });
  return { orderId: "ORD-T", currency: o.currency ?? "EUR", journeys, items } as unknown as Order;
}

test("the band edges: 72 h exactly is the 72 h band (25), just under is 50; 24 h exactly is 50, just under is 75", () => {
  expect([bandFee(200), bandFee(72), bandFee(71.999), bandFee(24), bandFee(23.999), bandFee(0.1)]).toEqual([25, 25, 50, 50, 75, 75]);
  const at = (hours: number) => cancelTerms(supply, order(), 100_000, DEP - hours * H).penaltyMinor;
  expect([at(72), at(72 - 1 / 3600), at(24), at(24 - 1 / 3600)]).toEqual([2500, 5000, 5000, 7500]);
});

test("the fee is the same bare number in every currency: 25.00 EUR, 25.00 GBP, 25 JPY", () => {
  const now = DEP - 100 * H;
  expect(cancelTerms(supply, order({ currency: "EUR" }), 100_000, now)).toMatchObject({ refundable: true, penaltyMinor: 2500, refundMinor: 97_500 });
  expect(cancelTerms(supply, order({ currency: "GBP" }), 100_000, now).penaltyMinor).toBe(2500);
  expect(cancelTerms(supply, order({ currency: "JPY" }), 100_000, now).penaltyMinor).toBe(25);
});

test("refundability is the outbound direction's: a refundable outbound with a non-refundable return refunds; the reverse keeps the flights", () => {
  const now = DEP - 100 * H;
  expect(cancelTerms(supply, order({ out: "FLEX", back: "LIGHT" }), 100_000, now).refundable).toBe(true);
  const kept = cancelTerms(supply, order({ out: "LIGHT", back: "FLEX", seatMinor: 1_500 }), 101_500, now);
  expect(kept).toMatchObject({ refundable: false, refundMinor: 1_500, penaltyMinor: 100_000 });
  expect(() => cancelTerms(supply, order({ out: "SAVER", back: "FLEX" }), 100_000, now)).toThrow(GatewayError);
  // A fee never takes more than was paid.
  expect(cancelTerms(supply, order(), 1_000, DEP - H)).toMatchObject({ refundMinor: 0, penaltyMinor: 1_000 });
  // Departed: no cancellation.
  expect(() => cancelTerms(supply, order(), 100_000, DEP)).toThrow("departed");
});
