import type { Order } from "@ndc/orders";
import { minorUnits, type CurrencyCode } from "@ndc/money";
import type { ALaCarteOfferView } from "../../shopping";
import { formatMoney, money } from "../../shopping/shared/view/money";

/**
 * An add reshop's offer (extras, a seat) for an order that retains a value (RespendInd, issue 20
 * item 6): its Desc says how much is available and until when, since OrderChangeRQ takes it off
 * what the items cost (servicing/add). The items keep their prices: the value is the order's,
 * not the offer's. Pure.
 */
export function withRetainedNote(offer: ALaCarteOfferView, order: Pick<Order, "retained" | "currency">): ALaCarteOfferView {
  const kept = order.retained?.amountMinor ?? 0;
  if (kept <= 0) return offer;
  const amount = `${formatMoney(money(kept, order.currency, minorUnits(order.currency as CurrencyCode)))} ${order.currency}`;
  const note = `Retained value on the order (RespendInd): ${amount}, taken off what these cost when bought with OrderChangeRQ (send PaymentFunctions for the rest only), until ${new Date(order.retained!.lapsesAt).toISOString()}.`;
  return { ...offer, description: offer.description ? `${offer.description} ${note}` : note };
}
