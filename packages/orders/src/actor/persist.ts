import { insertIdentityDocuments, travelEndOf, type FieldKey, type NewIdentityDocument } from "@ndc/pii";
import { sql } from "drizzle-orm";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import { surnameDigest } from "../read/surname-digest";
import { travelDates, type Order } from "../state";
import type { OrderEvent } from "./events";
import { flyingFlightKeys, isPartnerFulfilled, travelEndShiftMs } from "../operations/schedule-change";

/**
 * Identity documents ride beside the `created` event, never inside it: events are journaled as
 * JSON, and the clear number must reach nothing but sealField. The map is keyed by the event
 * object decide() returned, which is the one persist() receives.
 */
const documentsOf = new WeakMap<OrderEvent, NewIdentityDocument[]>();

export function attachDocuments(event: OrderEvent, docs: NewIdentityDocument[]): OrderEvent {
  documentsOf.set(event, docs);
  return event;
}

/**
 * Called inside the transaction that journals an order's events, after the order's own rows: what
 * it writes commits with the change or not at all (the notification outbox, issue 10). It must not
 * commit, call out, or ask an actor.
 */
export type OrderPersistHook = (tx: StoreDb, change: { events: OrderEvent[]; before: Order | null; after: Order; now: number }) => Promise<void>;

/** Writes, in the event's transaction: the documents (created only), the index row, the surname digests. */
export async function persistOrderRows(tx: StoreDb, fieldKey: FieldKey, events: OrderEvent[], after: Order, now: number): Promise<void> {
  for (const e of events) {
    if (e.type !== "created") continue;
    const docs = documentsOf.get(e);
    if (docs?.length) await insertIdentityDocuments(tx, fieldKey, after.orderId, docs, now);
    const digests = [...new Set(after.passengers.map((p) => surnameDigest(fieldKey, p.surname)))];
    for (const d of digests) await insertPaxIndex(tx).run({ orderId: after.orderId, surnameDigest: d });
  }
  const dates = travelDates(after);
  const row = {
    orderId: after.orderId,
    ownerClientId: after.owner.clientId,
    ownerAgencyId: after.owner.agencyId,
    state: after.state,
    version: after.version,
    createdAt: after.createdAt,
    updatedAt: after.updatedAt,
    paymentTimeLimit: after.paymentTimeLimit ?? null,
    currency: after.currency,
    totalMinor: after.totalMinor,
    paxCount: after.passengers.length,
    travelFrom: dates.from ?? null,
    travelTo: dates.to ?? null,
    ...operationsColumns(after, dates.to),
  };
  await upsertOrder(tx).run(row);
}

/** What the operations sweeps find an order by, written with every change of it (no extra statement: the same upsert). */
function operationsColumns(order: Order, travelTo: string | undefined): { flightKeys: string; unflownFrom: string | null; travelEndAt: number | null; partnerAwaiting: number } {
  // A flight the airline cancelled no longer flies: not on the feed, never delivered.
  const keys = flyingFlightKeys(order);
  const flown = new Set((order.flown ?? []).map((f) => f.flightKey));
  const unflown = keys.filter((k) => !flown.has(k)).map((k) => k.slice(-10)).sort();
  return {
    flightKeys: JSON.stringify(keys),
    unflownFrom: unflown[0] ?? null,
    // A retime later moves the end with it, so the retention deadline follows the flight (spec 8).
    travelEndAt: travelTo ? travelEndOf(travelTo) + travelEndShiftMs(order) : null,
    partnerAwaiting: order.items.filter((i) => isPartnerFulfilled(i) && !order.partnerDelivered?.some((d) => d.orderItemId === i.orderItemId)).length,
  };
}

const insertPaxIndex = preparedOnce((db) =>
  db.insert(tables.orderPaxIndex).values({ orderId: sql.placeholder("orderId"), surnameDigest: sql.placeholder("surnameDigest") }).onConflictDoNothing().prepare(),
);

// Prepared once per connection: every order command writes the index row (issue 8). On
// conflict every column but the id takes the proposed value (excluded.*), as a plain upsert would.
const O = tables.orders;
const ORDER_COLUMNS = ["orderId", "ownerClientId", "ownerAgencyId", "state", "version", "createdAt", "updatedAt", "paymentTimeLimit", "currency", "totalMinor", "paxCount", "travelFrom", "travelTo", "flightKeys", "unflownFrom", "travelEndAt", "partnerAwaiting"] as const;
const upsertOrder = preparedOnce((db) =>
  db
    .insert(O)
    .values(Object.fromEntries(ORDER_COLUMNS.map((c) => [c, sql.placeholder(c)])) as unknown as typeof O.$inferInsert)
    .onConflictDoUpdate({
      target: O.orderId,
      set: Object.fromEntries(ORDER_COLUMNS.filter((c) => c !== "orderId").map((c) => [c, sql.raw(`excluded."${O[c].name}"`)])),
    })
    .prepare(),
);
