import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { sql } from "drizzle-orm";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { T0, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { bookBrand, hoursBefore } from "./helpers";
import { acceptCancelRQ, bookCancellable, quote } from "./cancel-helpers";

/**
 * The OrderViewRS stored with an order's writes (packages/orders/src/read/stored-view.ts)
 * answers an order whose actor is not in memory; what a view shows also varies with no write
 * (the change fee of the band by time to departure, services delivered once their flight has
 * flown, the seller's content language). Each test evicts every actor before the read, so a
 * stored view would answer if one were served, and checks that the answer is the current one.
 * Every answer is XSD-checked by t.ndc.
 */
let t: TestGateway;
const clock = new ManualClock(T0);
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, clock);
});
afterAll(() => t.close());

/** Through the store, so that it reads the same table on SQLite and PostgreSQL. */
async function storedViews(id: string): Promise<number> {
  const [row] = (await t.gw.store.db.all(sql`SELECT count(*) AS n FROM order_views WHERE order_id = ${id}`)) as { n: number }[];
  return row!.n;
}

/** Sets the clock (never back past an actor's last use) and drops every actor, as the idle sweep does. */
function evictAt(ms: number): void {
  clock.set(ms);
  t.gw.actors.evictIdle();
  expect(t.gw.actors.size).toBe(0);
}

async function retrieve(orderId: string, request = orderRetrieveRQ(orderId)): Promise<string> {
  const r = await t.ndc("OrderRetrieveRQ", request);
  expect(r.status).toBe(200);
  return r.body;
}

const flightFee = (xml: string) => all(blocks(blocks(xml, "OrderItem")[0]!, "ChangeRestrictions")[0]!, "Amount");
const changeAllowed = (xml: string) => all(blocks(blocks(xml, "OrderItem")[0]!, "ChangeRestrictions")[0]!, "AllowedModificationInd");
const idle = () => t.gw.config.actors.idleMs + 1;

test("evicted: a retrieve after the clock crosses a fee-band edge, and after the departure, answers the fee and delivery of now", async () => {
  clock.set(T0);
  const b = await bookBrand(t, "CLASSIC");
  expect(await storedViews(b.orderId)).toBe(1);
  // Within the band it was built in, the stored view answers (the actor stays asleep).
  evictAt(T0 + idle());
  const far = await retrieve(b.orderId);
  expect(t.gw.orders.ctx.orders.isResident(b.orderId)).toBe(false);
  expect(flightFee(far)).toEqual(["25.00"]);
  // Past the 72 h edge: 50; past the 24 h edge: 75.
  evictAt(hoursBefore(b.outboundDepartureLocal, 48));
  expect(flightFee(await retrieve(b.orderId))).toEqual(["50.00"]);
  evictAt(hoursBefore(b.outboundDepartureLocal, 2));
  expect(flightFee(await retrieve(b.orderId))).toEqual(["75.00"]);
  // Departed: no change allowed, and the flight's services are delivered.
  evictAt(hoursBefore(b.outboundDepartureLocal, -1));
  const gone = await retrieve(b.orderId);
  expect(changeAllowed(gone)).toEqual(["false"]);
  expect(flightFee(gone)).toEqual([]);
  expect(all(gone, "DeliveryStatusCode")).toContain("DELIVERED");
  expect(all(far, "DeliveryStatusCode")).not.toContain("DELIVERED");
  // The next tests set the clock back to T0: no actor may be left used "later" than that.
  evictAt(clock.now() + idle());
});

test("evicted: a retrieve in another content language answers that language; the default one still comes from the stored view", async () => {
  clock.set(T0);
  const b = await bookBrand(t, "CLASSIC");
  evictAt(T0 + idle());
  const english = await retrieve(b.orderId);
  expect(t.gw.orders.ctx.orders.isResident(b.orderId)).toBe(false);
  const fr = ndcRequest("OrderRetrieveRQ", {
    request: `<cns:OrderValidationFilterCriteria><cns:OrderFilterCriteria><cns:OrderID>${b.orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:OrderFilterCriteria></cns:OrderValidationFilterCriteria><cns:ResponseParameters><cns:LangUsage><cns:LangCode>fr</cns:LangCode></cns:LangUsage></cns:ResponseParameters>`,
    correlationId: "sv-fr",
  });
  const french = await retrieve(b.orderId, fr);
  expect([...new Set(all(french, "StationName"))].sort()).toEqual(["Londres Heathrow", "Paris Charles de Gaulle"]);
  expect(all(blocks(french, "Processing")[0] ?? "", "LangCode")).toEqual(["fr"]);
  expect(all(english, "StationName")).toContain("London Heathrow");
  evictAt(T0 + 2 * idle());
  expect(await retrieve(b.orderId)).toBe(english);
  expect(t.gw.orders.ctx.orders.isResident(b.orderId)).toBe(false);
});

test("evicted: retrieve, cancel, retrieve shows the order CANCELLED and its legs REFUNDED", async () => {
  clock.set(T0);
  const { orderId } = await bookCancellable(t, "SV-CANCEL", { brand: "FLEX" });
  evictAt(T0 + idle());
  const before = await retrieve(orderId);
  expect(t.gw.orders.ctx.orders.isResident(orderId)).toBe(false);
  expect(before).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  const q = await quote(t, orderId);
  expect(Number(q.refund)).toBeGreaterThan(0);
  const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "sv-cancel", trxId: "sv-cancel" }));
  expect(r.status).toBe(200);
  evictAt(T0 + 2 * idle());
  const after = await retrieve(orderId);
  expect(after).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
  expect(after).not.toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(blocks(after, "PaymentFunctions").some((p) => p.includes("<cns:PaymentStatusCode>REFUNDED</cns:PaymentStatusCode>"))).toBe(true);
}, 30_000);
