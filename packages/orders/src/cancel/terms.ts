import { GatewayError } from "@ndc/errors";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { conditionsFor, type Supply } from "@ndc/supply";
import type { Order } from "../state";

/** The engine's servicing fee by time to departure (spec 4.7 SHPOR1 rule 5): bare integers, the same number in every currency. */
export const FEE_BANDS: readonly { fromHours: number; fee: number }[] = [
  { fromHours: 72, fee: 25 },
  { fromHours: 24, fee: 50 },
  { fromHours: 0, fee: 75 },
];

/** The band of `hours` before departure: at 72 h exactly the 72 h band, at 24 h exactly the 24 h band. */
export function bandFee(hours: number): number {
  return FEE_BANDS.find((b) => hours >= b.fromHours)?.fee ?? FEE_BANDS[FEE_BANDS.length - 1]!.fee;
}

export interface CancelTerms {
  refundable: boolean;
  /** `supplier` when the brand policy could not be read (warning fare_conditions_supplier). */
  conditionsSource: "brand" | "supplier";
  /** Minor units given back, and kept (the penalty). */
  refundMinor: number;
  penaltyMinor: number;
  /** The first flight's departure (UTC), the fee band's reference. */
  departureUtcMs: number;
}

/**
 * What cancelling the whole order gives back (spec 4.7 SHPOR1 rule 2: refundability from the
 * outbound direction only). Outbound not cancellable: fare_not_cancellable. Refundable: all
 * that was paid, less the engine's fee of the time-to-departure band (in the currency's major
 * unit: 25 EUR, 25 JPY). Cancellable but not refundable: the flights and bundles are kept,
 * extras (seats, services, rides, partner products) are given back, no fee. Never more than
 * was paid and not yet refunded. Departure read as UTC (the schedule's departureUtcMs).
 */
export function cancelTerms(supply: Supply, order: Order, paidMinor: number, now: number): CancelTerms {
  const outbound = order.journeys[0];
  if (!outbound) throw new GatewayError("order_state_invalid", { detail: "The order has no flight to cancel." });
  const c = conditionsFor(outbound.brandCode);
  if (!c.conditions.cancellable) throw new GatewayError("fare_not_cancellable", { detail: `Brand ${outbound.brandCode}.` });
  const departureUtcMs = Math.min(...order.journeys.flatMap((j) => j.flightKeys).map((k) => supply.flight(k)?.departureUtcMs ?? Number.POSITIVE_INFINITY));
  if (departureUtcMs <= now) throw new GatewayError("order_state_invalid", { detail: "The first flight has departed." });
  let refundMinor: number;
  if (c.conditions.refundable) {
    const fee = bandFee((departureUtcMs - now) / 3_600_000) * 10 ** minorUnits(order.currency as CurrencyCode);
    refundMinor = Math.max(0, paidMinor - fee);
  } else {
    const extras = order.items.filter((i) => i.kind !== "flight" && i.kind !== "bundle").reduce((sum, i) => sum + i.totalMinor, 0);
    refundMinor = Math.min(paidMinor, extras);
  }
  return { refundable: c.conditions.refundable, conditionsSource: c.source, refundMinor, penaltyMinor: paidMinor - refundMinor, departureUtcMs };
}
