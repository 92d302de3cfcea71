import { c, cOpt, type XNode } from "@ndc/xml";
import { taxonomies } from "../../../shopping/shared/encode/common";
import { amount, price } from "../../../shopping/shared/encode/price";
import { restrictions } from "./restrictions";
import type { CommissionView, OrderItemView, OrderServiceView, OrderView } from "../view/order";

/** PAYCOM (CommissionType): amount, code, and for a percentage the rate and its base. */
export function commission(cm: CommissionView): XNode {
  return c(
    "Commission",
    amount("Amount", cm.amount),
    cOpt("CommissionCode", cm.code),
    cm.percent !== undefined ? c("Percentage", cm.percent) : null,
    cm.base ? amount("PercentageAppliedToAmount", cm.base) : null,
  );
}

/** `definitions`: the message lists the ServiceDefinitions (OrderViewRS), so a seat names its definition too. */
function serviceAssociation(a: OrderServiceView["association"], definitions: boolean): XNode {
  switch (a.kind) {
    case "segment":
      // A flight names its segment directly, as IATA's examples do and sellers' parsers expect
      // (issue 20 item 8); the ServiceDefinitionRef form is for extras (decision 0021).
      return c("PaxSegmentRef", c("PaxSegmentRefID", a.paxSegmentId));
    case "seat": {
      const legs = a.legIds ?? [];
      if (legs.length === 0 && !a.paxSegmentId) throw new Error("A seat needs its legs or its segment.");
      return c(
        "SeatOnLeg",
        c("Seat", c("ColumnID", a.column), c("RowNumber", a.row), (a.characteristics ?? []).map((ch) => c("SeatCharacteristicCode", ch)), cOpt("SeatProfileRefID", a.seatProfileId)),
        c(
          "SeatAssignmentAssociations",
          legs.length > 0 ? c("DatedOperatingLegRef", legs.map((l) => c("DatedOperatingLegRefID", l))) : c("PaxSegmentRef", c("PaxSegmentRefID", a.paxSegmentId!)),
        ),
        cOpt("ServiceDefinitionRefID", definitions ? a.serviceDefinitionId : undefined),
      );
    }
    case "serviceDefinition": {
      // OrderFlightAssociations holds one PaxSegmentRef: a service over several flights is one
      // OrderedService per flight, which is the domain's choice, so only the first is rendered.
      const seg = a.paxSegmentIds?.[0];
      return c(
        "ServiceDefinitionRef",
        seg ? c("OrderFlightAssociations", c("PaxSegmentRef", c("PaxSegmentRefID", seg))) : null,
        c("ServiceDefinitionRefID", a.serviceDefinitionId),
      );
    }
  }
}

/**
 * The part of a Service that OrderedServiceType (OrderViewRS) and DeliveredServiceType
 * (ServiceDeliveryRS) share, in the order both declare it: DescText, OrderServiceAssociation,
 * PaxRefID, ServiceID, StatusCode (the elements either type puts between them are not written).
 * `definitions`: the message carries a ServiceDefinitionList a seat can refer to (OrderViewRS;
 * ServiceDeliveryRS has no DataLists, so its seats name their segment only).
 */
export function serviceCore(s: OrderServiceView, definitions = false): (XNode | null)[] {
  return [cOpt("DescText", s.description), ...serviceRefs(s, definitions)];
}

/** OrderServiceAssociation, PaxRefID, ServiceID, StatusCode: the same in every service type (AccountedServiceType puts InternalValue before them). */
export function serviceRefs(s: OrderServiceView, definitions = false): (XNode | null)[] {
  return [c("OrderServiceAssociation", serviceAssociation(s.association, definitions)), c("PaxRefID", s.paxId), c("ServiceID", s.serviceId), cOpt("StatusCode", s.statusCode)];
}

function service(s: OrderServiceView): XNode {
  return c("Service", taxonomies(s.taxonomy), cOpt("DeliveryStatusCode", s.deliveryStatusCode), serviceCore(s, true));
}

function orderItem(i: OrderItemView, paymentTimeLimit: string | undefined): XNode {
  if (i.services.length === 0) throw new Error(`Order item ${i.orderItemId} has no service.`);
  return c(
    "OrderItem",
    taxonomies(i.taxonomy),
    restrictions(i.restrictions),
    cOpt("CreationDateTime", i.createdAt),
    c("OrderItemID", i.orderItemId),
    c("OwnerCode", i.ownerCode),
    cOpt("PaymentTimeLimitDateTime", paymentTimeLimit),
    i.price ? price("Price", i.price) : null,
    i.services.map(service),
    cOpt("StatusCode", i.statusCode),
  );
}

/** Order (OrderedOrderType), children in schema order. */
export function order(v: OrderView): XNode {
  if (v.items.length === 0) throw new Error(`Order ${v.orderId} has no order item.`);
  return c(
    "Order",
    v.commissions.map(commission),
    cOpt("CreationDateTime", v.createdAt),
    cOpt("LastModifiedDateTime", v.lastModifiedAt),
    c("OrderID", v.orderId),
    v.items.map((i) => orderItem(i, v.paymentTimeLimit)),
    c("OrderVersionNumber", v.versionNumber),
    c("OwnerCode", v.ownerCode),
    c("StatusCode", v.statusCode),
    v.totalPrice ? price("TotalPrice", v.totalPrice) : null,
  );
}
