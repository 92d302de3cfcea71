import { spendRetained, type FlightAlternative, type FlightChangeQuote, type FlightChangeTerms, type Order } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import type { WarningView } from "../../shopping/shared/view/common";
import { formatMoney, money, type Money } from "../../shopping/shared/view/money";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";
import { addedFlightsOf, addedItemId, type AddedFlightsView } from "./flight-change-offer";

/** One alternative offered for the direction (OrderReshopRS ReshopOffers/Offer). */
export interface FlightChangeOfferView {
  quoteId: string;
  /** Positive: due from the seller (after the value the order retained, RespendInd); negative: refunded. */
  due: Money;
  descriptions: string[];
  /** The new flights as AddedOfferItems (one per direction changed), with their DataLists entries and price differences (each direction's, before a retained value pays any of the whole change's due). */
  added: AddedFlightsView[];
}

/** OrderReshopRS for a flight change: the change fee, the order, one firm offer per alternative. */
export interface FlightChangeQuoteView {
  orderId: string;
  ownerCode: string;
  version: number;
  statusCode: string;
  expiresAt: string;
  fee: Money;
  /** ChangeFees/DescText when it is not the one band's fee (a change of several directions). */
  feeText?: string;
  penaltyId: string;
  /** The order items the change replaces. */
  orderItemIds: string[];
  offers: FlightChangeOfferView[];
  /** The passengers the added items' services name (PaxList). */
  passengers: { paxId: string; ptc: string }[];
  warnings: WarningView[];
}

/** How the change is allowed, when not simply by the fare (SHPOR1 rule 4): stated on every offer of the quote. */
export function allowedBy(a: FlightChangeQuote["terms"]["allowance"]): string[] {
  if (a.by === "flexibility") return [`The fare does not allow a change; the order's Flexibility service (item ${a.flexibilityItemId}) does: accept with OrderChangeParameters/ReasonCode FLEXIBILITY to spend it.`];
  if (a.by === "override") return [`Override by the airline's staff of ${a.overridden?.ruleCode}: ${a.overridden?.ruleText} Recorded with the change and in the audit trail.`];
  return [];
}

/** The alternative's flights and brand, in English. */
export const flightsText = (a: FlightAlternative) => `Flights: ${a.journey.segments.map((s) => `${s.marketing.carrier.code}${s.marketing.number} ${s.origin}-${s.destination} ${s.departure.local}`).join(", ")}; brand ${a.brandCode}.`;

/** How the alternative's due is made up for its direction (spec 4.5 rule 6; the band's fee). */
export const sumsText = (a: FlightAlternative, t: FlightChangeTerms, f: (minor: number) => string) =>
  `New fare ${f(a.priceMinor)}, priced without promotion adjustments; fare of the replaced direction ${f(t.fareMinor)}; surcharge refunded ${f(t.surchargeRefundMinor)}; discount clawed back ${f(t.discountClawbackMinor)}; change fee ${f(t.feeMinor)} (${t.band.id}, ${t.band.fee} per passenger).`;

export const dueText = (dueMinor: number, f: (minor: number) => string) => (dueMinor >= 0 ? `Due: ${f(dueMinor)}.` : `Refunded: ${f(-dueMinor)}.`);

/**
 * The value retained by an earlier items cancellation (RespendInd) taken off a whole change's due
 * (every direction's together, once), as the acceptance takes it (servicing/flight/saga.ts): what
 * is left due, and the Desc saying how much of the value pays it (none when none does). A change
 * refunded leaves the value as it is; what is not spent stays retained.
 */
export function retainedPaying(order: Order, dueMinor: number, f: (minor: number) => string): { dueMinor: number; texts: string[] } {
  const paid = spendRetained(order, dueMinor);
  return {
    dueMinor: paid.dueMinor,
    texts: paid.spentMinor ? [`Retained value on the order: ${f(order.retained!.amountMinor)}; ${f(paid.spentMinor)} of it pays this change (of ${f(dueMinor)}).`] : [],
  };
}

/** The warning the fare conditions' basis calls for (the conditions frozen at booking, or not). */
export const conditionsWarnings = (t: FlightChangeTerms): WarningView[] =>
  t.basis === "current_policy" ? [{ code: "fare_conditions_current_policy" }] : t.conditionsSource === "supplier" ? [{ code: "fare_conditions_supplier" }] : [];

/** Pure: the domain's quote as the answer shows it, the sums stated in English per offer. */
export function flightChangeQuoteViewOf(order: Order, quote: FlightChangeQuote, orderItemIds: string[], ownerCode: string): FlightChangeQuoteView {
  const m = (minor: number) => money(minor, order.currency, minorUnits(order.currency as CurrencyCode));
  const f = (minor: number) => `${formatMoney(m(minor))} ${order.currency}`;
  const t = quote.terms;
  return {
    orderId: order.orderId,
    ownerCode,
    version: order.version,
    statusCode: ORDER_STATUS_CODES[order.state],
    expiresAt: new Date(quote.expiresAt).toISOString(),
    fee: m(t.feeMinor),
    penaltyId: t.band.id,
    orderItemIds,
    passengers: order.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc })),
    offers: quote.alternatives.map((a, n) => ({ a, n, paid: retainedPaying(order, a.dueMinor, f) })).map(({ a, n, paid }) => ({
      quoteId: a.quoteId,
      due: m(paid.dueMinor),
      added: [addedFlightsOf(order, a, t, addedItemId(n), m)],
      descriptions: [flightsText(a), sumsText(a, t, f), ...allowedBy(t.allowance), ...paid.texts, dueText(paid.dueMinor, f)],
    })),
    warnings: conditionsWarnings(t),
  };
}
