import { randomUUID } from "node:crypto";
import { eq, like, sql } from "drizzle-orm";
import { preparedOnce, type StoreDb } from "@ndc/store";
import { flagSimulatedNotification } from "@ndc/xml";
import { EVENTS, type NotificationEvent } from "./events";
import { notificationDeliveries as D, notificationSubscriptions as S } from "./tables";

export interface Notification {
  event: NotificationEvent;
  /** The selling agency whose subscriptions receive it. */
  agencyId: string;
  orderId?: string;
  /**
   * The message exactly as it is sent on every attempt; or the function that builds it, called
   * only when a subscription names the event (a snapshot of the order costs reads nobody needs).
   */
  body: string | (() => Promise<string>);
}

/**
 * Writes one delivery per subscription of the agency that names the event, inside the caller's
 * transaction (the state change that causes the notification): both commit, or neither.
 * Returns the webhook-ids written.
 */
export async function enqueue(tx: StoreDb, n: Notification, now: number): Promise<string[]> {
  const subs = await tx.select({ id: S.subscriptionId, events: S.events }).from(S).where(eq(S.agencyId, n.agencyId)).all();
  return insertDeliveries(tx, subs, n, now);
}

async function insertDeliveries(tx: StoreDb, subs: { id: string; events: string }[], n: Omit<Notification, "agencyId">, now: number): Promise<string[]> {
  const ids: string[] = [];
  const to = subs.filter((s) => (JSON.parse(s.events) as string[]).includes(n.event));
  if (to.length === 0) return ids;
  // Every push says the supply is simulated, as every answer does (spec 1), whichever encoder built it.
  const body = flagSimulatedNotification(typeof n.body === "string" ? n.body : await n.body());
  for (const s of to) {
    const deliveryId = `msg_${randomUUID()}`;
    await tx
      .insert(D)
      .values({ deliveryId, subscriptionId: s.id, event: n.event, messageName: EVENTS[n.event], orderId: n.orderId ?? null, body, status: "pending", attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now })
      .run();
    ids.push(deliveryId);
  }
  return ids;
}

/** Whether any subscription names the event: a report nobody receives is not built (one read of the small subscriptions table, in the caller's write). */
export async function anySubscriber(tx: StoreDb, event: NotificationEvent): Promise<boolean> {
  // Every money event of every order asks (the sales reporter): prepared once, not built per write.
  const rows = await subscriberOf(tx).all({ pattern: `%${JSON.stringify(event)}%` });
  return rows.length > 0;
}

const subscriberOf = preparedOnce((db) =>
  db.select({ id: S.subscriptionId }).from(S).where(like(S.events, sql.placeholder("pattern"))).limit(1).prepare(),
);

/**
 * Like `enqueue`, to every subscription that names the event whatever its agency: the airline's
 * accounting reports (accounting.sales_info) cover every order, NDC-sold or not (spec 6). Who may
 * receive them is the grant's question, asked at subscription and again at every delivery.
 */
export async function enqueueToEvery(tx: StoreDb, n: Omit<Notification, "agencyId">, now: number): Promise<string[]> {
  const subs = await tx.select({ id: S.subscriptionId, events: S.events }).from(S).where(like(S.events, `%${JSON.stringify(n.event)}%`)).all();
  return insertDeliveries(tx, subs, n, now);
}
