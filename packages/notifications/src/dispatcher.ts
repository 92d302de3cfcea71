import { and, asc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { Clock, SellerClocks } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { Logger } from "@ndc/log";
import type { Store } from "@ndc/store";
import { claimDeliveries } from "./claim";
import { GRANTED_EVENTS, type NotificationEvent } from "./events";
import { nextAttemptAt } from "./schedule";
import { signWebhook } from "./signature";
import type { Subscriptions } from "./subscriptions";
import { notificationDeliveries as D, notificationSubscriptions as S } from "./tables";
import { checkDeliveryUrl, type GatewayMode, type Resolver } from "./url-policy";

/** One signed push, as the edge sends it: POST url with the message and Standard Webhooks headers. */
export interface WebhookRequest {
  url: string;
  messageName: string;
  webhookId: string;
  timestamp: number;
  signature: string;
  body: string;
  timeoutMs: number;
  /** The most of the receiver's answer body read before the connection is dropped. */
  maxAnswerBytes: number;
}

export type WebhookAnswer = { kind: "answered"; status: number; retryAfterMs?: number } | { kind: "timeout" } | { kind: "connection_failed" };
export type WebhookPost = (req: WebhookRequest) => Promise<WebhookAnswer>;

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** The answer's body is only an acknowledgement: a receiver sending gigabytes must not fill the gateway's memory. */
export const ANSWER_MAX_BYTES = 64 * 1024;
/** Attempts in flight at once to one subscription: a slow endpoint holds at most this many. */
export const PER_SUBSCRIPTION = 4;
/** Deliveries taken per tick. */
export const BATCH = 200;
/** A taken delivery is left alone by other dispatchers this long (more than one attempt's timeout); NOTIFY_CLAIM_MS. */
export const CLAIM_MS = 3 * ATTEMPT_TIMEOUT_MS;

export interface DispatcherDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  subscriptions: Subscriptions;
  mode: GatewayMode;
  resolve?: Resolver;
  /** The HTTP exchange itself, kept at the edge (apps/scheduler/src/webhook-post.ts): domains hold no HTTP. */
  post: WebhookPost;
  /** Default CLAIM_MS. */
  claimMs?: number;
  /** Whether the subscription's client still holds a grant (the registry's, @ndc/auth clientHoldsScope), asked before each delivery of a granted event. */
  holdsGrant: (clientId: string, scope: string) => Promise<boolean>;
  /**
   * The airline's XML signature on the body for agencies whose agreement asks (docs/signatures.md);
   * applied at each attempt, before the webhook-signature, which then covers the signed body.
   */
  signBody?: (agencyId: string, body: string) => Promise<string>;
  /**
   * Real time for the webhook-timestamp (default `clock`): receivers compare it with their own
   * clock, so a sandbox that moved business time must not move it (issue 19 item 22).
   */
  securityClock?: Clock;
  /** Each seller's sandbox clock (local and sandbox modes): a moved seller's pushes fall due on its own time. */
  sellerClocks?: SellerClocks;
}

type Outcome = { status: "delivered" | "retry" | "failed"; httpStatus?: number; error?: string; retryAfterMs?: number };

/**
 * Sends due deliveries. A tick takes due rows, marks them taken, and starts each attempt without
 * waiting for the others: every subscription has its own lane of PER_SUBSCRIPTION attempts, so a
 * slow or dead endpoint fills only its own lane and never delays another seller's deliveries.
 * At least once: a row is marked delivered only after a 2xx; a crash before that sends it again,
 * with the same webhook-id, once its claim lapses.
 */
