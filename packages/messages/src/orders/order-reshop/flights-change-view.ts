import type { FlightsChangeQuote, Order } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { formatMoney, money } from "../../shopping/shared/view/money";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";
import { addedFlightsOf, addedItemId } from "./flight-change-offer";
import { allowedBy, conditionsWarnings, dueText, flightsText, retainedPaying, sumsText, type FlightChangeQuoteView } from "./flight-change-view";

/**
 * Pure: a change of several directions as OrderReshopRS shows it, in the one-direction answer's
 * shape (encode-flight-change.ts): ChangeFees the directions' fees summed (PenaltyID their bands),
 * one Offer per combination, its text naming each direction's flights and sums, then the one
 * amount due or refunded for the whole change (a value the order retained, RespendInd, taken off
 * it once: retainedPaying).
 */
export function flightsChangeQuoteViewOf(order: Order, quote: FlightsChangeQuote, orderItemIds: string[], ownerCode: string): FlightChangeQuoteView {
  const m = (minor: number) => money(minor, order.currency, minorUnits(order.currency as CurrencyCode));
  const f = (minor: number) => `${formatMoney(m(minor))} ${order.currency}`;
  const label = (i: number) => `Direction ${order.journeys.indexOf(quote.terms[i]!.direction) + 1}`;
  const bands = [...new Set(quote.terms.map((t) => t.band.id))];
  return {
    orderId: order.orderId,
    ownerCode,
    version: order.version,
    statusCode: ORDER_STATUS_CODES[order.state],
    expiresAt: new Date(quote.expiresAt).toISOString(),
    fee: m(quote.terms.reduce((s, t) => s + t.feeMinor, 0)),
    feeText: `Change fees of each direction's time-to-departure band, all passengers: ${quote.terms.map((t, i) => `${label(i)} ${f(t.feeMinor)} (${t.band.id})`).join("; ")}.`,
    penaltyId: bands.join("+"),
    orderItemIds,
    passengers: order.passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc })),
    offers: quote.combinations.map((c, n) => ({ c, n, paid: retainedPaying(order, c.dueMinor, f) })).map(({ c, n, paid }) => ({
      quoteId: c.quoteId,
      due: m(paid.dueMinor),
      added: c.alternatives.map((a, i) => addedFlightsOf(order, a, quote.terms[i]!, addedItemId(n, i), m)),
      descriptions: [
        ...c.alternatives.flatMap((a, i) => [`${label(i)}. ${flightsText(a)}`, `${label(i)}. ${sumsText(a, quote.terms[i]!, f)}`, ...allowedBy(quote.terms[i]!.allowance).map((x) => `${label(i)}. ${x}`)]),
        ...paid.texts,
        dueText(paid.dueMinor, f),
      ],
    })),
    warnings: quote.terms.map(conditionsWarnings).find((w) => w.length) ?? [],
  };
}
