import { rngFor } from "../core/random";
import type { CabinCode, Flight } from "../schedule/flights";
import type { Money } from "@ndc/money";
import { SEAT_CHARACTERISTICS as SC, type SeatCharacteristic } from "./characteristics";
import type { CabinComponent } from "./cabin-components";
import { SEAT_LAYOUTS, type CabinLayout } from "./layouts";
import { seatPrice } from "./seat-price";

export interface Seat {
  /** e.g. "12A" */
  id: string;
  row: number;
  column: string;
  cabin: CabinCode;
  characteristics: SeatCharacteristic[];
  /** Price in the base currency; amount 0 means free of charge. */
  price: Money;
  /**
   * "occupied": taken by the simulated passengers of other channels. Seats the gateway sells are
   * tracked by the seat-inventory actor on top of this.
   */
  availability: "available" | "occupied";
}

export interface SeatMapCabin {
  cabin: CabinCode;
  firstRow: number;
  lastRow: number;
  /** Column letters left to right, with the aisle positions given separately. */
  columns: string[];
  /** An aisle follows each of these columns. */
  aisleAfter: string[];
  seats: Seat[];
  /** Galleys, lavatories and exits of the cabin, the aircraft type's (layouts.ts). */
  components: readonly CabinComponent[];
}

export interface SeatMap {
  flightKey: string;
  aircraftCode: string;
  cabins: SeatMapCabin[];
}

function position(blocks: readonly (readonly string[])[], column: string): "window" | "aisle" | "centre" {
  const bi = blocks.findIndex((b) => b.includes(column));
  const block = blocks[bi]!;
  const ci = block.indexOf(column);
  if ((bi === 0 && ci === 0) || (bi === blocks.length - 1 && ci === block.length - 1)) return "window";
  const touchesAisle = (ci === block.length - 1 && bi < blocks.length - 1) || (ci === 0 && bi > 0);
  return touchesAisle ? "aisle" : "centre";
}

function cabinSeats(flight: Flight, layout: CabinLayout, seed: string | number): SeatMapCabin {
  // Each flight gets its own load factor (15-80%), then each seat its own draw: repeatable per flight.
  const loadRng = rngFor(seed, "load", flight.key, layout.cabin);
  const loadPerMille = loadRng.between(150, 800);
  const columns = layout.blocks.flat();
  const seats: Seat[] = [];
  for (let row = layout.firstRow; row <= layout.lastRow; row++) {
    for (const column of columns) {
      const pos = position(layout.blocks, column);
      const characteristics: SeatCharacteristic[] = [pos === "window" ? SC.WINDOW : pos === "aisle" ? SC.AISLE : SC.CENTRE];
      if (layout.exitRows.includes(row)) characteristics.push(SC.EXIT_ROW, SC.NO_INFANT);
      if (layout.extraLegroomRows.includes(row)) characteristics.push(SC.LEG_SPACE);
      if (row === layout.firstRow) characteristics.push(SC.BULKHEAD);
      const price = seatPrice(layout, row, pos, flight.aircraft.wideBody);
      if (price.amount > 0) characteristics.push(SC.CHARGEABLE);
      const occupied = rngFor(seed, "seat", flight.key, `${row}${column}`).chance(loadPerMille);
      seats.push({ id: `${row}${column}`, row, column, cabin: layout.cabin, characteristics, price, availability: occupied ? "occupied" : "available" });
    }
  }
  const aisleAfter = layout.blocks.slice(0, -1).map((b) => b[b.length - 1]!);
  return { cabin: layout.cabin, firstRow: layout.firstRow, lastRow: layout.lastRow, columns, aisleAfter, seats, components: layout.components };
}

export function buildSeatMap(flight: Flight, seed: string | number): SeatMap {
  const layout = SEAT_LAYOUTS[flight.aircraft.code];
  if (!layout) throw new RangeError(`no seat layout for aircraft ${flight.aircraft.code}`);
  return { flightKey: flight.key, aircraftCode: layout.aircraftCode, cabins: layout.cabins.map((c) => cabinSeats(flight, c, seed)) };
}
