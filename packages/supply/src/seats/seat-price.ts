import { BASE_CURRENCY } from "../exchange/rates";
import { money, type Money } from "@ndc/money";
import type { CabinLayout } from "./layouts";

/**
 * What a seat costs to pick in advance, in the base currency. Business seats and the rear
 * economy centre seats are free of charge; the rest are priced by position, and long-haul
 * seats cost twice as much because the flight is longer.
 */
export function seatPrice(cabin: CabinLayout, row: number, position: "window" | "aisle" | "centre", longHaul: boolean): Money {
  if (cabin.cabin === "BUSINESS") return money(0, BASE_CURRENCY);
  const factor = longHaul ? 2 : 1;
  if (cabin.extraLegroomRows.includes(row)) return money(2_900 * factor, BASE_CURRENCY);
  const span = cabin.lastRow - cabin.firstRow + 1;
  const front = row - cabin.firstRow < Math.ceil(span / 5);
  if (front) return money(1_500 * factor, BASE_CURRENCY);
  const rear = row - cabin.firstRow >= Math.floor(span / 2);
  if (position === "centre") return money(rear ? 0 : 600 * factor, BASE_CURRENCY);
  return money(rear ? 800 * factor : 1_000 * factor, BASE_CURRENCY);
}
