import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { disruptionOf } from "@ndc/orders";
import { ConfigError, loadConfig } from "@ndc/config";
import { T0 } from "../orders-http/helpers";
import { call } from "./helpers";
import { PRODUCTION_ENV } from "../support/gateway";
import { bookWithFreeSeat, pushesOf, subscribedGateway, type Subscribed } from "./operations-helpers";
import { refuseInserts } from "../support/triggers";

/**
 * The simulated operations feed (issue 10): deterministic from the supply seed at the configured
 * rate, run as the `operations.feed` job; each order on a disrupted flight changes through its
 * actor with its OrderChangeNotifRQ in the same transaction. Every flight is disrupted at 1000 per mille.
 */
const clock = new ManualClock(T0);
let s: Subscribed;
beforeAll(async () => {
  s = await subscribedGateway({ OPERATIONS_FEED_PER_MILLE: "1000" }, clock, ["order.changed"]);
}, 60_000);
afterAll(() => s.close(), 60_000);

const run = async (job: string) => (await call(s.t, "POST", "/sandbox/scheduler/run", s.key, { job })).json.result;

test("the rate is a setting from 0 to 1000, read as 0 in production; the read-back interval 1 to 59 minutes", () => {
  const production = PRODUCTION_ENV;
  expect(loadConfig({ OPERATIONS_FEED_PER_MILLE: "500" }).operationsFeedPerMille).toBe(500);
  expect(loadConfig({}).operationsFeedPerMille).toBe(20);
  expect(loadConfig({ ...production, OPERATIONS_FEED_PER_MILLE: "500" }).operationsFeedPerMille).toBe(0);
  expect(() => loadConfig({ OPERATIONS_FEED_PER_MILLE: "1001" })).toThrow(ConfigError);
  expect(loadConfig({}).partnerReadbackMinutes).toBe(5);
  for (const bad of ["0", "60", "x"]) expect(() => loadConfig({ PARTNER_READBACK_MINUTES: bad })).toThrow(ConfigError);
});

test("the same seed gives the same disruptions; the rate decides how many", () => {
  const flights = Array.from({ length: 30 }, (_, d) => s.t.gw.supply.journeys("LHR", "CDG", new Date(T0 + (d + 1) * 86_400_000).toISOString().slice(0, 10))[0]!.segments[0]!);
  const at = (seed: string, perMille: number) => flights.map((f) => disruptionOf(seed, f, perMille));
  expect(at("xb-sandbox-1", 500)).toEqual(at("xb-sandbox-1", 500));
  expect(at("xb-sandbox-1", 0).every((d) => d === undefined)).toBe(true);
  expect(at("xb-sandbox-1", 1000).every((d) => d !== undefined && d.announceAt < flights.find((f) => f.key === d.flightKey)!.departureUtcMs)).toBe(true);
  const some = at("xb-sandbox-1", 300).filter(Boolean).length;
  expect(some).toBeGreaterThan(0);
  expect(some).toBeLessThan(30);
}, 60_000);

test("a disruption announced by now changes every order on the flight once, each pushed in its change's transaction", async () => {
  const a = await bookWithFreeSeat(s.t, "FEED-A");
  const order = await s.t.gw.orders.retrieve(a.orderId, { clientId: s.t.gw.sandbox!.client_id, agencyId: s.t.gw.sandbox!.agency_id });
  const flight = s.t.gw.supply.flight(order.journeys[0]!.flightKeys[0]!)!;
  const d = disruptionOf(s.t.gw.config.shopping.supplySeed, flight, 1000)!;
  // Not announced yet: nothing happens.
  clock.set(d.announceAt - 1);
  expect(await run("operations.feed")).toEqual({ flights: 0, orders: 0 });

  // The outbox write fails inside the order's transaction: neither the change nor its push.
  clock.set(d.announceAt);
  const allowOutbox = await refuseInserts(s.t.gw.store, "notification_deliveries");
  await expect(s.t.gw.orders.operationsFeed(1000, s.t.gw.config.shopping.supplySeed, clock.now())).rejects.toThrow("injected");
  expect((await s.t.gw.orders.retrieve(a.orderId, { clientId: s.t.gw.sandbox!.client_id, agencyId: s.t.gw.sandbox!.agency_id })).version).toBe(order.version);
  await allowOutbox();

  const result = await run("operations.feed");
  expect(result.orders).toBe(1);
  const after = await s.t.gw.orders.retrieve(a.orderId, { clientId: s.t.gw.sandbox!.client_id, agencyId: s.t.gw.sandbox!.agency_id });
  expect(after.version).toBe(order.version + 1);
  expect(after.scheduleChanges!.map((c) => [c.flightKey, c.kind, c.reasonCode])).toEqual([[flight.key, d.kind, "OPERATIONAL"]]);
  await run("notifications.dispatch");
  const pushes = pushesOf(s.rx, s.secret, "OrderChangeNotifRQ");
  expect(pushes.length).toBe(1);
  expect(pushes[0]).toContain(`<ChangeTypeCode>${d.kind === "cancel" ? "FLIGHT_CANCELLED" : "SCHEDULE_CHANGE"}</ChangeTypeCode>`);
  expect(pushes[0]).toContain("<ReasonCode>OPERATIONAL</ReasonCode>");
  expect(pushes[0]).toContain(`<OrderVersionNumber>${after.version}</OrderVersionNumber>`);
  // Applied once: the next runs find nothing more for that flight.
  expect((await run("operations.feed")).orders).toBe(0);
  await run("notifications.dispatch");
  expect(pushesOf(s.rx, s.secret, "OrderChangeNotifRQ").length).toBe(1);
}, 60_000);

test("the delivery sweep records a departed flight when the clock passes it", async () => {
  const b = await bookWithFreeSeat(s.t, "FEED-B");
  const order = await s.t.gw.orders.retrieve(b.orderId, { clientId: s.t.gw.sandbox!.client_id, agencyId: s.t.gw.sandbox!.agency_id });
  const details = await s.t.gw.orders.details(order);
  const last = Math.max(...details.flights.map((f) => f.departureUtcMs));
  const flown = async () => (await s.t.gw.orders.retrieve(b.orderId, { clientId: s.t.gw.sandbox!.client_id, agencyId: s.t.gw.sandbox!.agency_id })).flown ?? [];
  clock.set(last - 1);
  await run("delivery.flown");
  expect(await flown()).toEqual([]);
  clock.set(last + 1);
  expect((await run("delivery.flown")).orders).toBeGreaterThan(0);
  expect((await flown()).map((f) => f.flightKey).sort()).toEqual(details.flights.map((f) => f.key).sort());
  expect((await run("delivery.flown")).orders).toBe(0);
}, 60_000);
