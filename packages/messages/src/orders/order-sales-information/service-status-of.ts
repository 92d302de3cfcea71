import type { OrderDetails, ServiceStatusChange } from "@ndc/orders";
import { shoppingIds } from "@ndc/shopping";
import type { OrderServiceView } from "../shared/view/order";
import { orderSalesInformationOf, type OrderSalesInformationView } from "./view-of";

/** The segments a service is placed on, by its association. */
function segmentsOf(s: OrderServiceView): string[] {
  const a = s.association;
  if (a.kind === "serviceDefinition") return a.paxSegmentIds ?? [];
  return a.paxSegmentId ? [a.paxSegmentId] : [];
}

/**
 * A service status change (ACCSTS, accounting.service_status) -> IATA_OrderSalesInformationNotifRQ's
 * view: the changed services only, each with the internal value a sales report gives it (the
 * item's price spread over all its services, so the two reports add up), its StatusCode the
 * change's code and, when earned, DeliveryStatusCode DELIVERED. No payment entry: no money moves.
 * `items`: the order the services are read from (before the write for what left it); `now`: the
 * order after the write (its state, version and total). Never a name, a document or a card.
 */
export function orderServiceStatusOf(items: OrderDetails, now: OrderDetails, change: ServiceStatusChange, carrier: string, eventId: string): OrderSalesInformationView {
  const transaction = { code: change.code, at: change.at };
  const valued = orderSalesInformationOf(items, { ...transaction, code: "SALE", orderItemIds: change.orderItemIds, legIds: [] }, carrier);
  const order = items === now ? valued.order : orderSalesInformationOf(now, { code: "SALE", orderItemIds: [], legIds: [], at: change.at }, carrier).order;
  const on = new Set(change.flightKeys.map(shoppingIds.segment));
  const earned = change.code === "FLOWN" || change.code === "DELIVERED";
  const reported = valued.items
    .map((i) => ({
      ...i,
      services: i.services
        .filter((s) => on.size === 0 || segmentsOf(s).length === 0 || segmentsOf(s).some((seg) => on.has(seg)))
        .map(({ deliveryStatusCode: _, deliveryText: __, ...s }) => ({ ...s, statusCode: change.code, ...(earned ? { deliveryStatusCode: "DELIVERED" } : {}) })),
    }))
    .filter((i) => i.services.length > 0);
  return { carrier, sellerAgencyId: valued.sellerAgencyId, transaction, eventId, order: { ...order, commissions: [] }, items: reported, payments: [] };
}