export class Dispatcher {
  private readonly inFlight = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: DispatcherDeps) {}

  /** Starts every due attempt there is room for and resolves when they have finished (the sandbox, tests). */
  async tick(): Promise<{ started: number }> {
    const started = await this.start();
    // Attempts this process's loop started just before are waited for too: after a tick, every
    // delivery due when it began has been tried (the sandbox's /sandbox/clock answers after that).
    await this.drain();
    return { started: started.length };
  }

  /** Takes due deliveries and starts their attempts; resolves once they are started (the loop does not wait for them). */
  async start(): Promise<Promise<void>[]> {
    const now = this.deps.clock.now();
    // A seller whose sandbox clock is moved has its pushes scheduled on its own time: due at its now.
    const moved = (await this.deps.sellerClocks?.moved()) ?? new Map<string, number>();
    const dueOnMovedClocks = [...moved].map(([clientId, offsetMs]) =>
      and(inArray(D.subscriptionId, this.deps.store.db.select({ id: S.subscriptionId }).from(S).where(eq(S.clientId, clientId))), lte(D.nextAttemptAt, now + offsetMs)),
    );
    const due = await this.deps.store.db
      .select({ id: D.deliveryId, sub: D.subscriptionId })
      .from(D)
      .where(and(eq(D.status, "pending"), or(lte(D.nextAttemptAt, now), ...dueOnMovedClocks), or(isNull(D.claimedUntil), lte(D.claimedUntil, now))))
      .orderBy(asc(D.nextAttemptAt))
      .limit(BATCH)
      .all();
    const room = new Map(this.inFlight);
    const pick = due.filter((d) => {
      const n = room.get(d.sub) ?? 0;
      if (n >= PER_SUBSCRIPTION) return false;
      room.set(d.sub, n + 1);
      return true;
    });
    if (pick.length === 0) return [];
    // Taken in one write; a row another dispatcher took in between is not returned here.
    const taken = await claimDeliveries(this.deps.store, pick.map((p) => p.id), now, now + (this.deps.claimMs ?? CLAIM_MS));
    const started: Promise<void>[] = [];
    for (const row of taken) {
      this.inFlight.set(row.subscriptionId, (this.inFlight.get(row.subscriptionId) ?? 0) + 1);
      const p = this.attempt(row, moved)
        .catch((e) => this.deps.logger.error("notification_attempt_failed", { deliveryId: row.deliveryId, error: e instanceof Error ? e.message : String(e) }))
        .finally(() => {
          this.inFlight.set(row.subscriptionId, this.inFlight.get(row.subscriptionId)! - 1);
          this.running.delete(p);
        });
      this.running.add(p);
      started.push(p);
    }
    return started;
  }

  /** Waits for every attempt in flight (shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private async attempt(row: typeof D.$inferSelect, moved: Map<string, number>): Promise<void> {
    const sub = await this.deps.store.db.select().from(S).where(eq(S.subscriptionId, row.subscriptionId)).get();
    const grant = GRANTED_EVENTS[row.event as NotificationEvent];
    // A grant revoked since subscribing stops the deliveries at once: nothing is sent, and nothing is retried.
    const outcome: Outcome = !sub
      ? { status: "failed", error: "subscription deleted" }
      : grant && !(await this.deps.holdsGrant(sub.clientId, grant))
        ? { status: "failed", error: `grant ${grant} not held` }
        : await this.send(row, sub);
    // The retry is scheduled on the subscriber's business time, which start() judges it by.
    const now = this.deps.clock.now() + (sub ? (moved.get(sub.clientId) ?? 0) : 0);
    const attempts = row.attempts + 1;
    const next = outcome.status === "retry" ? nextAttemptAt(now, attempts, outcome.retryAfterMs) : null;
    const status = outcome.status === "retry" ? (next === null ? "failed" : "pending") : outcome.status;
    await this.deps.store.write((tx) =>
      tx
        .update(D)
        .set({ status, attempts, nextAttemptAt: next, claimedUntil: null, lastHttpStatus: outcome.httpStatus ?? null, lastError: outcome.error ?? null, updatedAt: now })
        .where(eq(D.deliveryId, row.deliveryId))
        .run(),
    );
    this.deps.logger.info("notification_attempt", { deliveryId: row.deliveryId, event: row.event, attempt: attempts, status, httpStatus: outcome.httpStatus });
  }

  private async send(row: typeof D.$inferSelect, sub: typeof S.$inferSelect): Promise<Outcome> {
    let base: URL;
    try {
      // Checked again at every attempt: the name may resolve to a refused address by now.
      base = await checkDeliveryUrl(sub.url, this.deps.mode, this.deps.resolve);
    } catch (e) {
      return { status: "retry", error: e instanceof GatewayError ? e.code : "url check failed" };
    }
    const timestamp = Math.floor((this.deps.securityClock ?? this.deps.clock).now() / 1000);
    const body = this.deps.signBody ? await this.deps.signBody(sub.agencyId, row.body) : row.body;
    const answer = await this.deps.post({
      url: `${base.href.replace(/\/+$/, "")}/24.4/${row.messageName}`,
      messageName: row.messageName,
      webhookId: row.deliveryId,
      timestamp,
      signature: signWebhook(this.deps.subscriptions.secretOf(sub), row.deliveryId, timestamp, body),
      body,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxAnswerBytes: ANSWER_MAX_BYTES,
    });
    if (answer.kind !== "answered") return { status: "retry", error: answer.kind === "timeout" ? "timeout" : "connection failed" };
    if (answer.status >= 200 && answer.status < 300) return { status: "delivered", httpStatus: answer.status };
    // Timeouts, connection errors, 429 (after its Retry-After) and 5xx are retried on the schedule; so is any
    // other answer (a redirect, which is never followed, or a 4xx): the receiver may be misconfigured for a while.
    return { status: "retry", httpStatus: answer.status, error: `HTTP ${answer.status}`, retryAfterMs: answer.retryAfterMs };
  }
}
