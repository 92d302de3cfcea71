import { toDecimalString } from "@ndc/money";
import { retainedOf, spendRetained, type CancelQuote, type CommitMade, type FlightChangeQuote, type Order, type Quote } from "@ndc/orders";

/**
 * The staff API's JSON of a servicing quote and of its acceptance (docs/staff-api.md): amounts as
 * decimal strings in the order's currency, times as ISO 8601, the rule the airline overrides
 * (`override`, null when the fare allows it) and how the change is allowed, so the page and a
 * script show the same terms before anyone accepts.
 */

export const amountOf = (minor: number, currency: string) => toDecimalString({ amount: minor, currency: currency as never });
const iso = (ms: number) => new Date(ms).toISOString();

export function cancelQuoteView(q: CancelQuote & { items?: Order["items"] }) {
  const cur = q.currency;
  return {
    kind: q.items ? ("cancel_items" as const) : ("cancel" as const),
    quoteId: q.quoteId,
    orderId: q.orderId,
    version: q.version,
    currency: cur,
    expiresAt: iso(q.expiresAt),
    refundable: q.refundable,
    basis: q.basis,
    band: q.band.id,
    paid: { amount: amountOf(q.paidMinor, cur), currency: cur },
    refund: { amount: amountOf(q.refundMinor, cur), currency: cur },
    penalty: { amount: amountOf(q.penaltyMinor, cur), currency: cur },
    refundTo: q.shares.map((s) => ({ legId: s.legId, amount: amountOf(s.amount, cur) })),
    ...(q.items ? { items: q.items.map((i) => ({ orderItemId: i.orderItemId, kind: i.kind, paxIds: i.paxIds, price: amountOf(i.totalMinor, cur) })) } : {}),
    override: q.overridden ? { ruleCode: q.overridden.ruleCode, ruleText: q.overridden.ruleText } : null,
  };
}
export type CancelQuoteView = ReturnType<typeof cancelQuoteView>;

/** `order`: its retained value (RespendInd) pays first, so the card pays `toPay`, the due less it (cancel/retained.ts). */
export function flightQuoteView(currency: string, q: FlightChangeQuote, order: Pick<Order, "retained"> = {}) {
  const a = q.terms.allowance;
  return {
    kind: "change" as const,
    currency,
    expiresAt: iso(q.expiresAt),
    direction: { paxJourneyId: q.terms.direction.paxJourneyId, flightKeys: q.terms.direction.flightKeys, brandCode: q.terms.direction.brandCode },
    band: q.terms.band.id,
    fee: { amount: amountOf(q.terms.feeMinor, currency), currency },
    paid: { amount: amountOf(q.terms.paidMinor, currency), currency },
    retained: { amount: amountOf(retainedOf(order), currency), currency },
    allowance: {
      by: a.by,
      ...(a.flexibilityItemId ? { flexibilityItemId: a.flexibilityItemId } : {}),
      override: a.overridden ? { ruleCode: a.overridden.ruleCode, ruleText: a.overridden.ruleText } : null,
    },
    alternatives: q.alternatives.map((alt) => ({
      quoteId: alt.quoteId,
      brandCode: alt.brandCode,
      flights: alt.journey.segments.map((s) => ({ key: s.key, origin: s.origin, destination: s.destination, departureLocal: s.departure.local, arrivalLocal: s.arrival.local })),
      price: { amount: amountOf(alt.priceMinor, currency), currency },
      // > 0: charged to the card given; < 0: refunded to the legs that paid; 0: nothing moves.
      due: { amount: amountOf(alt.dueMinor, currency), currency },
      // What the card given pays: the due less the value the order retains, down to zero.
      toPay: { amount: amountOf(Math.max(0, spendRetained(order, alt.dueMinor).dueMinor), currency), currency },
    })),
  };
}
export type FlightQuoteView = ReturnType<typeof flightQuoteView>;

export function addQuoteView(q: Quote) {
  const cur = q.currency;
  return {
    kind: "add" as const,
    quoteId: q.quoteId,
    orderId: q.orderId,
    currency: cur,
    expiresAt: iso(q.expiresAt),
    items: q.items.map((i) => ({ offerItemId: i.offerItemId, kind: i.kind, paxIds: i.paxIds, ...(i.ref ? { ref: i.ref } : {}), ...(i.flightKeys ? { flightKeys: i.flightKeys } : {}), ...(i.qty ? { qty: i.qty } : {}), price: amountOf(i.totalMinor, cur) })),
    charge: { amount: amountOf(q.chargeMinor, cur), currency: cur },
    // Additions are not judged by the fare (spec 4.7, ORDRE2): there is nothing to override.
    override: null,
  };
}
export type AddQuoteView = ReturnType<typeof addQuoteView>;

/** The order after an acceptance, and what the commit recorded (absent: an earlier call made it). */
export function servicedView(o: Order, made?: CommitMade) {
  // The change the staff made (a cancellation's refund entry follows it and names no one).
  const last = [...o.history].reverse().find((h) => h.staffId) ?? o.history[o.history.length - 1];
  return {
    orderId: o.orderId,
    state: o.state,
    version: o.version,
    total: { amount: amountOf(o.totalMinor, o.currency), currency: o.currency },
    ...(made
      ? {
          operationId: made.operationId,
          allowedBy: made.allowedBy,
          override: made.override ? { ruleCode: made.override.ruleCode, ruleText: made.override.ruleText } : null,
          ...(made.flexibilityItemId ? { flexibilityItemId: made.flexibilityItemId } : {}),
        }
      : { repeated: true }),
    ...(last ? { change: { version: last.version, kind: last.kind, changed: last.changed, ...(last.staffId ? { staffId: last.staffId } : {}) } } : {}),
  };
}
