import type { CurrencyCode } from "@ndc/money";
import { convert, journeyTaxes, type CabinCode, type Flight, type PaxType } from "@ndc/supply";
import type { Order, OrderItem } from "../state";

/** One tax line of an order item, in integer minor units of the order's currency. */
export interface ItemTax {
  code: string;
  minor: number;
  /** As the levying authority or the carrier names it (TaxName); English. */
  name: string;
}

/** The names of the codes the airline's tax table (@ndc/supply fares/taxes.ts) levies. */
const TAX_NAMES: Readonly<Record<string, string>> = {
  GB: "United Kingdom Air Passenger Duty",
  UB: "United Kingdom Passenger Service Charge",
  FR: "France Civil Aviation Tax",
  QX: "France Airport Tax",
  IZ: "France Solidarity Tax",
  RA: "Germany Air Transport Tax",
  DE: "Germany Airport Security Charge",
  JD: "Spain Airport Charge",
  QV: "Spain Security Charge",
  OG: "Spain Aviation Safety Charge",
  HB: "Italy Boarding Tax",
  IT: "Italy Embarkation Tax",
  MJ: "Italy Security Charge",
  CJ: "Netherlands Security Service Charge",
  RN: "Netherlands Passenger Service Charge",
  US: "United States Transportation Tax",
  XA: "United States APHIS User Fee",
  XY: "United States Immigration User Fee",
  YC: "United States Customs User Fee",
  AY: "United States September 11th Security Fee",
  AE: "United Arab Emirates Passenger Service Charge",
  F6: "United Arab Emirates Passenger Facilities Charge",
  ZR: "United Arab Emirates Advance Passenger Information Fee",
  SG: "Singapore Passenger Service and Security Fee",
  L7: "Singapore Aviation Levy",
  OP: "Singapore Airport Development Levy",
  BR: "Brazil Boarding Fee",
  YQ: "Carrier-imposed surcharge",
};

/**
 * The taxes inside a flight item's price, for OrderViewRS's per-item TaxSummary: the airline's
 * tax table for each passenger of the item on each journey it flies, converted line by line into
 * the order's currency and merged by code in first-seen order, exactly as the fare was priced
 * (@ndc/supply priceJourney), so BaseAmount + taxes is the item's price. Other items carry no tax.
 * An item whose flights the schedule no longer knows gets none rather than a partial sum.
 */
export function flightItemTaxes(order: Order, item: OrderItem, flights: readonly Flight[]): ItemTax[] {
  if (item.kind !== "flight") return [];
  const byKey = new Map(flights.map((f) => [f.key, f]));
  const merged = new Map<string, number>();
  for (const paxId of item.paxIds) {
    const ptc = order.passengers.find((p) => p.paxId === paxId)?.ptc as PaxType | undefined;
    if (!ptc) return [];
    for (const j of order.journeys) {
      if (item.flightKeys && !j.flightKeys.some((k) => item.flightKeys!.includes(k))) continue;
      const segments = j.flightKeys.map((k) => byKey.get(k));
      if (segments.some((s) => !s)) return [];
      for (const line of journeyTaxes(segments as Flight[], j.cabin as CabinCode, ptc)) {
        const amount = convert(line.amount, order.currency as CurrencyCode).amount;
        merged.set(line.code, (merged.get(line.code) ?? 0) + amount);
      }
    }
  }
  return [...merged].map(([code, minor]) => ({ code, minor, name: TAX_NAMES[code] ?? `Tax ${code}` }));
}
