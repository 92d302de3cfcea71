import type { ScheduledJob } from "../job";
import { offersPurge } from "./offers-purge";
import { storeCheckpoint } from "./store-checkpoint";
import { notificationsDispatch } from "./notifications-dispatch";
import { documentsRetention } from "./documents-retention";
import { paymentsClearance } from "./payments-clearance";
import { ordersClosing } from "./orders-closing";
import { deliveryFlown, operationsFeed, partnersReadBack } from "./operations";
import { ordersExpireUnpaid, ordersRetainedLapse } from "./orders-expiry";
import { ordersReconcile } from "./orders-reconcile";

/**
 * Every job, in one list: the scheduler app runs them all on their schedules, and the sandbox
 * controls run them by name. One file per job under jobs/, then one line here. Names must be
 * unique; the scheduler refuses to start otherwise.
 */
export const JOBS: readonly ScheduledJob[] = [
  storeCheckpoint,
  offersPurge,
  ordersExpireUnpaid,
  ordersRetainedLapse,
  ordersReconcile,
  notificationsDispatch,
  documentsRetention,
  paymentsClearance,
  ordersClosing,
  operationsFeed,
  deliveryFlown,
  partnersReadBack,
];

/**
 * The sweeps POST /sandbox/clock runs after moving time, in this order: expiry first (it writes
 * notifications), the airline's changes and deliveries, clearance, then the closing check that
 * waits for both, and dispatch last, which sends what they wrote (docs/sandbox-controls.md).
 */
export const CLOCK_SWEEPS: readonly string[] = [
  "orders.expire-unpaid",
  "orders.retained-lapse",
  "operations.feed",
  "delivery.flown",
  "partners.read-back",
  "payments.clearance",
  "orders.closing",
  "notifications.dispatch",
];
