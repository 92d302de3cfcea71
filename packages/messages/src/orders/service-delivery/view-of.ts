import type { OrderDetails } from "@ndc/orders";
import { partnerProduct, rideByCode } from "@ndc/supply";
import { orderItemViews } from "../order-view/view-of";
import type { OrderItemView } from "../shared/view/order";
import type { ServiceDeliveryView } from "./view";

/**
 * Domain order details -> ServiceDeliveryRS view: the same items and services as OrderViewRS,
 * each with who delivers it (the airline, or the partner or ride operator) and its delivery
 * state. Nothing about passengers beyond their PaxRefID: never an identity document.
 */
export function serviceDeliveryViewOf(details: OrderDetails, airline: { code: string; name: string }): ServiceDeliveryView {
  const byId = new Map(details.order.items.map((it) => [it.orderItemId, it]));
  return {
    orderId: details.order.orderId,
    ownerCode: airline.code,
    items: orderItemViews(details, airline.code).map((v: OrderItemView) => {
      const it = byId.get(v.orderItemId);
      return { ...v, provider: providerOf(it?.kind, it?.ref, airline) };
    }),
  };
}

function providerOf(kind: string | undefined, ref: string | undefined, airline: { code: string; name: string }): { id: string; name: string } {
  if (kind === "partner_product" && ref) {
    const p = partnerProduct(ref);
    if (p) return { id: p.code, name: p.partnerName };
  }
  if (kind === "ride" && ref) {
    const r = rideByCode(ref);
    if (r) return { id: r.code, name: r.operator };
  }
  return { id: airline.code, name: airline.name };
}
