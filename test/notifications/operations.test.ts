import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { PRODUCTION_ENV, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { T0, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { call, otherSellerToken, type Receiver } from "./helpers";
import { bookWithFreeSeat, pushesOf, subscribedGateway } from "./operations-helpers";
import { partyOrderCreateRQ, quotedOffers, shopParty, type ShoppedParty } from "../orders-http/item-selection-helpers";
import { refuseInserts } from "../support/triggers";

/**
 * order.changed and service.delivered end to end (issue 10): a real receiver on a free local port,
 * the sandbox controls over HTTP, each push's Standard Webhooks signature and XSD checked.
 */
let t: TestGateway;
let rx: Receiver;
let key: string;
let secret: string;
let close: () => Promise<void>;
const clock = new ManualClock(T0);
beforeAll(async () => {
  ({ t, rx, key, secret, close } = await subscribedGateway({}, clock, ["order.changed", "service.delivered"]));
}, 60_000);
afterAll(() => close(), 60_000);

const dispatch = () => call(t, "POST", "/sandbox/scheduler/run", key, { job: "notifications.dispatch" });
const departures = (xml: string) => blocks(xml, "Dep").map((d) => all(d, "AircraftScheduledDateTime")[0]!);
const deliveryRQ = (orderId: string) => ndcRequest("ServiceDeliveryRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>` });

test("a retime through the sandbox: the order's times move, OrderChangeNotifRQ SCHEDULE_CHANGE with its version is pushed, signed and XSD-valid", async () => {
  const { orderId, body } = await bookWithFreeSeat(t, "RETIME");
  const before = departures(body);
  const r = await call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, key, { minutes: 90 });
  expect(r.status).toBe(200);
  expect(r.json.scheduleChanges.length).toBeGreaterThan(0);
  expect(new Set(r.json.scheduleChanges.map((c: { kind: string; minutes: number; reasonCode: string }) => `${c.kind}:${c.minutes}:${c.reasonCode}`))).toEqual(new Set(["retime:90:SANDBOX_REQUEST"]));
  await dispatch();
  const pushes = pushesOf(rx, secret, "OrderChangeNotifRQ");
  expect(pushes.length).toBe(1);
  expect(pushes[0]).toContain(`<OrderRefID>${orderId}</OrderRefID>`);
  expect(pushes[0]).toContain("<ChangeTypeCode>SCHEDULE_CHANGE</ChangeTypeCode>");
  expect(pushes[0]).toContain("<ReasonCode>SANDBOX_REQUEST</ReasonCode>");
  expect(pushes[0]).toContain(`<OrderVersionNumber>${r.json.orderVersion}</OrderVersionNumber>`);
  // The order now shows its flights 90 minutes later.
  const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(view.status).toBe(200);
  const after = departures(view.body);
  expect(after.map((d, i) => Date.parse(`${d}Z`) - Date.parse(`${before[i]}Z`))).toEqual(before.map(() => 90 * 60_000));
}, 60_000);

test("a cancelled flight: its services removed, the order flagged for re-accommodation, FLIGHT_CANCELLED pushed; the order still reads XSD-valid", async () => {
  const { orderId } = await bookWithFreeSeat(t, "CANCEL");
  const seen = rx.requests.length;
  const r = await call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, key, { cancelFlight: true });
  expect(r.status).toBe(200);
  expect(r.json.reaccommodation.flightKeys.length).toBe(1);
  await dispatch();
  const pushes = pushesOf({ ...rx, requests: rx.requests.slice(seen) }, secret, "OrderChangeNotifRQ");
  expect(pushes.length).toBe(1);
  expect(pushes[0]).toContain("<ChangeTypeCode>FLIGHT_CANCELLED</ChangeTypeCode>");
  const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(view.status).toBe(200);
  // The cancelled flight's services are removed (CANCELLED); the free seat on it too.
  expect(all(view.body, "DeliveryStatusCode")).toEqual(["CANCELLED", "CANCELLED"]);
  expect(all((await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId))).body, "DeliveryStatusCode")).toEqual(["CANCELLED", "CANCELLED"]);
  // A second cancellation finds no flight left.
  const again = await call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, key, { cancelFlight: true });
  expect([again.status, again.json.error]).toEqual([409, "order_state_invalid"]);
}, 60_000);

