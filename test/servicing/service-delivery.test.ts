import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { DOC_NUMBER, T0, ndcAs, orderCreateRQ, orderIdOf, orderRetrieveRQ, otherSeller, shopOffer } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { hoursBefore } from "./helpers";

/** ServiceDeliveryRQ (spec 3, 4.7) over HTTP; every answer XSD-checked by the test gateway. */
let t: TestGateway;
const clock = new ManualClock(T0);
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, clock);
});
afterAll(() => t.close());

const deliveryRQ = (orderId: string, ownerCode = "XB") =>
  ndcRequest("ServiceDeliveryRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>${ownerCode}</cns:OwnerCode></cns:Order>`, correlationId: "deliv-1" });

/** [ServiceID, DeliveryStatusCode, DeliveryProvider/ID] of each Service. */
const services = (xml: string) => blocks(xml, "Service").map((s) => [all(s, "ServiceID")[0], all(s, "DeliveryStatusCode")[0], all(blocks(s, "DeliveryProvider")[0]!, "ID")[0]]);

let n = 0;
async function book(o: { pay: boolean; seat?: boolean }): Promise<{ orderId: string; departureLocal: string }> {
  clock.set(T0);
  const shopped = await shopOffer(t, { seat: o.seat });
  const rq = orderCreateRQ({
    shopped,
    pax: [{ id: "PAX1", surname: "HOPPER", doc: { number: DOC_NUMBER } }],
    legs: o.pay ? [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }] : [],
    correlationId: `DELIV-${++n}`,
    trxId: "T1",
  });
  const r = await t.ndc("OrderCreateRQ", rq);
  expect(r.status).toBe(200);
  // The flight's local departure as the booking answer's segment states it.
  const departureLocal = all(blocks(r.body, "Dep")[0]!, "AircraftScheduledDateTime")[0]!;
  return { orderId: orderIdOf(r.body), departureLocal };
}

describe("ServiceDeliveryRQ", () => {
  test("a booked flight and seat: not delivered before the flight flies, delivered once it has, by the airline", async () => {
    const b = await book({ pay: true, seat: true });
    clock.set(T0 + 3_600_000);
    const before = await t.ndc("ServiceDeliveryRQ", deliveryRQ(b.orderId));
    expect(before.status).toBe(200);
    const s = services(before.body);
    expect(s.length).toBe(2);
    expect(s.map(([, code, provider]) => [code, provider])).toEqual([
      ["NOT_DELIVERED", "XB"],
      ["NOT_DELIVERED", "XB"],
    ]);
    // Same ServiceIDs as the order's OrderViewRS, and the same delivery state there.
    const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(b.orderId));
    expect(blocks(view.body, "Service").map((x) => [all(x, "ServiceID")[0], all(x, "DeliveryStatusCode")[0]])).toEqual(s.map(([id, code]) => [id, code]));

    // Real UTC departure: a day after the local time read as UTC is past it whatever the zone.
    clock.set(hoursBefore(b.departureLocal, -24));
    const after = await t.ndc("ServiceDeliveryRQ", deliveryRQ(b.orderId));
    expect(services(after.body).map(([, code]) => code)).toEqual(["DELIVERED", "DELIVERED"]);
    expect(after.body).toContain("has flown.");
    const viewAfter = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(b.orderId));
    expect(all(viewAfter.body, "DeliveryStatusCode")).toEqual(["DELIVERED", "DELIVERED"]);
    clock.set(T0);
  });

  test("a held order's services await payment", async () => {
    const b = await book({ pay: false });
    const r = await t.ndc("ServiceDeliveryRQ", deliveryRQ(b.orderId));
    expect(services(r.body).map(([, code]) => code)).toEqual(["AWAITING_PAYMENT"]);
  });

  test("never the identity document, nor any passenger detail beyond PaxRefID", async () => {
    const b = await book({ pay: true });
    const r = await t.ndc("ServiceDeliveryRQ", deliveryRQ(b.orderId));
    expect(r.body).not.toContain(DOC_NUMBER);
    expect(r.body).not.toContain("IdentityDoc");
    expect(r.body).not.toContain("HOPPER");
    expect(all(r.body, "PaxRefID")).toEqual(["PAX1"]);
  });

  test("another seller's order and another airline's are answered exactly like a missing one", async () => {
    const b = await book({ pay: true });
    const other = await otherSeller(t, "AGY-DELIV");
    const theirs = await ndcAs(t, other, "ServiceDeliveryRQ", deliveryRQ(b.orderId));
    const missing = await t.ndc("ServiceDeliveryRQ", deliveryRQ("ORD-NOSUCHORDER"));
    const airline = await t.ndc("ServiceDeliveryRQ", deliveryRQ(b.orderId, "ZZ"));
    for (const r of [theirs, missing, airline]) {
      expect(r.status).toBe(404);
      expect(errorCode(r.body)).toBe("order_not_found");
      expect(r.body).not.toContain(b.orderId);
    }
    expect(theirs.body).toBe(missing.body);
    expect([...theirs.headers.keys()].filter((k) => k !== "x-request-id").sort()).toEqual([...missing.headers.keys()].filter((k) => k !== "x-request-id").sort());
  });

  test("Request/Order is required", async () => {
    const r = await t.ndc("ServiceDeliveryRQ", ndcRequest("ServiceDeliveryRQ", { request: "" }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).toContain("<cns:TagText>Request/Order</cns:TagText>");
  });
});
