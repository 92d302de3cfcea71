import { GatewayError } from "@ndc/errors";
import type { Supply } from "@ndc/supply";
import { bandAt, bandFeeMinor, departureReadAsUtc, outboundDepartureAsUtc, type FeeBand } from "@ndc/supply";
import { conditionsOfOrder, type DirectionConditions } from "../conditions/frozen";
import type { Allowance } from "../conditions/flexibility";
import { cancelledFlightKeys, flyingFlightKeys } from "../operations/schedule-change";
import type { Order, OrderItem, PendingCharge } from "../state";
import { chargesVoidedBy } from "./pending-charges";
import { retainedOf } from "./retained";

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
  /** The fare rule the airline's staff overrode to cancel (SHPOR1 rule 4): a seller would have been refused with it. */
  overridden?: NonNullable<Allowance["overridden"]>;
  /**
   * The airline cancelled these flights of the order (awaiting re-accommodation): the order will
   * not fly as sold, so cancelling it gives back everything paid, whatever the fare, no fee.
   */
  airlineCancelled?: string[];
  /** Of `refundMinor`, the value retained on the order (RespendInd), given back whole (cancel/retained.ts). */
  retainedMinor?: number;
  /** Items cancelled: the post-sale changes among them whose capture is pending, voided instead of refunded (cancel/pending-charges.ts). */
  voided?: PendingCharge[];
}

/** What a cancellation, of the order or of items of it, is judged by: the outbound direction's frozen conditions and the band now. */
type Cancellation = Omit<CancelTerms, "refundMinor" | "penaltyMinor"> & { conditions: DirectionConditions };

/**
 * Whether the order may be cancelled now, whole or in part: under the conditions frozen onto the
 * order at booking (spec 4.7 SHPOR1 rule 1; an order that could not be frozen, the current
 * policy, marked `basis: "current_policy"`) and from the outbound direction only (rule 2).
 * Outbound not cancellable: fare_not_cancellable, except for the airline's own staff
 * (`airline`), who are never refused by the fare (rule 4): the rule is returned as `overridden`
 * for the caller to record. At or past the outbound's departure (read as UTC): closed for all.
 */
function cancellation(supply: Supply, order: Order, now: number, airline: boolean): Cancellation {
  const outbound = order.journeys[0];
  if (!outbound) throw new GatewayError("order_state_invalid", { detail: "The order has no flight to cancel." });
  const { conditions, basis } = conditionsOfOrder(order);
  const c = conditions.directions.find((d) => d.paxJourneyId === outbound.paxJourneyId) ?? conditions.directions[0];
  if (!c) throw new GatewayError("order_state_invalid", { detail: "The order has no fare conditions." });
  const departureAsUtcMs = outboundDepartureAsUtc((k) => supply.flight(k), order.journeys);
  const at = departureAsUtcMs === undefined ? undefined : bandAt(conditions.changeFeeBands, departureAsUtcMs, now);
  const common = { conditions: c, refundable: c.refundable, conditionsSource: c.source, basis, departureAsUtcMs: departureAsUtcMs! };
  const airlineCancelled = [...cancelledFlightKeys(order)];
  if (airlineCancelled.length > 0 && departureAsUtcMs !== undefined) {
    // The airline's cancellation, not the customer's: no fare rule refuses it, and the cancelled
    // flight's departure time passing closes nothing (it never leaves). Once a flight of the order
    // has flown, part of the trip was travelled: judged as any cancellation (closed after departure).
    if (!hasFlown(supply, order, now)) return { ...common, band: at && !at.departed ? at.band : conditions.changeFeeBands.at(-1)!, airlineCancelled };
  }
  const refusal = `Brand ${outbound.brandCode}.`;
  if (!c.cancellable && !airline) throw new GatewayError("fare_not_cancellable", { detail: refusal });
  if (!at || at.departed) throw new GatewayError("order_state_invalid", { detail: "The first flight has departed." });
  return {
    ...common, band: at.band,
    ...(c.cancellable ? {} : { overridden: { ruleCode: "fare_not_cancellable", ruleText: `Brand ${outbound.brandCode} does not allow cancellation.` } }),
  };
}

