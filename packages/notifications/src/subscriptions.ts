import { randomUUID } from "node:crypto";
import { and, asc, count, desc, eq } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { FieldKey } from "@ndc/pii";
import type { Store } from "@ndc/store";
import { EVENT_NAMES, GRANTED_EVENTS, isEvent, type NotificationEvent } from "./events";
import { openSecret, sealSecret } from "./secret-seal";
import { newSecret } from "./signature";
import { notificationDeliveries as D, notificationSubscriptions as S } from "./tables";
import { checkDeliveryUrl, type GatewayMode, type Resolver } from "./url-policy";
import { requeued } from "./failed-deliveries";
import { afterPosition, openPageCursor, pageCursor } from "./list-page";

/** Who asks: subscriptions belong to the selling agency; the client is recorded as its creator. */
export interface Subscriber {
  agencyId: string;
  clientId: string;
  scopes: ReadonlySet<string>;
}

export interface SubscriptionView {
  id: string;
  url: string;
  events: NotificationEvent[];
  createdAt: string;
}

/** One page of an agency's subscriptions; `next` is absent on the last page. */
export interface SubscriptionPage {
  subscriptions: SubscriptionView[];
  next?: string;
}

export interface DeliveryView {
  id: string;
  event: string;
  messageName: string;
  orderId: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: string;
}

const LIST_LIMIT = 100;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function view(r: typeof S.$inferSelect): SubscriptionView {
  return { id: r.subscriptionId, url: r.url, events: JSON.parse(r.events), createdAt: new Date(r.createdAt).toISOString() };
}

/** The events of a request body: known names only (400 with the list otherwise), granted ones only with their grant. */
export function parseEvents(raw: unknown, scopes: ReadonlySet<string>): NotificationEvent[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new GatewayError("notification_event_unknown", { detail: `Name one or more of: ${EVENT_NAMES.join(", ")}.`, element: "events" });
  const unknown = raw.filter((e) => !isEvent(e));
  if (unknown.length) {
    throw new GatewayError("notification_event_unknown", { detail: `Known events: ${EVENT_NAMES.join(", ")}.`, element: "events" });
  }
  const events = [...new Set(raw as NotificationEvent[])];
  for (const e of events) {
    const grant = GRANTED_EVENTS[e];
    if (grant && !scopes.has(grant)) throw new GatewayError("insufficient_scope", { detail: `The event ${e} needs the ${grant} grant.` });
  }
  return events;
}

