import type { Quote } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import { GATEWAY_TEXT_ONLY } from "../../shopping/shared/encode/common";
import { emptyDataLists, type PaxView } from "../../shopping/shared/view/data-lists";
import { money } from "../../shopping/shared/view/money";
import type { ALaCarteItemView } from "../../shopping/shared/view/offers";
import type { OrderReshopView } from "../order-reshop/encode";

/**
 * A firm quote as OrderReshopRS shows it (decision 0013): ReshopOffers/ALaCarteOffer whose OfferID
 * is the quote id and OfferExpirationTimeLimitDateTime its expiry, one OfferItem per quoted item
 * (its passengers, its flight, the unit price it was quoted at), the quote's total in Desc. Pure.
 */
export function quoteViewOf(q: Quote, ownerCode: string, passengers: readonly PaxView[]): OrderReshopView {
  const d = minorUnits(q.currency as CurrencyCode);
  const items: ALaCarteItemView[] = q.items.map((i) => {
    const units = (i.qty ?? 1) * Math.max(1, i.paxIds.length);
    const unit = i.totalMinor % units === 0 ? i.totalMinor / units : i.totalMinor;
    const price = money(unit, q.currency, d);
    return {
      offerItemId: i.offerItemId,
      ownerCode,
      serviceId: `${i.offerItemId}-1`,
      serviceDefinitionId: i.kind === "seat" ? "SD-SEAT" : `SD-${i.ref ?? i.kind}`,
      paxIds: i.paxIds,
      ...(i.flightKeys?.length ? { flights: { kind: "paxSegments" as const, ids: i.flightKeys.map((k) => `SEG-${k}`) } } : {}),
      unitPrice: { base: price, taxes: [], total: price },
    };
  });
  const total = (q.chargeMinor / 10 ** d).toFixed(d);
  const until = new Date(q.expiresAt).toISOString();
  const quoted = new Set(q.items.flatMap((i) => i.paxIds));
  return {
    orderId: q.orderId,
    ownerCode,
    aLaCarteOffer: {
      offerId: q.quoteId,
      ownerCode,
      expiresAt: until,
      description: `Firm quote for order ${q.orderId}: ${total} ${q.currency} in total, until ${until}. Accept it with OrderChangeRQ naming this OfferID, each item as quoted.${retainedNote(q, d)}`,
      items,
    },
    dataLists: { ...emptyDataLists(), passengers: passengers.filter((p) => quoted.has(p.paxId)) },
    // No airline content (no service definitions, the Desc is the gateway's): English (spec 4.8 rule 2).
    processing: GATEWAY_TEXT_ONLY,
    warnings: [],
  };
}

/** The value the order retains (RespendInd) pays part of the quote: what is left is what OrderChangeRQ's PaymentFunctions pay. */
function retainedNote(q: Quote, d: number): string {
  if (!q.retainedSpentMinor) return "";
  const f = (minor: number) => `${(minor / 10 ** d).toFixed(d)} ${q.currency}`;
  return ` The value retained on the order (RespendInd) pays ${f(q.retainedSpentMinor)} of it: ${f(q.chargeMinor - q.retainedSpentMinor)} due (as retained when it is accepted).`;
}
