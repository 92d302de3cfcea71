/**
 * An order as its actor's journal holds it, read and rewritten through the store between two
 * boots of a gateway on one data directory: the same code on the SQLite file and on PostgreSQL
 * (test/support/database.ts), where a bun:sqlite handle on gateway.db would open an empty file.
 */
import { and, eq } from "drizzle-orm";
import { openStore, tables, type Store } from "@ndc/store";
import type { Order } from "@ndc/orders";
import { databaseUrlFor } from "../support/database";

const J = tables.actorJournal;
const S = tables.actorSnapshots;

/** The store of the gateways booted on `dir` (none may be running while it writes). */
export const storeOf = (dir: string): Promise<Store> => openStore(databaseUrlFor(dir));

const created = (orderId: string) => and(eq(J.kind, "orders.order"), eq(J.key, orderId), eq(J.seq, 1));

/** The payload of the order's `created` event (seq 1), which carries the whole order as booked. */
async function createdPayload(store: Store, orderId: string): Promise<{ order: Order }> {
  const [row] = await store.db.select({ payload: J.payload }).from(J).where(created(orderId));
  if (!row) throw new Error(`no created event for ${orderId}`);
  return JSON.parse(row.payload) as { order: Order };
}

export async function createdOrder(store: Store, orderId: string): Promise<Order> {
  return (await createdPayload(store, orderId)).order;
}

/**
 * Rewrites the order of its `created` event and drops its snapshot, so the next boot replays the
 * rewritten journal: the order as if it had been booked that way.
 */
export async function rewriteCreated(store: Store, orderId: string, edit: (o: Order) => Order): Promise<void> {
  const payload = await createdPayload(store, orderId);
  await store.write(async (tx) => {
    await tx.update(J).set({ payload: JSON.stringify({ ...payload, order: edit(payload.order) }) }).where(created(orderId));
    await tx.delete(S).where(and(eq(S.kind, "orders.order"), eq(S.key, orderId)));
  });
}

/** The order's snapshot state, or undefined when it has none. */
export async function snapshotOf(store: Store, orderId: string): Promise<Order | undefined> {
  const [row] = await store.db.select({ state: S.state }).from(S).where(and(eq(S.kind, "orders.order"), eq(S.key, orderId)));
  return row ? (JSON.parse(row.state) as Order) : undefined;
}

/** Writes (or replaces) the order's snapshot at `seq`. */
export async function putSnapshot(store: Store, orderId: string, seq: number, order: Order): Promise<void> {
  const state = JSON.stringify(order);
  await store.write((tx) =>
    tx
      .insert(S)
      .values({ kind: "orders.order", key: orderId, seq, state, updatedAt: 0 })
      .onConflictDoUpdate({ target: [S.kind, S.key], set: { seq, state, updatedAt: 0 } }),
  );
}
