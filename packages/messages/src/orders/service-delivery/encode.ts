import { c, cOpt, el, type XNode } from "@ndc/xml";
import type { OrderServiceView } from "../shared/view/order";
import { serviceCore } from "../shared/encode/order";
import type { ServiceDeliveryView } from "./view";

function service(s: OrderServiceView, provider: { id: string; name: string }): XNode {
  return c(
    "Service",
    c("DeliveryProvider", c("ID", provider.id), c("Name", provider.name)),
    cOpt("DeliveryStatusCode", s.deliveryStatusCode),
    cOpt("DeliveryStatusDescText", s.deliveryText),
    serviceCore(s),
  );
}

/** The Order element (DeliveredOrderType) of ServiceDeliveryRS and of the pushed ServiceDeliveryNotifRQ, children in schema order. */
export function encodeDeliveredOrder(v: ServiceDeliveryView): XNode {
  return c(
    "Order",
    c("OrderID", v.orderId),
    v.items.map((i) => c("OrderItem", c("OrderItemID", i.orderItemId), c("OwnerCode", i.ownerCode), i.services.map((s) => service(s, i.provider)))),
    c("OwnerCode", v.ownerCode),
  );
}

/** The Response element of IATA_ServiceDeliveryRS (ServiceDeliveryResponseType). */
export function encodeServiceDeliveryRS(v: ServiceDeliveryView): XNode {
  return el("Response", null, encodeDeliveredOrder(v));
}
