import { and, asc, eq, gt, isNull, lte, or } from "drizzle-orm";
import { orderClearances } from "@ndc/payments";
import { tables } from "@ndc/store";
import type { OrdersContext } from "../context";
import type { Order } from "../state";
import { deliveryStateOf } from "../view/delivery";
import { orderDetails } from "../view/details";
import { serviceFlightKeys } from "../view/services";
import { flyingFlightKeys } from "../operations/schedule-change";
import { recordDeparted } from "../operations/sweeps";

/** Orders looked at per run: a run stays short, the next takes the rest. */
export const CLOSING_BATCH = 200;

/** Per order domain (process): the last order id a full run looked at, so the next run goes on from it. */
const resumeAfter = new WeakMap<OrdersContext, string>();

/** Why an order is not closed yet, or null when it may close (what the closing check logs and tests read). */
export type NotClosable = "not_booked" | "service_not_delivered" | "payment_open" | "clearance_open";

/**
 * The closing check's rule (spec 3): every service delivered, no-show or removed, and the money
 * settled. Delivery is deliveryStateOf, the state ServiceDeliveryRQ answers (a service of a flight
 * that has flown is delivered, and with it a passenger who did not board: the gateway has no
 * departure control, so a no-show is delivered by the flight; a removed item is no longer on the
 * order). Money: no payment leg still authorising or authorised (every payment captured, voided,
 * declined or refunded), no value retained by RespendInd still waiting for its lapse, and no clearance still requested (every settlement-plan payment cleared,
 * or its clearance cancelled by a refund).
 */
export async function closability(ctx: OrdersContext, order: Order): Promise<NotClosable | null> {
  if (order.state !== "booked") return "not_booked";
  const details = await orderDetails(ctx, order);
  const flown = new Set(details.flown);
  const undelivered = order.items.some((it) => serviceFlightKeys(order, it).some((key) => deliveryStateOf(order, it, key, flown).code !== "DELIVERED"));
  if (undelivered) return "service_not_delivered";
  // Closed only once the delivery sweep has recorded each flight flown on the order (and written
  // service.delivered for what that delivered): a closed order is not swept again, so closing
  // first would leave a delivery unannounced.
  const recorded = new Set((order.flown ?? []).map((f) => f.flightKey));
  if (flyingFlightKeys(order).some((k) => !recorded.has(k))) return "service_not_delivered";
  if (details.legs.some((l) => l.state === "authorising" || l.state === "authorised")) return "payment_open";
  // A value retained by RespendInd is money not settled until its lapse refunds it (cancel/retained-lapse.ts).
  if ((order.retained?.amountMinor ?? 0) > 0) return "payment_open";
  if ((await orderClearances(ctx.store.db, order.orderId)).some((c) => c.status === "requested")) return "clearance_open";
  return null;
}

/**
 * The closing check: booked orders whose last flight's day has come (the index's travel_to, a
 * cheap first cut), or every flight of which is recorded flown already (unflown_from empty: the
 * sandbox's fly flies an order weeks before its dates; issue 19 item 19), are judged by closability(), and those that may close are moved to Closed by
 * their own actor, whose persist hook writes OrderClosingNotifRQ in the same transaction. At
 * most CLOSING_BATCH orders a run, each run going on from the last; safe to repeat (a closed order
 * is not found again, and the actor keeps a closed order closed).
 */
export async function closeSettled(ctx: OrdersContext, now: number, limit = CLOSING_BATCH, owner?: string): Promise<{ closed: string[]; waiting: number }> {
  const today = new Date(now).toISOString().slice(0, 10);
  const O = tables.orders;
  // By order id from where the last run stopped, wrapping round: orders that wait (a partner not yet
  // fulfilled, a clearance not yet cleared) never keep the ones after them from being looked at.
  // A run over one seller's orders (its sandbox clock's) starts at the first and leaves the mark alone.
  const after = owner === undefined ? (resumeAfter.get(ctx) ?? "") : "";
  const due = await ctx.store.db
    .select({ orderId: O.orderId })
    .from(O)
    .where(and(eq(O.state, "booked"), or(lte(O.travelTo, today), isNull(O.unflownFrom)), gt(O.orderId, after), owner === undefined ? undefined : eq(O.ownerClientId, owner)))
    .orderBy(asc(O.orderId))
    .limit(limit)
    .all();
  if (owner === undefined) resumeAfter.set(ctx, due.length === limit ? due[due.length - 1]!.orderId : "");
  const closed: string[] = [];
  let waiting = 0;
  for (const { orderId } of due) {
    let order = await ctx.orders.ask(orderId, { op: "get" });
    // What has flown is recorded first, with its service.delivered, as the delivery sweep would.
    if (order && (await recordDeparted(ctx, order, now, false))) order = await ctx.orders.ask(orderId, { op: "get" });
    if (!order || (await closability(ctx, order)) !== null) {
      waiting++;
      continue;
    }
    const after = await ctx.orders.ask(orderId, { op: "close" });
    if (after?.state === "closed") closed.push(orderId);
  }
  return { closed, waiting };
}
