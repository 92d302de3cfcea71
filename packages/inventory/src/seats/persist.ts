import { and, eq, inArray } from "drizzle-orm";
import { tables, type StoreDb } from "@ndc/store";
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
      await tx.insert(seatInventory).values(
        e.seatIds.map((seatId) => ({
          flightKey,
          seatId,
          holdId: e.holdId,
          status: "held",
          holder: e.holder,
          channel: e.channel,
          expiresAt: e.expiresAt,
          createdAt: e.at,
          updatedAt: e.at,
        })),
      );
      continue;
    }
    // Only live rows move: a released row stays released whatever is replayed.
    await tx
      .update(seatInventory)
      .set({ status: e.type, updatedAt: e.at })
      .where(
        and(
          eq(seatInventory.flightKey, flightKey),
          eq(seatInventory.holdId, e.holdId),
          inArray(seatInventory.status, e.type === "sold" ? ["held"] : ["held", "sold"]),
        ),
      );
  }
}