/** Whether any flight the order still flies has departed (recorded flown, or its departure read as UTC passed). */
function hasFlown(supply: Supply, order: Order, now: number): boolean {
  if ((order.flown ?? []).length > 0) return true;
  return flyingFlightKeys(order).some((k) => {
    const f = supply.flight(k);
    return f !== undefined && departureReadAsUtc(f.departure.local) <= now;
  });
}

/** Extras: what a cancellation of a cancellable, non-refundable fare gives back, and what can be cancelled alone. */
export const isExtra = (i: OrderItem) => i.kind !== "flight" && i.kind !== "bundle";

/**
 * What cancelling the whole order gives back (see `cancellation` for when it may be).
 * Refundable: all that was paid, less the engine's fee of the time-to-departure band
 * (fee-bands.ts: the same table and departure reading as OrderRulesRS and OrderViewRS) for each
 * passenger. Cancellable but not refundable (or not cancellable, overridden by staff): the
 * flights and bundles are kept, extras (seats, services, rides, partner products) are given
 * back, no fee. A flight the airline cancelled (not yet flown past): everything paid comes back,
 * no fee, whatever the fare (issue 19 item 2). Never more than was paid and not yet refunded.
 */
export function cancelTerms(supply: Supply, order: Order, paidAllMinor: number, now: number, o: { airline?: boolean } = {}): CancelTerms {
  const { conditions: _c, ...judged } = cancellation(supply, order, now, o.airline ?? false);
  // A value retained by an items cancellation (RespendInd) is the customer's: given back whole,
  // beside what the fare gives back of the rest, never charged a fee.
  const retainedMinor = Math.min(paidAllMinor, retainedOf(order));
  const paidMinor = paidAllMinor - retainedMinor;
  let refundMinor: number;
  if (judged.airlineCancelled) {
    refundMinor = paidMinor;
  } else if (judged.refundable && !judged.overridden) {
    const fee = bandFeeMinor(judged.band, order.currency) * Math.max(1, order.passengers.length);
    refundMinor = Math.max(0, paidMinor - fee);
  } else {
    refundMinor = Math.min(paidMinor, order.items.filter(isExtra).reduce((sum, i) => sum + i.totalMinor, 0));
  }
  return { ...judged, refundMinor: refundMinor + retainedMinor, penaltyMinor: paidMinor - refundMinor, ...(retainedMinor ? { retainedMinor } : {}) };
}

/**
 * What cancelling some items of a booked order gives back (issue 9 item 4). Only extras are
 * cancelled alone (seats, services, rides, partner products): the flights and bundles are the
 * fare, cancelled with the whole order (CancelOrderRef) or replaced by a flight change, and
 * refused here with cancel_items_not_supported. When the order may be cancelled at all
 * (`cancellation`), each extra's amount comes back in full, no fee: the same share a
 * cancellation of the whole order gives back for it under either fare (a refundable fare's fee
 * is per passenger, kept only when the passenger's flights go). An item whose post-sale change
 * is not yet captured is voided, not refunded (`voided`). Never more than was paid and not
 * yet refunded.
 */
export function cancelItemsTerms(supply: Supply, order: Order, items: readonly OrderItem[], paidMinor: number, now: number, o: { airline?: boolean } = {}): CancelTerms {
  const fare = items.find((i) => !isExtra(i));
  if (fare) {
    throw new GatewayError("cancel_items_not_supported", {
      detail: `Item ${fare.orderItemId} is the order's ${fare.kind}: flights and bundles are cancelled with the whole order (CancelOrderRef) or replaced by a flight change.`,
      element: "Request/UpdateOrder/ReshopOrder/ReshopOrderChoice/ServiceOrder/DeleteOrderItem/OrderItemRefID",
    });
  }
  const { conditions: _c, ...judged } = cancellation(supply, order, now, o.airline ?? false);
  const voided = chargesVoidedBy(order, items);
  const notTaken = voided.reduce((sum, v) => sum + v.amountMinor, 0);
  // The retained value is promised already (to a following change, or back at its lapse).
  const refundMinor = Math.max(0, Math.min(paidMinor - retainedOf(order), items.reduce((sum, i) => sum + i.totalMinor, 0) - notTaken));
  return { ...judged, refundMinor, penaltyMinor: 0, ...(voided.length ? { voided } : {}) };
}
