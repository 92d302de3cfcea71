import { createHmac } from "node:crypto";
import { money, type CurrencyCode } from "@ndc/money";
import { chargeCommission } from "@ndc/payments";
import type { ALaCartePayload, StoredOfferItem } from "@ndc/shopping";
import type { OrdersContext } from "../../context";
import { refuseUnlessMove, type OrderItem } from "../../state";
import { orderFor } from "../actor";
import type { AddInput } from "./input";
import { resolveAdded } from "./resolve";
import { spendRetained } from "../../cancel/retained";

/** How long a quote is firm (issue 9 item 9): long enough to take the customer's payment. */
export const QUOTE_TTL_MS = 15 * 60_000;
export const QUOTE_PREFIX = "QTE-";

/** A firm quote is stored as an a-la-carte offer of the order's own, its items priced for the passengers and quantities quoted. */
export type QuotePayload = ALaCartePayload & { firm: true };

export interface Quote {
  quoteId: string;
  orderId: string;
  currency: string;
  expiresAt: number;
  items: OrderItem[];
  chargeMinor: number;
  /** Of chargeMinor, what the value the order retains (RespendInd) would pay now (cancel/retained.ts); taken at acceptance from what is retained then. */
  retainedSpentMinor?: number;
}

export const isQuotePayload = (p: unknown): p is QuotePayload => (p as { firm?: unknown }).firm === true;

/**
 * OrderQuoteRQ (issue 9 item 9): prices a post-sale change of a booked order (extras, or one
 * seat) into a firm quote with an expiry, stored as an offer of the order's own (`QTE-…`) that
 * OrderChangeRQ accepts by reference (AcceptSelectedQuotedOfferList naming it). Everything a
 * change would refuse before it takes anything is refused here too (the order not booked, an
 * item that is not sold post-sale, a commission agreement with no rule for the charge). A quote
 * holds nothing: a seat quoted may be sold before it is accepted (seat_unavailable then). Past
 * its expiry it is offer_expired; once accepted it is spent (quote_already_used).
 */
export async function quoteAdd(ctx: OrdersContext, input: Omit<AddInput, "payment">): Promise<Quote> {
  const order = orderFor(await ctx.orders.ask(input.orderId, { op: "get" }), input.by);
  refuseUnlessMove(order.state, "items_added");
  const quoteId = quoteIdOf(ctx, input, order.version);
  const r = await resolveAdded(ctx, order, { ...input, payment: [] }, quoteId);
  if (input.commissionAgreement && r.chargeMinor > 0) chargeCommission(input.commissionAgreement, money(r.chargeMinor, order.currency as CurrencyCode));
  const now = ctx.clock.now();
  const expiresAt = now + QUOTE_TTL_MS;
  const items: StoredOfferItem[] = r.items.map((i) => ({
    offerItemId: i.offerItemId,
    kind: i.kind,
    paxIds: i.paxIds,
    totalMinor: i.totalMinor,
    ...(i.ref ? { ref: i.ref } : {}),
    ...(i.flightKeys ? { flightKeys: i.flightKeys } : {}),
    ...(i.qty ? { qty: i.qty } : {}),
  }));
  const payload: QuotePayload = { kind: "a_la_carte", currency: order.currency, language: "en", flightOfferId: order.orderId, items, firm: true };
  await ctx.offers.save([{ offerId: quoteId, source: "order_quote", owner: input.offerOwner, createdAt: now, expiresAt, payload }]);
  const { spentMinor } = spendRetained(order, r.chargeMinor);
  return { quoteId, orderId: order.orderId, currency: order.currency, expiresAt, items: r.items, chargeMinor: r.chargeMinor, ...(spentMinor ? { retainedSpentMinor: spentMinor } : {}) };
}

/**
 * A firm quote's id: keyed with the field key, so nobody can guess another's, and derived from
 * what was asked (seller, order and its version, CorrelationID, TrxID, the items picked, time),
 * so a run on a fixed clock and key (the docs' example chain) replays exactly. The same request at
 * the same instant names the same quote, saved again with the same content.
 */
function quoteIdOf(ctx: OrdersContext, input: Omit<AddInput, "payment">, version: number): string {
  const what = [input.offerOwner.clientId, input.orderId, version, input.correlationId, input.trxId, JSON.stringify(input.selections), ctx.clock.now()].join("|");
  return `${QUOTE_PREFIX}${createHmac("sha256", ctx.fieldKey.key).update(`order-quote|${what}`).digest("hex").toUpperCase().slice(0, 24)}`;
}
