import { expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { flightChangeTerms, freezeAtBooking, signFlightChange, verifyFlightChange, type Order } from "@ndc/orders";
import type { Supply } from "@ndc/supply";

/**
 * The flight-change terms (packages/orders/src/servicing/flight/terms.ts), pure: the fee of the
 * band per passenger as the same bare integer in every currency; changeability judged per
 * direction; the direction's fare repriced without adjustments, its share of the flight item's
 * surcharge refunded and of its discount clawed back (spec 4.5 rule 6). A two-direction schedule
 * stands in: OUT LHR-CDG on 2027-01-12 07:10 local (fare 100.00), BACK CDG-LHR three days later (fare 300.00).
 */
const DEP = Date.UTC(2027, 0, 12, 7, 10);
const H = 3_600_000;
const flights: Record<string, { key: string; origin: string; destination: string; date: string; departure: { local: string } }> = {
  OUT: { key: "OUT", origin: "LHR", destination: "CDG", date: "2027-01-12", departure: { local: "2027-01-12T07:10" } },
  BACK: { key: "BACK", origin: "CDG", destination: "LHR", date: "2027-01-15", departure: { local: "2027-01-15T07:10" } },
};
const journey = (k: string) => ({ id: `J-${k}`, origin: flights[k]!.origin, destination: flights[k]!.destination, segments: [flights[k]!], connectionMinutes: [], durationMinutes: 60 });
const supply = {
  flight: (k: string) => flights[k],
  journeys: (o: string, d: string) => Object.keys(flights).filter((k) => flights[k]!.origin === o && flights[k]!.destination === d).map(journey),
  priceJourney: (j: { segments: { key: string }[] }, _brand: string, pax: Record<string, number>, currency: string) => {
    const n = Object.values(pax).reduce((s, c) => s + c, 0);
    const fare = (j.segments[0]!.key === "OUT" ? 10_000 : 30_000) * n;
    return { total: { amount: currency === "JPY" ? fare / 100 : fare, currency } };
  },
} as unknown as Supply;

function order(o: { currency?: string; out?: string; back?: string; pax?: number; adjustments?: { effect: "surcharge" | "discount"; minor: number }[] } = {}): Order {
  const journeys = [{ paxJourneyId: "PJ1", flightKeys: ["OUT"], brandCode: o.out ?? "CLASSIC", cabin: "Y" }];
  if (o.back) journeys.push({ paxJourneyId: "PJ2", flightKeys: ["BACK"], brandCode: o.back, cabin: "Y" });
  const passengers = Array.from({ length: o.pax ?? 1 }, (_, i) => ({ paxId: `P${i + 1}`, ptc: "ADT" }));
  const items = [{ orderItemId: "I1", offerId: "O", offerItemId: "OI", kind: "flight" as const, paxIds: passengers.map((p) => p.paxId), totalMinor: 40_000 }];
  const adjustments = (o.adjustments ?? []).map((a, i) => ({ offerId: "O", offerItemId: "OI", ruleId: `R${i}`, ...a }));
  return { orderId: "ORD-T", state: "booked", currency: o.currency ?? "EUR", journeys, items, passengers, adjustments, fareConditions: freezeAtBooking(journeys) } as unknown as Order;
}
const OUT = { orderItemIds: ["I1"], origin: "LHR", destination: "CDG" };
const BACK = { orderItemIds: ["I1"], origin: "CDG", destination: "LHR" };
const terms = (o: Order, ask = OUT, now = DEP - 100 * H) => flightChangeTerms(supply, o, ask, now, "Request/X/DeleteOrderItem");

test("the change fee is the band's bare integer per passenger in every currency: 25.00 EUR, 25.00 GBP, 25 JPY; 3 passengers pay 3 times", () => {
  expect(terms(order({ currency: "EUR" })).feeMinor).toBe(2500);
  expect(terms(order({ currency: "GBP" })).feeMinor).toBe(2500);
  expect(terms(order({ currency: "JPY" })).feeMinor).toBe(25);
  expect(terms(order({ pax: 3 })).feeMinor).toBe(7500);
});

test("the band edges at 72 h and 24 h before the changed direction's own departure read as UTC; departed is refused", () => {
  const fee = (hours: number, ask = OUT, back = DEP + 72 * H) => terms(order({ back: "CLASSIC" }), ask, (ask === OUT ? DEP : back) - hours * H).feeMinor;
  expect([fee(72), fee(72 - 1 / 3600), fee(24), fee(24 - 1 / 3600)]).toEqual([2500, 5000, 5000, 7500]);
  // The return is measured from its own departure (three days after the outbound's).
  expect(terms(order({ back: "CLASSIC" }), BACK, DEP).feeMinor).toBe(2500);
  expect(() => terms(order(), OUT, DEP)).toThrow("departed");
});

test("changeability is judged per direction: a changeable outbound with a LIGHT return changes the outbound and refuses the return", () => {
  const o = order({ out: "CLASSIC", back: "LIGHT" });
  expect(terms(o, OUT).direction.paxJourneyId).toBe("PJ1");
  try {
    terms(o, BACK);
    throw new Error("not refused");
  } catch (e) {
    expect((e as GatewayError).code).toBe("fare_not_changeable");
  }
  expect(() => terms(order({ out: "SAVER" }))).toThrow(GatewayError);
});

test("spec 4.5 rule 6: the direction's share of a surcharge is refunded and of a discount clawed back; the fare is the unadjusted one", () => {
  const s = terms(order({ back: "CLASSIC", adjustments: [{ effect: "surcharge", minor: 2000 }] }));
  // OUT is a quarter of the fares (100 of 400): a quarter of the surcharge.
  expect(s).toMatchObject({ fareMinor: 10_000, surchargeRefundMinor: 500, discountClawbackMinor: 0, paidMinor: 10_500 });
  const d = terms(order({ adjustments: [{ effect: "discount", minor: 1_000 }] }));
  expect(d).toMatchObject({ fareMinor: 10_000, surchargeRefundMinor: 0, discountClawbackMinor: 1_000, paidMinor: 9_000 });
});

test("the items named must be every flight item of the order; a direction the order lacks is refused", () => {
  expect(() => terms(order(), { ...OUT, orderItemIds: [] })).toThrow("DeleteOrderItem");
  expect(() => terms(order(), { ...OUT, orderItemIds: ["I1", "I1"] })).toThrow("DeleteOrderItem");
  expect(() => terms(order(), { ...OUT, origin: "CDG", destination: "LHR" })).toThrow("no direction");
});

test("the quote id: signed over the order, within 128 characters, read back whole; altered or another order's is offer_not_found", () => {
  const key = { key: Buffer.alloc(32, 7) } as never;
  const s = { orderId: "ORD-A", version: 3, direction: 1, flightKeys: ["XB-100-2027-01-13", "XB-230-2027-01-13"], brandCode: "CLASSIC", dueMinor: -1250, expiresAt: DEP };
  const id = signFlightChange(key, s);
  expect(id.length).toBeLessThanOrEqual(128);
  expect(verifyFlightChange(key, id, "ORD-A", "X")).toEqual(s);
  const refused = (quoteId: string, orderId = "ORD-A") => {
    try {
      verifyFlightChange(key, quoteId, orderId, "X");
      return "accepted";
    } catch (e) {
      return (e as GatewayError).code;
    }
  };
  expect([refused(id, "ORD-B"), refused(id.replace(".-1250.", ".-9999.")), refused("FCQ.x")]).toEqual(["offer_not_found", "offer_not_found", "offer_not_found"]);
});
