import { isRegistryError, listAgencies, listClients, resumeClient, rotateSecret, suspendClient } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { listReconcileFailed, resolveReconcileFailed, settleReconcileFailed } from "@ndc/orders";
import { failedDeliveries, redeliverFailed } from "@ndc/notifications";
import { appendAudit, claimsOf, recordAudit, statedReason, takeItem, type Claim, type StaffQueue } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { openClearance } from "./clearances";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * The console's work queues: reconcile_failed items (spec 3, through @ndc/orders' reconcile
 * failures, the same rules as `ndc-gateway reconcile-failed`) and notification deliveries whose
 * retries ran out (through @ndc/notifications); and its seller switch (suspend and resume through
 * @ndc/auth's registry, effective on the seller's next call). Each change commits with its audit row.
 */

const iso = (ms: number) => new Date(ms).toISOString();
const taken = (c: Claim | undefined) => (c ? { takenBy: c.username, takenAt: iso(c.takenAt) } : {});

/** The queues by the name their paths use. */
export const QUEUE_OF_PATH: Record<string, StaffQueue> = { "reconcile-failed": "reconcile_failed", "failed-deliveries": "failed_deliveries", "unclear-clearances": "unclear_clearances" };

/** An open item of a queue (its order, for the audit), or undefined. */
async function openItem(deps: StaffDeps, queue: StaffQueue, itemId: string): Promise<{ orderId?: string } | undefined> {
  if (queue === "unclear_clearances") return openClearance(deps, itemId);
  const found =
    queue === "reconcile_failed"
      ? (await listReconcileFailed(deps.store)).find((i) => i.operationId === itemId)
      : (await failedDeliveries(deps.store.db, { deliveryId: itemId }))[0];
  if (!found) return undefined;
  return found.orderId ? { orderId: found.orderId } : {};
}

export async function reconcileQueue(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "queue.read", { action: "queue.view" });
  const now = deps.clock.now();
  const [items, claims] = await Promise.all([listReconcileFailed(deps.store), claimsOf(deps.store.db, "reconcile_failed")]);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: now, action: "queue.view", outcome: "ok", detail: `reconcile_failed: ${items.length} open` });
  return {
    items: items.map((i) => ({
      operationId: i.operationId, kind: i.kind, ...(i.orderId ? { orderId: i.orderId } : {}), phase: i.phase, attempts: i.attempts, lastError: i.lastError,
      raisedAt: iso(i.raisedAt), ageSeconds: Math.max(0, Math.floor((now - i.raisedAt) / 1000)),
      ...taken(claims.get(i.operationId)),
    })),
  };
}

/** Take an item of a queue (it shows who took it), from whoever held it: the audit row names them, in the same write. */
export async function takeWorkItem(deps: StaffDeps, caller: StaffCaller, queue: StaffQueue, itemId: string) {
  await requireRight(deps, caller, "queue.resolve", { action: "queue.take" });
  const item = await openItem(deps, queue, itemId);
  if (!item) throw new GatewayError("staff_target_not_found", { element: "itemId" });
  const now = deps.clock.now();
  await deps.store.write(async (tx) => {
    const before = await takeItem(tx, queue, itemId, caller.session, now);
    const from = before && before.staffId !== caller.session.staffId ? `; taken from ${before.username}` : "";
    await appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "queue.take", outcome: "ok", ...item, detail: `${queue} ${itemId}${from}` });
  });
  return { itemId, takenBy: caller.session.username, takenAt: iso(now) };
}

/** Deliveries that ran out of retries, with their age and who took them. */
export async function deliveriesQueue(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "queue.read", { action: "queue.view" });
  const now = deps.clock.now();
  const [items, claims] = await Promise.all([failedDeliveries(deps.store.db), claimsOf(deps.store.db, "failed_deliveries")]);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: now, action: "queue.view", outcome: "ok", detail: `failed_deliveries: ${items.length} open` });
  return {
    items: items.map((d) => ({
      deliveryId: d.deliveryId, subscriptionId: d.subscriptionId, agencyId: d.agencyId, url: d.url, event: d.event, message: d.messageName,
      ...(d.orderId ? { orderId: d.orderId } : {}), attempts: d.attempts,
      ...(d.lastHttpStatus !== undefined ? { lastHttpStatus: d.lastHttpStatus } : {}), ...(d.lastError ? { lastError: d.lastError } : {}),
      failedAt: iso(d.failedAt), ageSeconds: Math.max(0, Math.floor((now - d.failedAt) / 1000)),
      ...taken(claims.get(d.deliveryId)),
    })),
  };
}

