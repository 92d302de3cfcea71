/** Every event a subscription may name (issue 10; docs/notifications.md), with the message it pushes. */
export const EVENTS = {
  "order.payment_expired": "OrderChangeNotifRQ",
  "order.changed": "OrderChangeNotifRQ",
  "order.closed": "OrderClosingNotifRQ",
  "service.delivered": "ServiceDeliveryNotifRQ",
  "payment.clearance": "PaymentClearanceNotif",
  "accounting.sales_info": "OrderSalesInformationNotifRQ",
  "accounting.service_status": "OrderSalesInformationNotifRQ",
} as const;

export type NotificationEvent = keyof typeof EVENTS;
export const EVENT_NAMES = Object.keys(EVENTS) as NotificationEvent[];

/** The events a real flow produces today; discovery advertises only these. The others are accepted and never sent yet. */
export const PRODUCED_EVENTS: readonly NotificationEvent[] = ["order.payment_expired", "order.changed", "service.delivered", "order.closed", "payment.clearance", "accounting.sales_info", "accounting.service_status"];

/** Events only a client holding the airline's accounting grant may subscribe to. */
export const GRANTED_EVENTS: Partial<Record<NotificationEvent, string>> = { "accounting.sales_info": "ndc:accounting", "accounting.service_status": "ndc:accounting" };

export function isEvent(name: unknown): name is NotificationEvent {
  return typeof name === "string" && Object.hasOwn(EVENTS, name);
}
