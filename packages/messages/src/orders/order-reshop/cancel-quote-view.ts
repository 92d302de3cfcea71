import { cancelPenaltyId, type CancelItemsQuote, type CancelQuote, type Order, type OrderItem } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import type { WarningView } from "../../shopping/shared/view/common";
import { formatMoney, money, type Money } from "../../shopping/shared/view/money";
import { itemRefundsOf } from "./cancel-refunds";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";

/** OrderReshopRS for UpdateOrder/CancelOrderRef: the cancel offer the seller may accept. */
export interface CancelQuoteView {
  orderId: string;
  ownerCode: string;
  version: number;
  statusCode: string;
  /** AcceptCancelledOffer/OfferID. */
  quoteId: string;
  expiresAt: string;
  refund: Money;
  penalty: Money;
  /** The items that go: every item (CancelOrderRef), or those the request named (DeleteOrderItem). */
  orderItemIds: string[];
  /**
   * RespendInd true: each item's share of the value retained for a following change (same order
   * as orderItemIds), shown as its DeleteOrderItem/PriceDifferential, DifferentialTypeCode Residual.
   */
  residuals?: { old: Money; retained: Money }[];
  /**
   * Otherwise each item's value, the share of the refund it gives back and of the penalty kept
   * from it (same order as orderItemIds; they add up to refund and penalty), shown as its
   * DeleteOrderItem/PriceDifferential, DifferentialTypeCode Refund (cancel-refunds.ts).
   */
  refunds?: { old: Money; refund: Money; fee: Money }[];
  /** English: the terms and where the refund goes, newest leg first. */
  descriptions: string[];
  warnings: WarningView[];
}

/** Pure: the domain's quote and order as the answer shows them. */
export function cancelQuoteViewOf(order: Order, quote: CancelQuote, ownerCode: string): CancelQuoteView {
  const terms = quote.airlineCancelled
    ? `The airline cancelled flight ${quote.airlineCancelled.join(", ")}: the order will not fly as sold, so everything paid is refunded, whatever the fare, no fee.`
    : quote.refundable
    ? `The outbound fare is refundable: everything paid is refunded less the cancellation fee of the time-to-departure band, ${quote.band.fee} ${order.currency} per passenger now (${cancelPenaltyId(quote.band)}).`
    : `The outbound fare is cancellable but not refundable: the flights are not refunded; extras are.`;
  return viewOf(order, quote, ownerCode, order.items, terms);
}

/** Pure: a quote to cancel items (DeleteOrderItem alone): those items, each refunded in full. */
export function cancelItemsQuoteViewOf(order: Order, quote: CancelItemsQuote, ownerCode: string): CancelQuoteView {
  const m = (minor: number) => money(minor, order.currency, minorUnits(order.currency as CurrencyCode));
  const kinds = quote.items.map((i) => i.kind.replace("_", " ")).join(", ");
  const terms =
    quote.retainedMinor !== undefined
      ? `The outbound fare is cancellable: the cancelled extras (${kinds}) are not refunded now (RespendInd): their value, ${formatMoney(m(quote.retainedMinor))} ${order.currency}, is retained on the order and taken off what a following addition or flight change costs, until ${new Date(quote.retainedUntil!).toISOString()} (the first departure); what is not spent by then is refunded to the paid legs, newest first.`
      : `The outbound fare is cancellable: the cancelled extras (${kinds}) are refunded in full, no fee; the rest of the order stays as it is.`;
  // An addition whose capture is pending is voided: its payment released, nothing taken, nothing refunded.
  const voided = (quote.voided ?? []).map((v) => `The payment of ${formatMoney(m(v.amountMinor))} ${order.currency} for change ${v.changeRef} was authorised but not yet taken: it is voided (released), not refunded.`);
  const view = viewOf(order, quote, ownerCode, quote.items, [terms, ...voided].join(" "));
  if (quote.retainedMinor === undefined) return view;
  const { refunds: _, ...kept } = view;
  return { ...kept, residuals: residualsOf(quote, quote.retainedMinor).map(([old, retained]) => ({ old: m(old), retained: m(retained) })) };
}

/** Each item's share of the retained value, item by item up to its own value, so the shares add up to it exactly. */
function residualsOf(quote: CancelItemsQuote, retainedMinor: number): [number, number][] {
  let left = retainedMinor;
  return quote.items.map((i) => {
    const kept = Math.min(left, i.totalMinor);
    left -= kept;
    return [i.totalMinor, kept];
  });
}

function viewOf(order: Order, quote: CancelQuote, ownerCode: string, items: OrderItem[], terms: string): CancelQuoteView {
  const m = (minor: number) => money(minor, order.currency, minorUnits(order.currency as CurrencyCode));
  return {
    orderId: order.orderId,
    ownerCode,
    version: order.version,
    statusCode: ORDER_STATUS_CODES[order.state],
    quoteId: quote.quoteId,
    expiresAt: new Date(quote.expiresAt).toISOString(),
    refund: m(quote.refundMinor),
    penalty: m(quote.penaltyMinor),
    orderItemIds: items.map((i) => i.orderItemId),
    refunds: itemRefundsOf(items, quote.refundMinor, quote.penaltyMinor).map((r) => ({ old: m(r.oldMinor), refund: m(r.refundMinor), fee: m(r.feeMinor) })),
    descriptions: [
      terms,
      `Refund ${quote.refundMinor === 0 ? "nothing" : "to every paid leg, newest first"}; accept with OrderChangeRQ ChangeOrderChoice/AcceptCancelledOffer before the expiry.`,
      ...quote.shares.map((s, i) => `Refund ${i + 1}: ${formatMoney(m(s.amount))} ${order.currency} to payment ${s.legId}.`),
    ],
    // The rules path's warnings (order-rules/view-of.ts): an order not frozen at booking first.
    warnings: quote.basis === "current_policy" ? [{ code: "fare_conditions_current_policy" }] : quote.conditionsSource === "supplier" ? [{ code: "fare_conditions_supplier" }] : [],
  };
}
