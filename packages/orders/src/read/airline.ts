import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { tables } from "@ndc/store";
import type { OrdersContext } from "../context";
import { ORDER_KIND } from "../actor/kind";
import { notFound, type Order, type OrderState } from "../state";
import { surnameDigest } from "./surname-digest";

/**
 * The airline's own reads of orders (the staff console, issue 12): any seller's order, no
 * ownership check. Only the staff surface calls these, behind a staff session and its rights;
 * no seller message reaches them.
 */

/** The order as its actor holds it; an unknown id is order_not_found without waking an actor. */
export async function airlineRetrieve(ctx: OrdersContext, orderId: string): Promise<Order> {
  if (!ctx.orders.peek(orderId)?.value) {
    const [row] = await ctx.store.db.select({ id: tables.orders.orderId }).from(tables.orders).where(eq(tables.orders.orderId, orderId)).limit(1);
    if (!row) throw notFound();
  }
  const order = await ctx.orders.ask(orderId, { op: "get" });
  if (!order) throw notFound();
  return order;
}

export interface AirlineSearch {
  orderId?: string;
  /** Any passenger's surname, exact and case-insensitive (the keyed digest OrderList uses). */
  surname?: string;
  /** The owning agency id. */
  agency?: string;
  /** A flight as carrier and number ("XB-100", "XB100"); with `date`, that day's flight. */
  flight?: string;
  /** YYYY-MM-DD: with `flight`, the flight's date; alone, a day within the order's travel. */
  date?: string;
  state?: OrderState;
}

export interface AirlineOrderRow {
  orderId: string;
  ownerAgencyId: string;
  ownerClientId: string;
  state: OrderState;
  createdAt: number;
  currency: string;
  totalMinor: number;
  paxCount: number;
  travelFrom?: string;
  travelTo?: string;
}

const o = tables.orders;
const j = tables.actorJournal;

/**
 * Orders matching every filter given, newest first, at most `limit`. A flight is found in the
 * order journal's events (an order's flights are not on the index row; flight keys end with the
 * date), then kept only where the order's current journeys still hold it, so an order moved off
 * the flight by a change is not listed. That scan reads the journal: it serves a console, not a
 * seller's hot path.
 */
export async function airlineSearch(ctx: OrdersContext, q: AirlineSearch, limit = 50): Promise<AirlineOrderRow[]> {
  const where: SQL[] = [];
  if (q.orderId) where.push(eq(o.orderId, q.orderId));
  if (q.agency) where.push(eq(o.ownerAgencyId, q.agency));
  if (q.state) where.push(eq(o.state, q.state));
  if (q.surname?.trim()) where.push(sql`${o.orderId} IN (SELECT order_id FROM order_pax_index WHERE surname_digest = ${surnameDigest(ctx.fieldKey, q.surname)})`);
  if (q.date && !/^\d{4}-\d{2}-\d{2}$/.test(q.date)) throw new GatewayError("request_invalid", { detail: "date is YYYY-MM-DD.", element: "date" });
  const flight = q.flight ? flightPrefix(q.flight) : undefined;
  if (flight) {
    const key = q.date ? `${flight}-${q.date}` : `${flight}-`;
    // The key as a JSON string ('"XB-100-2026-12-01"'), or its prefix: LIKE's wildcards cannot occur in it (flightPrefix).
    const pattern = q.date ? `%"${key}"%` : `%"${key}%`;
    where.push(sql`${o.orderId} IN (SELECT ${j.key} FROM ${j} WHERE ${j.kind} = ${ORDER_KIND} AND ${j.payload} LIKE ${pattern})`);
  } else if (q.date) {
    where.push(sql`${o.travelFrom} <= ${q.date} AND ${o.travelTo} >= ${q.date}`);
  }
  const rows = await ctx.store.db
    .select()
    .from(o)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(o.createdAt), desc(o.orderId))
    .limit(flight ? limit * 4 : limit);
  const found: AirlineOrderRow[] = [];
  for (const r of rows) {
    if (found.length >= limit) break;
    if (flight) {
      const order = await airlineRetrieve(ctx, r.orderId);
      const keys = order.journeys.flatMap((jy) => jy.flightKeys);
      if (!keys.some((k) => (q.date ? k === `${flight}-${q.date}` : k.startsWith(`${flight}-`)))) continue;
    }
    found.push({
      orderId: r.orderId, ownerAgencyId: r.ownerAgencyId, ownerClientId: r.ownerClientId, state: r.state as OrderState, createdAt: r.createdAt,
      currency: r.currency, totalMinor: r.totalMinor, paxCount: r.paxCount,
      ...(r.travelFrom ? { travelFrom: r.travelFrom } : {}), ...(r.travelTo ? { travelTo: r.travelTo } : {}),
    });
  }
  return found;
}

/** "XB100", "xb-100", "XB 0100" -> "XB-100" (the flight key's carrier and number), or request_invalid. */
export function flightPrefix(text: string): string {
  const m = /^\s*([A-Za-z0-9]{2})\s*-?\s*0*(\d{1,4})\s*$/.exec(text);
  if (!m) throw new GatewayError("request_invalid", { detail: "flight is a carrier and number, such as XB100.", element: "flight" });
  return `${m[1]!.toUpperCase()}-${m[2]}`;
}
