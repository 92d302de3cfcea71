import { randomUUID } from "node:crypto";
import { and, eq, gt, isNotNull, lte, sql } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { jsonTextElements, tables, type Store } from "@ndc/store";
import type { OrdersContext } from "../context";
import { assertOwner, type Order, type ScheduleChange, type Seller } from "../state";
import { orderDetails } from "../view/details";
import { disruptionOf } from "./feed";
import { cancelledFlightKeys, flyingFlightKeys, isPartnerFulfilled, SCHEDULE_CHANGE_REASONS } from "./schedule-change";
import { operationsFeed } from "../tables/operations-feed";

const O = tables.orders;
const DAY_MS = 86_400_000;
const OPEN_STATES = ["booked", "held_unpaid", "held_payment_declined"];
/** A sandbox retime is at most two days either way. */
export const MAX_SANDBOX_RETIME_MINUTES = 2 * 24 * 60;

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The order's flights as they fly for it (retimes applied) that have not been recorded flown, less those the airline cancelled. */
async function unflownFlights(ctx: OrdersContext, order: Order) {
  const gone = new Set([...(order.flown ?? []).map((f) => f.flightKey), ...cancelledFlightKeys(order)]);
  return (await orderDetails(ctx, order)).flights.filter((f) => !gone.has(f.key));
}

/**
 * POST /sandbox/orders/{orderId}/schedule-change: the airline retimes every flight of the order
 * not yet flown by `minutes`, or cancels its first one. Another seller's order is order_not_found
 * like a missing one. One write through the order's actor, its notification with it.
 */
export async function sandboxScheduleChange(ctx: OrdersContext, orderId: string, seller: Seller, ask: { minutes?: number; cancelFlight?: boolean }): Promise<Order> {
  const order = assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
  const flights = (await unflownFlights(ctx, order)).sort((a, b) => a.departureUtcMs - b.departureUtcMs);
  if (flights.length === 0) throw new GatewayError("order_state_invalid", { detail: "The order has no flight left to change." });
  const ref = `sbx:${randomUUID()}`;
  const reasonCode = SCHEDULE_CHANGE_REASONS.sandbox;
  const changes: Omit<ScheduleChange, "at">[] = ask.cancelFlight
    ? [{ ref, flightKey: flights[0]!.key, kind: "cancel", reasonCode }]
    : flights.map((f) => ({ ref: `${ref}:${f.key}`, flightKey: f.key, kind: "retime", minutes: ask.minutes!, reasonCode }));
  const after = await ctx.orders.ask(orderId, { op: "changeSchedule", changes });
  return after!;
}

/**
 * The flights of open orders travelling from yesterday to two days ahead that the feed has not
 * applied yet. An order's flight keys are a JSON array on its row, listed per engine
 * (jsonTextElements).
 */
export async function feedCandidateFlights(store: Store, now: number): Promise<{ key: string }[]> {
  return (await store.db.all(sql`
    SELECT DISTINCT k.value AS key FROM ${O}, ${jsonTextElements(store.dialect, O.flightKeys, "k")}
    WHERE ${O.state} IN ('booked', 'held_unpaid', 'held_payment_declined') AND ${O.travelTo} >= ${dateOf(now - DAY_MS)} AND ${O.travelFrom} <= ${dateOf(now + 2 * DAY_MS)}
      AND k.value NOT IN (SELECT ${operationsFeed.flightKey} FROM ${operationsFeed})`)) as { key: string }[];
}

/** The open orders holding the flight. The alias is quoted: PostgreSQL folds unquoted names to lower case. */
export async function openOrdersOnFlight(store: Store, key: string): Promise<{ orderId: string }[]> {
  return (await store.db.all(sql`
    SELECT ${O.orderId} AS "orderId" FROM ${O}, ${jsonTextElements(store.dialect, O.flightKeys, "k")}
    WHERE ${O.state} IN ('booked', 'held_unpaid', 'held_payment_declined') AND k.value = ${key}`)) as { orderId: string }[];
}

/**
 * The simulated operations feed, one run: the open orders' flights departing within two days are
 * checked against the feed (feed.ts); each disruption announced by now and not yet applied changes
 * every open order on the flight through its actor (one notification each), then is recorded as
 * applied. A crash in between repeats it: each order's actor ignores a change it already has.
 */
export async function runOperationsFeed(ctx: OrdersContext, now: number, perMille: number, seed: string, maxFlights = 50): Promise<{ flights: number; orders: number }> {
  if (perMille <= 0) return { flights: 0, orders: 0 };
  const keys = await feedCandidateFlights(ctx.store, now);
  let flights = 0;
  let orders = 0;
  for (const { key } of keys) {
    if (flights >= maxFlights) break;
    const flight = ctx.supply.flight(key);
    if (!flight || flight.departureUtcMs <= now) continue;
    const d = disruptionOf(seed, flight, perMille);
    if (!d || d.announceAt > now) continue;
    const onFlight = await openOrdersOnFlight(ctx.store, key);
    const change: Omit<ScheduleChange, "at"> = { ref: `ops:${key}`, flightKey: key, kind: d.kind, ...(d.minutes !== undefined ? { minutes: d.minutes } : {}), reasonCode: SCHEDULE_CHANGE_REASONS.feed };
    for (const { orderId } of onFlight) {
      const before = await ctx.orders.ask(orderId, { op: "get" });
      if (!before || !OPEN_STATES.includes(before.state)) continue;
      const after = await ctx.orders.ask(orderId, { op: "changeSchedule", changes: [change] });
      if (after && after.version !== before.version) orders++;
    }
    await ctx.store.write((tx) =>
      tx.insert(operationsFeed).values({ flightKey: key, kind: d.kind, minutes: d.minutes ?? null, announcedAt: d.announceAt, appliedAt: now, orders: onFlight.length }).onConflictDoNothing().run(),
    );
    flights++;
  }
  return { flights, orders };
}

