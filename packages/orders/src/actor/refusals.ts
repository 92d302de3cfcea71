import { GatewayError } from "@ndc/errors";
import { refuseIfFlightCancelled } from "../operations/schedule-change";
import { refuseUnlessMove, type Order } from "../state";

/**
 * The actor's refusals that a saga also asks before it takes anything (a hold, a payment): the
 * actor decides with them at the commit, so no change slips in between a check and the write,
 * and the saga's early answer is the one the actor would give.
 */

/** A cancel quote (the whole order's or items') is given for one version of the order: any change since makes it stale. */
export function refuseIfStale(order: Pick<Order, "version">, quotedVersion: number | undefined): void {
  if (quotedVersion !== undefined && order.version !== quotedVersion) throw new GatewayError("cancel_quote_stale");
}

/** A held order is paid (OrderChangeRQ) within its payment time limit, and not while one of its flights is cancelled by the airline. */
export function refuseUnlessPayable(order: Order, now: number): void {
  refuseUnlessMove(order.state, "payment_authorised");
  if (order.paymentTimeLimit !== undefined && now >= order.paymentTimeLimit) throw new GatewayError("payment_time_limit_passed");
  refuseIfFlightCancelled(order);
}
