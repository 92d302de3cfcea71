import { createHmac, timingSafeEqual } from "node:crypto";
import { GatewayError } from "@ndc/errors";
import { refundPlan, type PaymentLeg, type RefundShare } from "@ndc/payments";
import type { FieldKey } from "@ndc/pii";
import type { OrdersContext } from "../context";
import { isStaff, orderFor, type ServicingActor } from "../servicing/actor";
import { refuseUnlessMove, type ItemsCancellation, type Order } from "../state";
import { cancelTerms, type CancelTerms } from "./terms";

/** How long a cancel quote is firm. */
export const CANCEL_QUOTE_TTL_MS = 15 * 60_000;

/** A firm offer to cancel the whole order (OrderReshopRS), accepted by AcceptCancelledOffer/OfferID = quoteId. */
export interface CancelQuote extends CancelTerms {
  quoteId: string;
  orderId: string;
  /** The order version it was given for: any change since makes it stale. */
  version: number;
  currency: string;
  /** Captured and not yet refunded, over every leg. */
  paidMinor: number;
  expiresAt: number;
  /** Where the refund goes: every captured leg, newest first. */
  shares: RefundShare[];
}

/** What the quote id carries, MAC'd: the commit pays exactly this, so a forged or altered id is refused. */
interface Signed {
  orderId: string;
  version: number;
  refundMinor: number;
  penaltyMinor: number;
  expiresAt: number;
}

const PREFIX = "CXQ";

/**
 * The quote id: `CXQ.<order>.<version>.<refund>.<penalty>.<expiry s>.<mac>`, the MAC an
 * HMAC-SHA256 (truncated to 128 bits) under a key derived from the field key, so only this
 * gateway issues them and nothing about the quote needs storing.
 */
export function signQuote(key: FieldKey, s: Signed): string {
  const body = [PREFIX, s.orderId, s.version, s.refundMinor, s.penaltyMinor, Math.floor(s.expiresAt / 1000)].join(".");
  return `${body}.${mac(key, body)}`;
}

/** The quote id's contents, or cancel_quote_invalid when it was not signed here for `orderId`. */
export function verifyQuote(key: FieldKey, quoteId: string, orderId: string): Signed {
  const parts = quoteId.split(".");
  const invalid = () => new GatewayError("cancel_quote_invalid", { element: "ChangeOrderChoice/AcceptCancelledOffer/OfferID" });
  if (parts.length !== 7 || parts[0] !== PREFIX) throw invalid();
  const body = parts.slice(0, 6).join(".");
  if (!sameMac(parts[6]!, mac(key, body)) || parts[1] !== orderId) throw invalid();
  const [version, refundMinor, penaltyMinor, expiresS] = parts.slice(2, 6).map(Number) as [number, number, number, number];
  return { orderId, version, refundMinor, penaltyMinor, expiresAt: expiresS * 1000 };
}

/**
 * Whether a quote id's MAC is the one computed, compared as text in constant time. Not as
 * decoded bytes: base64url's last character carries spare bits, so several texts decode to the
 * same bytes, and an altered id must never pass.
 */
export function sameMac(given: string, want: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(want);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The MAC of a quote id's body, under a key derived from the field key for `purpose` (one per kind of signed quote). */
export function mac(key: FieldKey, body: string, purpose = "ndc-gateway cancel quote v1"): string {
  const k = createHmac("sha256", key.key).update(purpose).digest();
  return createHmac("sha256", k).update(body).digest().subarray(0, 16).toString("base64url");
}

/**
 * OrderReshopRQ UpdateOrder/CancelOrderRef: a booked order of the seller's (any order for the
 * airline's staff), its refund by the outbound direction's terms. A staff quote of a fare a
 * seller could not cancel carries the rule overridden (`overridden`); the commit records it.
 */
export async function quoteCancel(ctx: OrdersContext, orderId: string, by: ServicingActor): Promise<{ order: Order; quote: CancelQuote }> {
  const order = orderFor(await ctx.orders.ask(orderId, { op: "get" }), by);
  refuseUnlessMove(order.state, "cancelled");
  const now = ctx.clock.now();
  return { order, quote: cancelQuote(ctx, order, await ctx.payments.ledger.legs(orderId), now, { airline: isStaff(by) }) };
}

/**
 * Captured and not yet refunded, over every leg, less the refunds of items cancellations
 * committed but not yet paid back (cancel/items-saga.ts): those are promised already.
 */
export function paidOf(order: Order, legs: readonly PaymentLeg[]): number {
  const captured = legs.reduce((sum, l) => sum + (l.state === "captured" || l.state === "refunded" ? l.captured - l.refunded : 0), 0);
  return Math.max(0, captured - refundsPending(order).reduce((sum, c) => sum + c.refundMinor, 0));
}

/** Items cancellations committed whose refund is not recorded yet (its `refunded` history entry names the change). */
export function refundsPending(order: Order): ItemsCancellation[] {
  const paidBack = new Set(order.history.filter((h) => h.kind === "refunded").flatMap((h) => h.changed.filter((c) => c.startsWith("change:")).map((c) => c.slice(7))));
  return (order.itemCancellations ?? []).filter((c) => c.refundMinor > 0 && !paidBack.has(c.changeRef));
}

export function cancelQuote(ctx: OrdersContext, order: Order, legs: readonly PaymentLeg[], now: number, o: { airline?: boolean } = {}): CancelQuote {
  const paidMinor = paidOf(order, legs);
  const terms = cancelTerms(ctx.supply, order, paidMinor, now, o);
  // Firm to the second the id carries, so the stated expiry and the checked one are the same.
  const expiresAt = Math.floor((now + CANCEL_QUOTE_TTL_MS) / 1000) * 1000;
  const signed: Signed = { orderId: order.orderId, version: order.version, refundMinor: terms.refundMinor, penaltyMinor: terms.penaltyMinor, expiresAt };
  return {
    ...terms,
    quoteId: signQuote(ctx.fieldKey, signed),
    orderId: order.orderId,
    version: order.version,
    currency: order.currency,
    paidMinor,
    expiresAt,
    shares: terms.refundMinor > 0 ? refundPlan(legs, terms.refundMinor, order.currency, order.orderId) : [],
  };
}
