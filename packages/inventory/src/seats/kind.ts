import { randomUUID } from "node:crypto";
import { defineJournaledKind } from "@ndc/actors";
import type { Supply } from "@ndc/supply";
import type { SeatCommand, SeatReply } from "./commands";
import { decideSeats } from "./decide";
import { persistSeatRows } from "./persist";
import { evolveSeats, type SeatEvent, type SeatInventoryValue } from "./state";

export const SEAT_INVENTORY_KIND = "inventory.seats";

/**
 * One actor per flight (key: the flight key, e.g. XB-100-2026-11-22). Every channel's hold or
 * sale of a seat on that flight is a command to it, so two sales of one seat are decided one
 * after the other against the same state. Events go to actor_journal and their rows to
 * seat_inventory in one transaction (write-ahead), before the caller is answered.
 */
export function seatInventoryKind(supply: Supply, opts: { snapshotEvery?: number } = {}) {
  return defineJournaledKind<SeatInventoryValue, SeatCommand, SeatEvent, SeatReply>({
    name: SEAT_INVENTORY_KIND,
    // Replaying a busy flight's whole history at every rehydration would grow without bound.
    snapshotEvery: opts.snapshotEvery ?? 200,
    initial(flightKey) {
      const map = supply.seatMap(flightKey);
      const seats = map ? map.cabins.flatMap((c) => c.seats) : null;
      return {
        flightKey,
        seatIds: seats ? seats.map((s) => s.id) : null,
        // The simulator's passengers of other channels: sold before the gateway saw the flight.
        occupied: seats ? seats.filter((s) => s.availability === "occupied").map((s) => s.id) : [],
        holds: {},
        claims: {},
      };
    },
    decide: (value, command, ctx) => decideSeats(value, command, ctx.now, () => `SH-${randomUUID()}`),
    evolve: evolveSeats,
    persistAlso: (tx, key, events) => persistSeatRows(tx, key, events),
  });
}