test("fly: the free seat is delivered, ServiceDeliveryNotifRQ pushed, ServiceDeliveryRQ answers DELIVERED", async () => {
  const { orderId } = await bookWithFreeSeat(t, "FLY");
  const seen = rx.requests.length;
  const before = await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId));
  expect(all(before.body, "DeliveryStatusCode")).toEqual(["NOT_DELIVERED", "NOT_DELIVERED"]);
  const r = await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {});
  expect(r.status).toBe(200);
  expect(r.json.flown.length).toBeGreaterThan(0);
  await dispatch();
  const pushes = pushesOf({ ...rx, requests: rx.requests.slice(seen) }, secret, "ServiceDeliveryNotifRQ");
  expect(pushes.length).toBe(1);
  expect(pushes[0]).toContain(`<cns:OrderID>${orderId}</cns:OrderID>`);
  // Only the seat sold for nothing is pushed (the flight has a ticket behind it), delivered.
  expect(all(pushes[0]!, "DeliveryStatusCode")).toEqual(["DELIVERED"]);
  const after = await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId));
  expect(all(after.body, "DeliveryStatusCode")).toEqual(["DELIVERED", "DELIVERED"]);
  // Flying again records nothing and pushes nothing.
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {})).json.orderVersion).toBe(r.json.orderVersion);
  await dispatch();
  expect(rx.requests.slice(seen).filter((q) => q.path.endsWith("ServiceDeliveryNotifRQ")).length).toBe(1);
}, 60_000);

/** A paid party order (two adults, a child) with the partner's eSIM and the airport car: both delivered by their partner. */
async function bookWithPartner(party: ShoppedParty, tag: string): Promise<string> {
  const esim = party.services.get("PP-ESIM/-")!;
  const car = party.services.get("RD-LHR-CAR/-")!;
  const namings = [{ item: party.flights[0]!, pax: ["PAX1", "PAX2"] }, { item: party.flights[1]!, pax: ["PAX3"] }, { item: esim, pax: ["PAX1", "PAX2", "PAX3"] }, { item: car, pax: ["PAX1", "PAX2", "PAX3"] }];
  const total = party.flights.reduce((n, f) => n + f.stored.totalMinor, 0) + esim.stored.unitMinor! + car.stored.unitMinor!;
  const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(quotedOffers(namings), total, `OPS-PARTNER-${tag}`, "orders@agency.example"));
  expect(r.status).toBe(200);
  return all(r.body, "OrderID")[0]!;
}

/** [provider ID, DeliveryStatusCode] of the partner-delivered services of a ServiceDelivery message. */
const partnerStates = (xml: string) =>
  blocks(xml, "Service")
    .map((s) => [all(blocks(s, "DeliveryProvider")[0]!, "ID")[0], all(s, "DeliveryStatusCode")[0]])
    .filter(([provider]) => provider !== "XB");

test("a partner product and a ride fulfilled by their partner: read back once the trip has begun, ServiceDeliveryNotifRQ pushed, ServiceDeliveryRQ answers DELIVERED", async () => {
  const party = await shopParty(t, clock);
  const orderId = await bookWithPartner(party, "READBACK");
  const seen = rx.requests.length;
  const before = await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId));
  const awaiting = partnerStates(before.body);
  // One service per passenger of each item: the eSIM's partner and the car's operator.
  expect(awaiting.length).toBe(6);
  expect(new Set(awaiting.map(([provider]) => provider)).size).toBe(2);
  expect(awaiting.every(([, code]) => code === "AWAITING_PARTNER")).toBe(true);
  // Before the trip begins the partner has fulfilled nothing: the read-back records nothing.
  expect((await call(t, "POST", "/sandbox/scheduler/run", key, { job: "partners.read-back" })).json.result).toEqual({ orders: 0 });
  // After the first departure it has.
  const order = await t.gw.orders.retrieve(orderId, { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id });
  const first = Math.min(...(await t.gw.orders.details(order)).flights.map((f) => f.departureUtcMs));
  const now = clock.now();
  clock.set(first + 1);
  try {
    expect((await call(t, "POST", "/sandbox/scheduler/run", key, { job: "partners.read-back" })).json.result).toEqual({ orders: 1 });
    expect((await call(t, "POST", "/sandbox/scheduler/run", key, { job: "partners.read-back" })).json.result).toEqual({ orders: 0 });
    await dispatch();
  } finally {
    clock.set(now);
  }
  const pushes = pushesOf({ ...rx, requests: rx.requests.slice(seen) }, secret, "ServiceDeliveryNotifRQ");
  expect(pushes.length).toBe(1);
  expect(pushes[0]).toContain(`<cns:OrderID>${orderId}</cns:OrderID>`);
  expect(partnerStates(pushes[0]!).map(([, code]) => code)).toEqual(awaiting.map(() => "DELIVERED"));
  expect(partnerStates(pushes[0]!).map(([provider]) => provider).sort()).toEqual(awaiting.map(([provider]) => provider).sort());
  // Only the partner's items are pushed: the flights have tickets behind them.
  expect(blocks(pushes[0]!, "Service").length).toBe(6);
  expect(partnerStates((await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId))).body).map(([, code]) => code)).toEqual(awaiting.map(() => "DELIVERED"));
}, 60_000);

