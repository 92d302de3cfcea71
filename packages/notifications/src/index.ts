// @ndc/notifications: subscriptions, the outbox written with the change that causes it, and the dispatcher (issue 10). No HTTP routes here.
export { EVENTS, EVENT_NAMES, PRODUCED_EVENTS, GRANTED_EVENTS, isEvent, type NotificationEvent } from "./events";
export { Subscriptions, parseEvents, type Subscriber, type SubscriptionView, type SubscriptionPage, type DeliveryView } from "./subscriptions";
export { pageLimit, PAGE_DEFAULT, PAGE_MAX } from "./list-page";
export { enqueue, enqueueToEvery, anySubscriber, type Notification } from "./outbox";
export { orderDeliveries, type OrderDelivery } from "./order-deliveries";
export { failedDeliveries, redeliverFailed, type FailedDelivery } from "./failed-deliveries";
export { orderNotifications, PAYMENT_EXPIRED_CODES, SCHEDULE_CHANGE_TYPE_CODES, STAFF_CHANGE_CODES, type DeliveredOrderEncoder, type CurrentOrderEncoder } from "./order-hook";
export { orderChangeNotifRQ, type OrderChangeNotif } from "./order-change-notif";
export { orderClosingNotifRQ } from "./order-closing-notif";
export { serviceDeliveryNotifRQ } from "./service-delivery-notif";
export { Dispatcher, ATTEMPT_TIMEOUT_MS, ANSWER_MAX_BYTES, PER_SUBSCRIPTION, BATCH, type DispatcherDeps, type WebhookPost, type WebhookRequest, type WebhookAnswer } from "./dispatcher";
export { RETRY_DELAYS_MS, MAX_ATTEMPTS, nextAttemptAt } from "./schedule";
export { signWebhook, verifyWebhook, newSecret } from "./signature";
export { checkDeliveryUrl, isRefusedAddress, dnsResolver, type Resolver, type GatewayMode } from "./url-policy";
export * from "./tables";
export { clearanceDeskOf, clearanceNotifications } from "./clearance-hook";
