import { GatewayError } from "@ndc/errors";
import type { Supply } from "@ndc/supply";
import { bandAt, bandFeeMinor, outboundDepartureAsUtc, type FeeBand } from "../conditions/fee-bands";
import { conditionsOfOrder } from "../conditions/frozen";
import type { Order } from "../state";

export interface CancelTerms {
  refundable: boolean;
  /** `supplier` when the outbound's conditions are the supplier's (warning fare_conditions_supplier). */
  conditionsSource: "brand" | "supplier";
  /** frozen: the order's own conditions; current_policy: booked before freezing (warning fare_conditions_current_policy). */
  basis: "frozen" | "current_policy";
  /** The fee band the cancellation falls in; its fee is kept per passenger when the outbound fare is refundable. */
  band: FeeBand;
  /** Minor units given back, and kept (the penalty). */
  refundMinor: number;
  penaltyMinor: number;
  /** The outbound's first departure read as UTC (conditions/fee-bands.ts), the fee band's reference. */
  departureAsUtcMs: number;
}

/**
 * What cancelling the whole order gives back, under the conditions frozen onto the order at
 * booking (spec 4.7 SHPOR1 rule 1; an order that could not be frozen, the current policy, marked
 * `basis: "current_policy"`) and from the outbound direction only (rule 2). Outbound not
 * cancellable: fare_not_cancellable. Refundable: all that was paid, less the engine's fee of the
 * time-to-departure band (fee-bands.ts: the same table and departure reading as OrderRulesRS and
 * OrderViewRS) for each passenger. Cancellable but not refundable: the flights and bundles are
 * kept, extras (seats, services, rides, partner products) are given back, no fee. Never more than
 * was paid and not yet refunded.
 */
export function cancelTerms(supply: Supply, order: Order, paidMinor: number, now: number): CancelTerms {
  const outbound = order.journeys[0];
  if (!outbound) throw new GatewayError("order_state_invalid", { detail: "The order has no flight to cancel." });
  const { conditions, basis } = conditionsOfOrder(order);
  const c = conditions.directions.find((d) => d.paxJourneyId === outbound.paxJourneyId) ?? conditions.directions[0];
  if (!c?.cancellable) throw new GatewayError("fare_not_cancellable", { detail: `Brand ${outbound.brandCode}.` });
  const departureAsUtcMs = outboundDepartureAsUtc((k) => supply.flight(k), order.journeys);
  const at = departureAsUtcMs === undefined ? undefined : bandAt(conditions.changeFeeBands, departureAsUtcMs, now);
  if (!at || at.departed) throw new GatewayError("order_state_invalid", { detail: "The first flight has departed." });
  let refundMinor: number;
  if (c.refundable) {
    const fee = bandFeeMinor(at.band, order.currency) * Math.max(1, order.passengers.length);
    refundMinor = Math.max(0, paidMinor - fee);
  } else {
    const extras = order.items.filter((i) => i.kind !== "flight" && i.kind !== "bundle").reduce((sum, i) => sum + i.totalMinor, 0);
    refundMinor = Math.min(paidMinor, extras);
  }
  return { refundable: c.refundable, conditionsSource: c.source, basis, band: at.band, refundMinor, penaltyMinor: paidMinor - refundMinor, departureAsUtcMs: departureAsUtcMs! };
}
