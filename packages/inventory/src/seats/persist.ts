import { and, eq, inArray, sql } from "drizzle-orm";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import type { SeatEvent } from "./state";

const { seatInventory } = tables;

/**
 * Mirrors the events into seat_inventory inside the actor's write transaction, in event
 * order: expiries first turn old rows non-live, so the live-seat unique index accepts the
 * new hold's rows, and refuses them if anything else still claims a seat.
 */
export async function persistSeatRows(tx: StoreDb, flightKey: string, events: SeatEvent[]): Promise<void> {
  for (const e of events) {
    if (e.type === "held") {
      const insert = insertSeat(tx);
      for (const seatId of e.seatIds) {
        await insert.run({ flightKey, seatId, holdId: e.holdId, holder: e.holder, channel: e.channel, expiresAt: e.expiresAt, at: e.at });
      }
      continue;
    }
    // Only live rows move: a released row stays released whatever is replayed.
    await (e.type === "sold" ? sellHeld : endLive)(tx).run({ status: e.type, at: e.at, flightKey, holdId: e.holdId });
  }
}

// Prepared once per connection: every hold, sale and release writes these (issue 8).
const insertSeat = preparedOnce((db) =>
  db
    .insert(seatInventory)
    .values({
      flightKey: sql.placeholder("flightKey"),
      seatId: sql.placeholder("seatId"),
      holdId: sql.placeholder("holdId"),
      status: "held",
      holder: sql.placeholder("holder"),
      channel: sql.placeholder("channel"),
      expiresAt: sql.placeholder("expiresAt"),
      createdAt: sql.placeholder("at"),
      updatedAt: sql.placeholder("at"),
    })
    .prepare(),
);
const moveLive = (from: string[]) =>
  preparedOnce((db) =>
    db
      .update(seatInventory)
      .set({ status: sql`${sql.placeholder("status")}`, updatedAt: sql`${sql.placeholder("at")}` })
      .where(and(eq(seatInventory.flightKey, sql.placeholder("flightKey")), eq(seatInventory.holdId, sql.placeholder("holdId")), inArray(seatInventory.status, from)))
      .prepare(),
  );
const sellHeld = moveLive(["held"]);
const endLive = moveLive(["held", "sold"]);