/**
 * One order's departed flights recorded flown (their notifications with them); true when something
 * was recorded. A flight the schedule no longer places (its date fell out of the sale horizon at a
 * later start) has departed once its date is more than a day past; otherwise its order would stay
 * a candidate of every delivery run.
 */
export async function recordDeparted(ctx: OrdersContext, order: Order, now: number, all: boolean): Promise<boolean> {
  const placed = await unflownFlights(ctx, order);
  const flown = new Set((order.flown ?? []).map((f) => f.flightKey));
  const unplaced = flyingFlightKeys(order).filter((k) => !flown.has(k) && !placed.some((f) => f.key === k));
  const departed = [
    ...placed.filter((f) => all || f.departureUtcMs <= now).map((f) => f.key),
    ...unplaced.filter((k) => all || k.slice(-10) < dateOf(now - DAY_MS)),
  ];
  if (departed.length === 0) return false;
  const after = await ctx.orders.ask(order.orderId, { op: "recordFlown", flightKeys: departed });
  return after?.version !== order.version;
}

/**
 * The delivery sweep: booked orders with a flight not yet recorded flown whose date has come are
 * asked to record the flights that departed by `now` (retimes applied). At most `limit` orders a run.
 */
export async function deliverFlown(ctx: OrdersContext, now: number, limit = 500, owner?: string): Promise<{ orders: number }> {
  const due = await ctx.store.db
    .select({ orderId: O.orderId })
    .from(O)
    .where(and(eq(O.state, "booked"), isNotNull(O.unflownFrom), lte(O.unflownFrom, dateOf(now + DAY_MS)), ownedBy(owner)))
    .orderBy(O.unflownFrom)
    .limit(limit)
    .all();
  let orders = 0;
  for (const { orderId } of due) {
    const order = await ctx.orders.ask(orderId, { op: "get" });
    if (order && (await recordDeparted(ctx, order, now, false))) orders++;
  }
  return { orders };
}

/**
 * The simulated partner fulfils a partner product (or a ride's operator its ride) once the
 * order's trip has begun: a flight departed (by its retimed schedule) or recorded flown. The
 * read-back and the sandbox's fly ask it.
 */
export async function partnerFulfilled(ctx: OrdersContext, order: Order, now: number): Promise<string[]> {
  if (order.state !== "booked") return [];
  const details = await orderDetails(ctx, order);
  const begun = details.flown.length > 0 || details.flights.some((f) => f.departureUtcMs <= now);
  if (!begun) return [];
  const done = new Set((order.partnerDelivered ?? []).map((d) => d.orderItemId));
  return order.items.filter((i) => isPartnerFulfilled(i) && !done.has(i.orderItemId)).map((i) => i.orderItemId);
}

/**
 * The partner read-back (every PARTNER_READBACK_MINUTES): booked orders with a partner product not
 * yet reported fulfilled, whose travel has begun by date, are read back from the simulated partner;
 * what it fulfilled is recorded by the order's actor (its notification with it).
 */
export async function partnerReadBack(ctx: OrdersContext, now: number, limit = 500, owner?: string): Promise<{ orders: number }> {
  const due = await ctx.store.db
    .select({ orderId: O.orderId })
    .from(O)
    .where(and(eq(O.state, "booked"), gt(O.partnerAwaiting, 0), lte(O.travelFrom, dateOf(now + DAY_MS)), ownedBy(owner)))
    .limit(limit)
    .all();
  let orders = 0;
  for (const { orderId } of due) orders += (await readBackOne(ctx, orderId, now)) ? 1 : 0;
  return { orders };
}

/** One seller client's orders only (a run on its sandbox clock, sandbox/per-seller.ts); none: every order. */
function ownedBy(owner: string | undefined) {
  return owner === undefined ? undefined : eq(O.ownerClientId, owner);
}

async function readBackOne(ctx: OrdersContext, orderId: string, now: number): Promise<boolean> {
  const order = await ctx.orders.ask(orderId, { op: "get" });
  if (!order) return false;
  const fulfilled = await partnerFulfilled(ctx, order, now);
  if (fulfilled.length === 0) return false;
  const after = await ctx.orders.ask(orderId, { op: "recordPartnerDelivered", orderItemIds: fulfilled });
  return after?.version !== order.version;
}

/**
 * POST /sandbox/orders/{orderId}/fly: every flight of the seller's booked order departs and
 * arrives now (recorded flown), then the partner is read back for it. Delivery only: the caller
 * runs the closing check after.
 */
export async function flyOrder(ctx: OrdersContext, orderId: string, seller: Seller, now: number): Promise<Order> {
  const order = assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
  // A repeat records nothing, also once the first fly's closing check closed the order (issue 19 item 19): everything it flies has flown.
  if (order.state === "closed") return order;
  if (order.state !== "booked") throw new GatewayError("order_state_invalid", { detail: `The order is ${order.state}; only a booked order flies.` });
  await recordDeparted(ctx, order, now, true);
  await readBackOne(ctx, orderId, now);
  return (await ctx.orders.ask(orderId, { op: "get" }))!;
}