/** The subscription management of issue 10: every call acts on the caller's agency's own rows only. */
export class Subscriptions {
  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      fieldKey: FieldKey;
      mode: GatewayMode;
      resolve?: Resolver;
      /** Subscriptions one agency may hold (NOTIFY_SUBSCRIPTIONS_MAX): each is one more push per event. */
      maxPerAgency: number;
    },
  ) {}

  async create(who: Subscriber, input: { url: unknown; events: unknown }): Promise<SubscriptionView & { secret: string }> {
    if (typeof input.url !== "string" || input.url.length > 2048) throw new GatewayError("subscription_url_refused", { detail: "A url string is required.", element: "url" });
    const events = parseEvents(input.events, who.scopes);
    const url = (await checkDeliveryUrl(input.url, this.deps.mode, this.deps.resolve)).href.replace(/\/+$/, "");
    const id = `sub_${randomUUID()}`;
    const secret = newSecret();
    const row = { subscriptionId: id, agencyId: who.agencyId, clientId: who.clientId, url, events: JSON.stringify(events), createdAt: this.deps.clock.now(), ...sealSecret(secret, this.deps.fieldKey, id) };
    const max = this.deps.maxPerAgency;
    // Counted in the write that inserts: writes run one at a time, so concurrent requests cannot pass the cap together.
    await this.deps.store.write(async (tx) => {
      const [held] = await tx.select({ n: count() }).from(S).where(eq(S.agencyId, who.agencyId)).all();
      if (held!.n >= max) {
        throw new GatewayError("subscription_limit_reached", {
          detail: `An agency holds at most ${max} subscriptions and yours holds ${held!.n}: delete one it no longer uses, or name more events in one subscription.`,
        });
      }
      await tx.insert(S).values(row).run();
    });
    return { ...view(row), secret };
  }

  /** The agency's subscriptions, oldest first, `limit` at a time (list-page.ts); `after` is the previous page's `next`. */
  async list(who: Subscriber, page: { limit: number; after?: string }): Promise<SubscriptionPage> {
    const at = page.after === undefined ? undefined : openPageCursor(page.after);
    const rows = await this.deps.store.db
      .select()
      .from(S)
      .where(and(eq(S.agencyId, who.agencyId), at ? afterPosition(at) : undefined))
      .orderBy(asc(S.createdAt), asc(S.subscriptionId))
      .limit(page.limit + 1)
      .all();
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    return { subscriptions: shown.map(view), ...(rows.length > page.limit && last ? { next: pageCursor(last) } : {}) };
  }

  /** Another agency's id is answered exactly like a missing one. */
  private async own(who: Subscriber, id: string): Promise<typeof S.$inferSelect> {
    const row = await this.deps.store.db.select().from(S).where(and(eq(S.subscriptionId, id), eq(S.agencyId, who.agencyId))).get();
    if (!row) throw new GatewayError("subscription_not_found");
    return row;
  }

  async get(who: Subscriber, id: string): Promise<SubscriptionView> {
    return view(await this.own(who, id));
  }

  /** Deletes the subscription and whatever it still had to send. */
  async delete(who: Subscriber, id: string): Promise<void> {
    await this.own(who, id);
    await this.deps.store.write(async (tx) => {
      await tx.delete(D).where(and(eq(D.subscriptionId, id), eq(D.status, "pending"))).run();
      await tx.delete(S).where(and(eq(S.subscriptionId, id), eq(S.agencyId, who.agencyId))).run();
    });
  }

  /** A new secret, shown once; the old one stops signing at once. */
  async rotateSecret(who: Subscriber, id: string): Promise<SubscriptionView & { secret: string }> {
    const row = await this.own(who, id);
    const secret = newSecret();
    const sealed = sealSecret(secret, this.deps.fieldKey, id);
    await this.deps.store.write((tx) => tx.update(S).set(sealed).where(eq(S.subscriptionId, id)).run());
    return { ...view(row), secret };
  }

  async deliveries(who: Subscriber, id: string): Promise<DeliveryView[]> {
    await this.own(who, id);
    const rows = await this.deps.store.db.select().from(D).where(eq(D.subscriptionId, id)).orderBy(desc(D.createdAt)).limit(LIST_LIMIT).all();
    return rows.map((r) => ({
      id: r.deliveryId,
      event: r.event,
      messageName: r.messageName,
      orderId: r.orderId,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
      lastHttpStatus: r.lastHttpStatus,
      lastError: r.lastError,
      createdAt: new Date(r.createdAt).toISOString(),
    }));
  }

  /** Sends a delivery again now, under the same webhook-id; a delivered or failed one gets one more attempt. */
  async redeliver(who: Subscriber, id: string, deliveryId: string): Promise<void> {
    await this.own(who, id);
    const now = this.deps.clock.now();
    const changed = await this.deps.store.write((tx) =>
      tx
        .update(D)
        .set(requeued(now))
        .where(and(eq(D.deliveryId, deliveryId), eq(D.subscriptionId, id)))
        .returning({ id: D.deliveryId })
        .all(),
    );
    if (changed.length === 0) throw new GatewayError("delivery_not_found");
  }

  /** The signing secret, for the dispatcher only. */
  secretOf(row: typeof S.$inferSelect): string {
    return openSecret(row, this.deps.fieldKey, row.subscriptionId);
  }
}
