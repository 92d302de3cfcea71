import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, otherSeller, ndcAs, TRAVEL_DATE } from "../orders-http/helpers";
import { bookCancellable } from "./cancel-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { dayAfter, T0 } from "../support/dates";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * The flight-change quote over HTTP (issue 9 item 3, docs/servicing.md "Changing flights"):
 * OrderReshopRQ ServiceOrder DeleteOrderItem + AddOfferItems/FlightRequest. Every answer is checked
 * against the 24.4 XSD by t.ndc / ndcAs (xmllint --nonet).
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

const H = 3_600_000;
const nextDay = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 24 * H).toISOString().slice(0, 10);

describe("the flight-change quote", () => {
  test("a changeable outbound: alternatives of the day asked, each firm with a signed id; the due is the new fare less the fare paid plus the fee", async () => {
    const { order } = await bookCancellable(t, "FQ1", { brand: "CLASSIC" });
    const out = outboundOf(t, order);
    const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date: nextDay(out.date) }));
    expect(q.body).toContain("<IATA_OrderReshopRS");
    expect(q.penaltyId).toBe("CHG-72H");
    expect(q.fee).toBe("25.00");
    expect(q.offers.length).toBeGreaterThan(0);
    for (const o of q.offers) {
      expect(o.quoteId).toMatch(/^FCQ\./);
      // An ID may carry 128 characters (the gateway's limit on every ID it reads back).
      expect(o.quoteId.length).toBeLessThanOrEqual(128);
      const sums = o.desc.find((d) => d.startsWith("New fare"))!;
      const [fare, held, surcharge, discount, fee] = [...sums.matchAll(/(-?\d+\.\d\d) EUR/g)].map((m) => Number(m[1]));
      expect(fee).toBe(25);
      // Repricing the held journey gives what was sold (no adjustment on this order).
      expect(order.adjustments).toEqual([]);
      expect(Math.round(held! * 100)).toBe(order.items.filter((i) => i.kind === "flight").reduce((s, i) => s + i.totalMinor, 0));
      expect(Number(o.due)).toBeCloseTo(fare! - held! - surcharge! + discount! + fee!, 2);
      expect(sums).toContain("priced without promotion adjustments");
    }
    // The same day: the journey held is not offered again.
    const same = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, out));
    const held = order.journeys[0]!.flightKeys.map((k) => t.gw.supply.flight(k)!).map((f) => `${f.marketing.carrier.code}${f.marketing.number} ${f.origin}-${f.destination} ${f.departure.local}`).join(", ");
    expect(same.offers.every((o) => !o.desc[0]!.startsWith(`Flights: ${held};`))).toBe(true);
  }, BOOKING_TEST_MS);

  test("a cheaper and a dearer change: the new fare below the old one takes the difference off the fee, above it adds to it", async () => {
    const { order } = await bookCancellable(t, "FQ5", { brand: "CLASSIC" });
    const out = outboundOf(t, order);
    const dues: number[] = [];
    for (const date of [dayAfter(T0, 46), dayAfter(T0, 53)]) {
      const q = await flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, { ...out, date }));
      dues.push(Number(q.offers[0]!.due));
      expect(q.offers[0]!.desc.at(-1)).toBe(`Due: ${q.offers[0]!.due} EUR.`);
    }
    // The sandbox's seeded fares: 6.00 cheaper on the 6th, 5.00 dearer on the 13th, plus the 25.00 fee.
    expect(dues).toEqual([19, 30]);
  }, BOOKING_TEST_MS);

  test("the fee band edges at 72 h and 24 h before the direction's departure read as UTC (injected clock)", async () => {
    const { order } = await bookCancellable(t, "FQ2", { brand: "CLASSIC" });
    const out = outboundOf(t, order);
    const at = async (ms: number) => {
      clock.set(ms);
      return flightQuote(t, reshopFlightRQ(order.orderId, out.itemIds, out));
    };
    try {
      const seen = [];
      for (const ms of [out.departureAsUtc - 72 * H, out.departureAsUtc - 72 * H + 1000, out.departureAsUtc - 24 * H, out.departureAsUtc - 24 * H + 1000]) {
        const q = await at(ms);
        seen.push(`${q.penaltyId} ${q.fee}`);
      }
      expect(seen).toEqual(["CHG-72H 25.00", "CHG-24H 50.00", "CHG-24H 50.00", "CHG-0H 75.00"]);
      clock.set(out.departureAsUtc);
      const r = await t.ndc("OrderReshopRQ", reshopFlightRQ(order.orderId, out.itemIds, out));
      expect(errorCode(r.body)).toBe("order_state_invalid");
    } finally {
      clock.set(Date.UTC(2026, 10, 21, 9, 0, 0));
    }
  }, BOOKING_TEST_MS);

  test("a direction whose fare does not allow change is refused with fare_not_changeable", async () => {
    const { order } = await bookCancellable(t, "FQ3", { brand: "LIGHT" });
    const out = outboundOf(t, order);
    const r = await t.ndc("OrderReshopRQ", reshopFlightRQ(order.orderId, out.itemIds, out));
    expect(r.status).toBe(409);
    expect(errorCode(r.body)).toBe("fare_not_changeable");
  });

  test("malformed: a non-flight item, an unknown item, criteria mixed in; another seller's order is not found", async () => {
    const { order } = await bookCancellable(t, "FQ4", { brand: "CLASSIC" });
    const out = outboundOf(t, order);
    const seat = order.items.find((i) => i.kind === "seat")!.orderItemId;
    for (const ids of [[seat], ["NOPE"], [...out.itemIds, seat]]) {
      const r = await t.ndc("OrderReshopRQ", reshopFlightRQ(order.orderId, ids, out));
      expect(errorCode(r.body)).toBe("request_invalid");
    }
    const mixed = await t.ndc("OrderReshopRQ", reshopFlightRQ(order.orderId, out.itemIds, out, { criteria: "<cns:OrderCriteria><cns:ServiceCriteria></cns:ServiceCriteria></cns:OrderCriteria>" }));
    expect(errorCode(mixed.body)).toBe("request_invalid");
    const other = await otherSeller(t, "flight-other");
    const r = await ndcAs(t, other, "OrderReshopRQ", reshopFlightRQ(order.orderId, out.itemIds, out));
    expect(errorCode(r.body)).toBe("order_not_found");
    expect(TRAVEL_DATE).toBe(out.date);
  }, BOOKING_TEST_MS);
});
