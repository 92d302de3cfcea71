import { c, cOpt, el, NS, serialize, type XNode } from "@ndc/xml";
import { taxonomies } from "../../shopping/shared/encode/common";
import { amount, price } from "../../shopping/shared/encode/price";
import { commission, serviceRefs } from "../shared/encode/order";
import { paymentFunctionsContent } from "../shared/encode/payment";
import type { AccountedItemView, AccountedServiceView, OrderSalesInformationView } from "./view-of";

/** AccountedServiceType, children in schema order: one taxonomy node at most, the internal value before the references. */
function service(s: AccountedServiceView): XNode {
  return c(
    "Service",
    taxonomies(s.taxonomy).slice(0, 1),
    cOpt("DeliveryStatusCode", s.deliveryStatusCode),
    cOpt("DescText", s.description),
    c("InternalValue", amount("TotalAmount", s.internalValue)),
    serviceRefs(s),
  );
}

/** AccountedOrderItemType; its StatusCode carries the report's code (SALE, CHANGE, REFUND, VOID; or a service status: FLOWN, DELIVERED, REFUNDED, FORFEITED, EXCHANGED). */
function orderItem(i: AccountedItemView, code: string): XNode {
  if (i.services.length === 0) throw new Error(`Order item ${i.orderItemId} has no service.`);
  return c(
    "OrderItem",
    taxonomies(i.taxonomy).slice(0, 1),
    cOpt("CreationDateTime", i.createdAt),
    c("OrderItemID", i.orderItemId),
    c("OwnerCode", i.ownerCode),
    i.price ? price("Price", i.price) : null,
    i.services.map(service),
    c("StatusCode", code),
  );
}

/**
 * IATA_OrderSalesInformationNotifRQ (spec 4.9): DistributionChain (the airline, the selling
 * agency), PayloadAttributes/Timestamp (the money event's time), Request/Order with the event's
 * items, and one PaymentFunctions per ledger entry the event moved. docs/notifications.md.
 */
export function encodeOrderSalesInformationNotifRQ(v: OrderSalesInformationView): string {
  const o = v.order;
  if (v.items.length === 0) throw new Error(`Order ${o.orderId}: a sales report needs an order item.`);
  return serialize(
    el(
      "IATA_OrderSalesInformationNotifRQ",
      { xmlns: NS.message, "xmlns:cns": NS.common },
      el(
        "DistributionChain",
        null,
        c("DistributionChainLink", c("Ordinal", 1), c("OrgRole", "Carrier"), c("ParticipatingOrg", c("OrgID", v.carrier))),
        c("DistributionChainLink", c("Ordinal", 2), c("OrgRole", "Seller"), c("ParticipatingOrg", c("OrgID", v.sellerAgencyId))),
      ),
      el("PayloadAttributes", null, cOpt("CorrelationID", v.eventId), c("Timestamp", new Date(v.transaction.at).toISOString())),
      el(
        "Request",
        null,
        c(
          "Order",
          o.commissions.map(commission),
          cOpt("CreationDateTime", o.createdAt),
          cOpt("LastModifiedDateTime", o.lastModifiedAt),
          c("OrderID", o.orderId),
          v.items.map((i) => orderItem(i, v.transaction.code)),
          c("OrderVersionNumber", o.versionNumber),
          c("OwnerCode", o.ownerCode),
          c("StatusCode", o.statusCode),
          o.totalPrice ? price("TotalPrice", o.totalPrice) : null,
        ),
        v.payments.map((p) => c("PaymentFunctions", ...paymentFunctionsContent(o.orderId, p))),
      ),
    ),
  );
}