/** Redeliver a failed delivery (once the seller's endpoint is fixed), with a note: the same webhook-id and body, due now. */
export async function redeliverItem(deps: StaffDeps, caller: StaffCaller, deliveryId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "queue.resolve", { action: "delivery.redeliver" });
  const { reason: note } = statedReason(body, false, "note");
  const item = await openItem(deps, "failed_deliveries", deliveryId);
  const now = deps.clock.now();
  const done =
    item !== undefined &&
    (await redeliverFailed(deps.store, deliveryId, now, (tx) => appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "delivery.redeliver", outcome: "ok", ...item, reason: note, detail: `delivery ${deliveryId}` })));
  if (!done) throw new GatewayError("staff_target_not_found", { element: "deliveryId" });
  return { deliveryId, status: "pending", nextAttemptAt: iso(now) };
}

/**
 * Resolve an item with a note: `retry` (the cause is fixed: the reconciler tries again), `close`
 * (settled outside the gateway), or `capture` / `void` (staff capture or void the legs of the change
 * it pays for, through the payments path: @ndc/orders settleReconcileFailed). The audit row commits
 * in the resolution's own write.
 */
export async function resolveReconcileItem(deps: StaffDeps, caller: StaffCaller, operationId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "queue.resolve", { action: "reconcile_failed.resolve" });
  const asked = typeof body.resolution === "string" ? body.resolution : "";
  if (!["retry", "close", "capture", "void"].includes(asked)) throw new GatewayError("request_invalid", { detail: "resolution is retry, close, capture or void.", element: "resolution" });
  const { reason: note } = statedReason(body, false, "note");
  const item = (await listReconcileFailed(deps.store)).find((i) => i.operationId === operationId);
  if (!item) throw new GatewayError("staff_target_not_found", { element: "operationId" });
  const now = deps.clock.now();
  const audit = (what: string) => (tx: Parameters<typeof appendAudit>[0]) =>
    appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "reconcile_failed.resolve", outcome: "ok", ...(item.orderId ? { orderId: item.orderId } : {}), reason: note, detail: `${operationId} ${what}` });
  if (asked === "capture" || asked === "void") {
    const legs = await settleReconcileFailed(deps.orders.ctx, operationId, asked, caller.session.username, note, audit(asked === "capture" ? "captured" : "voided"));
    return { operationId, resolution: asked, resolvedAt: iso(now), legs: legs.map((l) => ({ legId: l.legId, kind: l.kind, state: l.state })) };
  }
  const resolution = asked === "retry" ? "retry" : "closed";
  await resolveReconcileFailed(deps.store, operationId, resolution, caller.session.username, note, now, audit(resolution));
  return { operationId, resolution: asked, resolvedAt: iso(now) };
}

export async function sellers(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "sellers.read", { action: "sellers.view" });
  const [clients, agencies] = await Promise.all([listClients(deps.store), listAgencies(deps.store)]);
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "sellers.view", outcome: "ok", detail: `${agencies.length} agencies, ${clients.length} clients` });
  return {
    agencies: agencies.map((a) => ({ agencyId: a.agencyId, iataNumber: a.iataNumber, name: a.name, active: a.active })),
    clients: clients.map((c) => ({ clientId: c.clientId, name: c.name, agencyId: c.agencyId, scopes: c.scopes, aggregatorAgencies: c.aggregatorAgencies, suspended: c.suspended, createdAt: iso(c.createdAt) })),
  };
}

/** Suspend (every token refused from the seller's next call) or resume (the seller fetches a new token), with a reason. */
export async function switchSeller(deps: StaffDeps, caller: StaffCaller, clientId: string, to: "suspend" | "resume", body: Record<string, unknown>) {
  const action = to === "suspend" ? "seller.suspend" : "seller.resume";
  await requireRight(deps, caller, "sellers.suspend", { action });
  const { reason } = statedReason(body, false);
  const now = deps.clock.now();
  const audit = (tx: Parameters<typeof appendAudit>[0]) => appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action, outcome: "ok", reason, detail: `client ${clientId}` });
  try {
    if (to === "suspend") await suspendClient(deps.store, clientId, now, audit);
    else await resumeClient(deps.store, clientId, now, audit);
  } catch (e) {
    if (isRegistryError(e) && e.code === "unknown_client") throw new GatewayError("staff_target_not_found", { element: "clientId" });
    throw e;
  }
  return { clientId, suspended: to === "suspend" };
}

/**
 * A new client secret (the old one and every token under it refused from the next call), returned
 * once to the caller: never stored in clear, never on the audit trail (which records the generation).
 */
export async function rotateSellerSecret(deps: StaffDeps, caller: StaffCaller, clientId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "sellers.rotate", { action: "seller.rotate" });
  const { reason } = statedReason(body, false);
  const now = deps.clock.now();
  try {
    const issued = await rotateSecret(deps.store, clientId, now, (tx, gen) => appendAudit(tx, deps.auditChain, { ...who(caller), at: now, action: "seller.rotate", outcome: "ok", reason, detail: `client ${clientId} secret generation ${gen}` }));
    return { clientId, clientSecret: issued.clientSecret, secretGeneration: issued.secretGeneration };
  } catch (e) {
    if (isRegistryError(e) && e.code === "unknown_client") throw new GatewayError("staff_target_not_found", { element: "clientId" });
    throw e;
  }
}
