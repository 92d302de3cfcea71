import { GatewayError } from "@ndc/errors";
import { refundPlan, type PaymentLeg } from "@ndc/payments";
import type { OrdersContext } from "../context";
import { isStaff, orderFor, type ServicingActor } from "../servicing/actor";
import { refuseUnlessMove, type Order, type OrderItem } from "../state";
import { CANCEL_QUOTE_TTL_MS, mac, paidOf, sameMac, type CancelQuote } from "./quote";
import { cancelItemsTerms } from "./terms";

/** A firm offer to cancel items of a booked order (OrderReshopRS), accepted by AcceptCancelledOffer/OfferID = quoteId. */
export interface CancelItemsQuote extends CancelQuote {
  items: OrderItem[];
  /** RespendInd true: what would have been refunded (then 0) is retained on the order for a following change, until `retainedUntil`. */
  retainedMinor?: number;
  retainedUntil?: number;
}

/** What an items quote id carries, MAC'd with its order: the commit cancels exactly these items for exactly this refund. */
export interface SignedItems {
  orderId: string;
  version: number;
  refundMinor: number;
  expiresAt: number;
  orderItemIds: string[];
  /** RespendInd true: the amount is retained, not refunded (refundMinor 0). Carried as `r<amount>` in the refund's place. */
  retainedMinor?: number;
}

export const ITEMS_PREFIX = "CIQ";
/** At most this many items per message: their ids ride in the quote id, which OfferID bounds to 128 characters. */
export const MAX_CANCELLED_ITEMS = 12;
const PURPOSE = "ndc-gateway cancel items quote v1";
const ELEMENT = "ChangeOrderChoice/AcceptCancelledOffer/OfferID";

export const isItemsQuote = (quoteId: string) => quoteId.startsWith(`${ITEMS_PREFIX}.`);

/**
 * The quote id: `CIQ.<version>.<refund>.<expiry s>.<items>.<mac>`. An order item id is
 * `<order>-<8 hex>` (ids.orderItem), so the items are their hex suffixes packed as base64url
 * (4 bytes each); the order id is not repeated (the OrderChangeRQ names it) but is MAC'd, so a
 * quote of one order does not cancel another's items. The MAC is the cancel quote's, under its
 * own purpose.
 */
export function signItemsQuote(ctx: Pick<OrdersContext, "fieldKey">, s: SignedItems): string {
  const packed = Buffer.from(s.orderItemIds.map((id) => suffixOf(s.orderId, id)).join(""), "hex").toString("base64url");
  const fields = [s.version, s.retainedMinor !== undefined ? `r${s.retainedMinor}` : s.refundMinor, Math.floor(s.expiresAt / 1000), packed];
  return [ITEMS_PREFIX, ...fields, mac(ctx.fieldKey, [ITEMS_PREFIX, s.orderId, ...fields].join("."), PURPOSE)].join(".");
}

/** The quote id's contents, or cancel_quote_invalid when it was not signed here for `orderId`. */
export function verifyItemsQuote(ctx: Pick<OrdersContext, "fieldKey">, quoteId: string, orderId: string): SignedItems {
  const parts = quoteId.split(".");
  const invalid = () => new GatewayError("cancel_quote_invalid", { element: ELEMENT });
  if (parts.length !== 6 || parts[0] !== ITEMS_PREFIX) throw invalid();
  if (!sameMac(parts[5]!, mac(ctx.fieldKey, [ITEMS_PREFIX, orderId, ...parts.slice(1, 5)].join("."), PURPOSE))) throw invalid();
  const retained = parts[2]!.startsWith("r");
  const [version, amount, expiresS] = [parts[1], retained ? parts[2]!.slice(1) : parts[2], parts[3]].map(Number) as [number, number, number];
  const hex = Buffer.from(parts[4]!, "base64url").toString("hex").toUpperCase();
  const orderItemIds = Array.from({ length: hex.length / 8 }, (_, i) => `${orderId}-${hex.slice(i * 8, i * 8 + 8)}`);
  return { orderId, version, refundMinor: retained ? 0 : amount, ...(retained ? { retainedMinor: amount } : {}), expiresAt: expiresS * 1000, orderItemIds };
}

function suffixOf(orderId: string, orderItemId: string): string {
  const suffix = orderItemId.slice(orderId.length + 1);
  if (!orderItemId.startsWith(`${orderId}-`) || !/^[0-9A-F]{8}$/.test(suffix)) throw new Error(`order item id ${orderItemId} is not one of ${orderId}'s`);
  return suffix;
}

/**
 * OrderReshopRQ ReshopOrder/ServiceOrder/DeleteOrderItem alone: a firm quote to cancel those
 * items of a booked order (cancel/terms.ts cancelItemsTerms). Each must be an item of the
 * order, named once; at most MAX_CANCELLED_ITEMS. The airline's staff are not refused by the
 * fare (the rule is carried as `overridden`).
 */
export async function quoteCancelItems(ctx: OrdersContext, orderId: string, by: ServicingActor, orderItemIds: readonly string[], o: { respend?: boolean } = {}): Promise<{ order: Order; quote: CancelItemsQuote }> {
  const order = orderFor(await ctx.orders.ask(orderId, { op: "get" }), by);
  refuseUnlessMove(order.state, "items_cancelled");
  const at = "Request/UpdateOrder/ReshopOrder/ReshopOrderChoice/ServiceOrder/DeleteOrderItem";
  if (orderItemIds.length === 0 || orderItemIds.length > MAX_CANCELLED_ITEMS) throw new GatewayError("request_invalid", { detail: `Name 1 to ${MAX_CANCELLED_ITEMS} items to cancel.`, element: at });
  if (new Set(orderItemIds).size !== orderItemIds.length) throw new GatewayError("request_invalid", { detail: "An item is named twice.", element: at });
  const items = orderItemIds.map((id) => {
    const item = order.items.find((i) => i.orderItemId === id);
    if (!item) throw new GatewayError("request_invalid", { detail: `Item ${id.slice(0, 64)} is not on the order.`, element: `${at}/OrderItemRefID` });
    return item;
  });
  return { order, quote: cancelItemsQuote(ctx, order, items, await ctx.payments.ledger.legs(orderId), ctx.clock.now(), { airline: isStaff(by), ...o }) };
}

export function cancelItemsQuote(ctx: OrdersContext, order: Order, items: OrderItem[], legs: readonly PaymentLeg[], now: number, o: { airline?: boolean; respend?: boolean } = {}): CancelItemsQuote {
  const paidMinor = paidOf(order, legs);
  const terms = cancelItemsTerms(ctx.supply, order, items, paidMinor, now, o);
  const expiresAt = Math.floor((now + CANCEL_QUOTE_TTL_MS) / 1000) * 1000;
  // RespendInd: the same amount, kept on the order instead of paid back (cancel/retained.ts).
  const kept = o.respend ? { retainedMinor: terms.refundMinor, retainedUntil: terms.departureAsUtcMs } : undefined;
  const refundMinor = kept ? 0 : terms.refundMinor;
  const quoteId = signItemsQuote(ctx, { orderId: order.orderId, version: order.version, refundMinor, ...(kept ? { retainedMinor: kept.retainedMinor } : {}), expiresAt, orderItemIds: items.map((i) => i.orderItemId) });
  return {
    ...terms, refundMinor, ...kept, quoteId, orderId: order.orderId, version: order.version, currency: order.currency, paidMinor, expiresAt, items,
    shares: refundMinor > 0 ? refundPlan(legs, refundMinor, order.currency, order.orderId) : [],
  };
}
