import type { ScheduledJob } from "../job";
import { offersPurge } from "./offers-purge";
import { storeCheckpoint } from "./store-checkpoint";
import { notificationsDispatch } from "./notifications-dispatch";
import { documentsRetention } from "./documents-retention";
import { paymentsClearance } from "./payments-clearance";
import { ordersClosing } from "./orders-closing";
import { deliveryFlown, operationsFeed, partnersReadBack } from "./operations";

/**
 * Every job the scheduler runs, in one list: this is where later issues add theirs
 * (offer and hold expiries, the saga reconciler, payment clearance, notification dispatch,
 * the operations simulation, the retention sweep). One file per job under jobs/, then one
 * line here. Names must be unique; the scheduler refuses to start otherwise.
 */
export const JOBS: readonly ScheduledJob[] = [storeCheckpoint, offersPurge, notificationsDispatch, documentsRetention, paymentsClearance, ordersClosing, operationsFeed, deliveryFlown, partnersReadBack];
