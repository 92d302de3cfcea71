import type { Supply } from "@ndc/supply";
import { holdableKind } from "../holdable/kind";
import { persistSeatRows } from "./persist";
import { SEAT_STOCK } from "./shape";

export const SEAT_INVENTORY_KIND = "inventory.seats";

/**
 * One actor per flight (key: the flight key, e.g. XB-100-2026-11-22). Every channel's hold or
 * sale of a seat on that flight is a command to it, so two sales of one seat are decided one
 * after the other against the same state. Events go to actor_journal and their rows to
 * seat_inventory in one transaction (write-ahead), before the caller is answered.
 */
export function seatInventoryKind(supply: Supply, opts: { snapshotEvery?: number } = {}) {
  return holdableKind(SEAT_STOCK, {
    name: SEAT_INVENTORY_KIND,
    holdIdPrefix: "SH",
    snapshotEvery: opts.snapshotEvery,
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
    persistAlso: (tx, key, events) => persistSeatRows(tx, key, events),
  });
}
