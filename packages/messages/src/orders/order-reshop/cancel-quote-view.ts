import type { CancelQuote, Order } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import type { WarningView } from "../../shopping/shared/view/common";
import { formatMoney, money, type Money } from "../../shopping/shared/view/money";
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
  /** Every order item goes (24.4 cancels the whole order). */
  orderItemIds: string[];
  /** English: the terms and where the refund goes, newest leg first. */
  descriptions: string[];
  warnings: WarningView[];
}

/** Pure: the domain's quote and order as the answer shows them. */
export function cancelQuoteViewOf(order: Order, quote: CancelQuote, ownerCode: string): CancelQuoteView {
  const m = (minor: number) => money(minor, order.currency, minorUnits(order.currency as CurrencyCode));
  const terms = quote.refundable
    ? `The outbound fare is refundable: everything paid is refunded less the cancellation fee of the time-to-departure band.`
    : `The outbound fare is cancellable but not refundable: the flights are not refunded; extras are.`;
  return {
    orderId: order.orderId,
    ownerCode,
    version: order.version,
    statusCode: ORDER_STATUS_CODES[order.state],
    quoteId: quote.quoteId,
    expiresAt: new Date(quote.expiresAt).toISOString(),
    refund: m(quote.refundMinor),
    penalty: m(quote.penaltyMinor),
    orderItemIds: order.items.map((i) => i.orderItemId),
    descriptions: [
      terms,
      `Refund ${quote.refundMinor === 0 ? "nothing" : "to every paid leg, newest first"}; accept with OrderChangeRQ ChangeOrderChoice/AcceptCancelledOffer before the expiry.`,
      ...quote.shares.map((s, i) => `Refund ${i + 1}: ${formatMoney(m(s.amount))} ${order.currency} to payment ${s.legId}.`),
    ],
    warnings: quote.conditionsSource === "supplier" ? [{ code: "fare_conditions_supplier" }] : [],
  };
}
