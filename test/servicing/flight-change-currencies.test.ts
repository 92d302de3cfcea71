import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { bookBrand, hoursBefore } from "./helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { sellerOf } from "./cancel-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * The flight-change fee over HTTP in three currencies, and a round trip's return changed alone
 * (its band from its own departure). Answers XSD-checked by t.ndc (xmllint --nonet).
 */
const clock = new ManualClock(T0);
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, clock);
});
afterAll(() => t.close());

for (const [currency, fee] of [["EUR", "25.00"], ["GBP", "25.00"], ["JPY", "25"]] as const) {
  test(`the change fee in ${currency} is ${fee} beyond 72 h; every due in ${currency}`, async () => {
    const b = await bookBrand(t, "CLASSIC", { currency });
    const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
    const out = outboundOf(t, order);
    const q = await flightQuote(t, reshopFlightRQ(b.orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
    expect([q.penaltyId, q.fee]).toEqual(["CHG-72H", fee]);
    expect(q.body).toContain(`<cns:TotalAmount CurCode="${currency}">`);
    expect(q.body).not.toMatch(new RegExp(`CurCode="(?!${currency})`));
  });
}

test("a round trip's return changed alone: the band is the return's own, the outbound kept", async () => {
  const b = await bookBrand(t, "CLASSIC", { back: true });
  const order = await t.gw.orders.retrieve(b.orderId, sellerOf(t));
  expect(order.journeys.length).toBe(2);
  const back = order.journeys[1]!;
  const first = t.gw.supply.flight(back.flightKeys[0]!)!;
  const last = t.gw.supply.flight(back.flightKeys.at(-1)!)!;
  const itemIds = order.items.filter((i) => i.kind === "flight").map((i) => i.orderItemId);
  try {
    // 30 h before the return (the outbound flew days ago): the return's own band, CHG-24H.
    clock.set(hoursBefore(first.departure.local, 30));
    const q = await flightQuote(t, reshopFlightRQ(b.orderId, itemIds, { from: first.origin, to: last.destination, date: first.date }));
    expect([q.penaltyId, q.fee]).toEqual(["CHG-24H", "50.00"]);
    expect(q.offers.length).toBeGreaterThan(0);
    expect(q.offers.every((o) => o.desc[0]!.includes(`${first.origin}-`))).toBe(true);
    // The outbound, flown, is not changed any more.
    const out = t.gw.supply.flight(order.journeys[0]!.flightKeys[0]!)!;
    const r = await t.ndc("OrderReshopRQ", reshopFlightRQ(b.orderId, itemIds, { from: out.origin, to: out.destination, date: out.date }));
    expect(errorCode(r.body)).toBe("order_state_invalid");
  } finally {
    clock.set(T0);
  }
});
