import type { OrderDetails, SalesTransaction } from "@ndc/orders";
import type { Money } from "../../shopping/shared/view/money";
import { orderViewOf } from "../order-view/view-of";
import type { OrderItemView, OrderServiceView, OrderView } from "../shared/view/order";
import type { PaymentEntryView } from "../shared/view/payment";

/** One service as accounting sees it: the order view's service with its internal value. */
export interface AccountedServiceView extends OrderServiceView {
  internalValue: Money;
}

export interface AccountedItemView extends Omit<OrderItemView, "services"> {
  services: AccountedServiceView[];
}

/** The view model of IATA_OrderSalesInformationNotifRQ: one money event (accounting.sales_info) or one service status change (accounting.service_status) of one order. */
export interface OrderSalesInformationView {
  carrier: string;
  /** The agency that sold the order (the Seller link); the web shop's own agency for its orders. */
  sellerAgencyId: string;
  /** Its code (each OrderItem's StatusCode) and time; a money event's is a SalesTransaction. */
  transaction: Pick<SalesTransaction, "at"> & { code: string };
  /** The report's own id, the same however often it is delivered (PayloadAttributes/CorrelationID); the status reports carry one. */
  eventId?: string;
  order: Pick<OrderView, "orderId" | "ownerCode" | "statusCode" | "versionNumber" | "createdAt" | "lastModifiedAt" | "totalPrice" | "commissions">;
  items: AccountedItemView[];
  /** The ledger entries the event moved: the legs' payments (a refund: their refund entries). */
  payments: PaymentEntryView[];
}

/**
 * An item's value spread over its services, in minor units: evenly, the remainder one unit at a
 * time to the first services, so the services always add up to the item's price. A ticketless
 * line (a partner product, a seat sold for nothing) is reported this way too; a free seat's value is 0.
 */
export function internalValues(total: Money, services: number): Money[] {
  const base = Math.trunc(total.minor / services);
  const rest = total.minor - base * services;
  return Array.from({ length: services }, (_, i) => ({ ...total, minor: base + (i < Math.abs(rest) ? Math.sign(rest) : 0) }));
}

/**
 * Domain order details and the money event -> the notification's view: the order as OrderViewRS
 * shows it (the same items, services, ids, prices and PAYSUM entries), narrowed to the items and
 * legs of the event. No identity document, name or card number is part of it.
 */
export function orderSalesInformationOf(details: OrderDetails, transaction: SalesTransaction, carrier: string): OrderSalesInformationView {
  const { view } = orderViewOf(details, carrier);
  const wanted = new Set(transaction.orderItemIds);
  const legs = new Set(transaction.legIds);
  const zero = (currency: string, decimals: number): Money => ({ minor: 0, currency, decimals });
  const items = view.items
    .filter((i) => wanted.has(i.orderItemId))
    .map((i): AccountedItemView => {
      const total = i.price?.total ?? zero(details.order.currency, view.totalPrice?.total.decimals ?? 2);
      // Included baggage has no value of its own: accounting reports what was sold.
      const sold = i.services.filter((s) => !s.included);
      const values = internalValues(total, sold.length);
      return { ...i, services: sold.map((s, n) => ({ ...s, internalValue: values[n]! })) };
    });
  const direction = transaction.code === "REFUND" ? "refund" : "payment";
  const payments = view.payments.filter((p) => p.direction === direction && legs.has(direction === "refund" ? p.paymentId.replace(/-R$/, "") : p.paymentId));
  return {
    carrier,
    sellerAgencyId: details.order.owner.agencyId,
    transaction,
    order: {
      orderId: view.orderId,
      ownerCode: view.ownerCode,
      statusCode: view.statusCode,
      versionNumber: view.versionNumber,
      createdAt: view.createdAt,
      lastModifiedAt: view.lastModifiedAt,
      totalPrice: view.totalPrice,
      commissions: view.commissions,
    },
    items,
    payments,
  };
}