test("fly reads the partner back at once", async () => {
  const party = await shopParty(t, clock);
  const orderId = await bookWithPartner(party, "FLY");
  const r = await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {});
  expect(r.status).toBe(200);
  expect(r.json.partnerDelivered.length).toBe(2);
  expect(new Set(partnerStates((await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId))).body).map(([, code]) => code))).toEqual(new Set(["DELIVERED"]));
}, 60_000);

test("a delivery commits with its push or not at all", async () => {
  const { orderId } = await bookWithFreeSeat(t, "FLY-ATOMIC");
  const seller = { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id };
  const allowOutbox = await refuseInserts(t.gw.store, "notification_deliveries");
  try {
    await expect(t.gw.orders.fly(orderId, seller)).rejects.toThrow("injected");
  } finally {
    await allowOutbox();
  }
  expect((await t.gw.orders.retrieve(orderId, seller)).flown).toBeUndefined();
  expect(all((await t.ndc("ServiceDeliveryRQ", deliveryRQ(orderId))).body, "DeliveryStatusCode")).toEqual(["NOT_DELIVERED", "NOT_DELIVERED"]);
  const seen = rx.requests.length;
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/fly`, key, {})).status).toBe(200);
  await dispatch();
  expect(pushesOf({ ...rx, requests: rx.requests.slice(seen) }, secret, "ServiceDeliveryNotifRQ").filter((b) => b.includes(orderId)).length).toBe(1);
}, 60_000);

test("the seller's own orders only: another seller's is 404 like a missing one; bad bodies are 400", async () => {
  const { orderId } = await bookWithFreeSeat(t, "OWN");
  const other = await otherSellerToken(t, "AGY-OPS", "12345725", "ndc:order");
  for (const action of ["schedule-change", "fly"]) {
    const theirs = await call(t, "POST", `/sandbox/orders/${orderId}/${action}`, other, { minutes: 30 });
    const missing = await call(t, "POST", `/sandbox/orders/ORD-NOSUCH/${action}`, key, { minutes: 30 });
    expect([theirs.status, theirs.json]).toEqual([404, missing.json]);
    expect(missing.json.error).toBe("order_not_found");
  }
  for (const body of [{}, { minutes: 0 }, { minutes: 1.5 }, { minutes: 99_999 }, { minutes: 30, cancelFlight: true }, { cancelFlight: false }]) {
    const bad = await call(t, "POST", `/sandbox/orders/${orderId}/schedule-change`, key, body);
    expect([bad.status, bad.json.error]).toEqual([400, "request_invalid"]);
  }
  expect((await call(t, "POST", `/sandbox/orders/${orderId}/land`, key, {})).status).toBe(404);
}, 60_000);

test("production answers 404 for the order controls as for any path it does not serve", async () => {
  const production = await startTestGateway(PRODUCTION_ENV);
  try {
    const pkey = await otherSellerToken(production, "AGY-PRD", "12345714", "ndc:order");
    for (const path of ["/sandbox/orders/ORD-X/schedule-change", "/sandbox/orders/ORD-X/fly"]) {
      const r = await call(production, "POST", path, pkey, { minutes: 30 });
      expect([r.status, r.json]).toEqual([404, { error: "not_found" }]);
    }
  } finally {
    await production.close();
  }
}, 60_000);

