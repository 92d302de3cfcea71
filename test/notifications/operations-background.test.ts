import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { T0 } from "../orders-http/helpers";
import { bookWithFreeSeat } from "./operations-helpers";

/**
 * `serve --no-scheduler` (decision 0025): with no in-process scheduler the operations jobs run in
 * the gateway's background pass, beside the actors; without the option (serve with its in-process
 * scheduler, which also runs the closing check) the pass leaves them alone.
 */
const clock = new ManualClock(T0);
const open: TestGateway[] = [];
afterAll(async () => {
  for (const t of open) await t.close();
}, 60_000);
const gateway = async (operationsInBackground: boolean) => {
  // A pass only when the test ticks it: the timer is a day.
  const t = await startTestGateway({ ORDERS_BACKGROUND_MS: "86400000", OPERATIONS_FEED_PER_MILLE: "1000" }, clock, undefined, { background: true, operationsInBackground, closingInBackground: operationsInBackground });
  open.push(t);
  return t;
};
let withOps: TestGateway;
let without: TestGateway;
beforeAll(async () => {
  withOps = await gateway(true);
  without = await gateway(false);
}, 60_000);

async function departedOrder(t: TestGateway, tag: string) {
  clock.set(T0);
  const { orderId } = await bookWithFreeSeat(t, tag);
  const seller = { clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id };
  const details = await t.gw.orders.retrieveDetails(orderId, seller);
  clock.set(Math.max(...details.flights.map((f) => f.departureUtcMs)) + 1);
  return async () => t.gw.orders.retrieve(orderId, seller);
}

test("the background pass runs the feed, the delivery and the read-back when asked", async () => {
  const order = await departedOrder(withOps, "BG-ON");
  await withOps.gw.background!.tick();
  expect(((await order()).flown ?? []).length).toBeGreaterThan(0);
  expect(withOps.logs.some((l) => l.includes('"orders_background_done"') && l.includes('"delivery.flown"'))).toBe(true);
}, 60_000);

test("and leaves them to the scheduler otherwise", async () => {
  const order = await departedOrder(without, "BG-OFF");
  await without.gw.background!.tick();
  expect((await order()).flown).toBeUndefined();
}, 60_000);
