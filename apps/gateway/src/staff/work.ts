import { isRegistryError, listClients, resumeClient, suspendClient } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import { listReconcileFailed, resolveReconcileFailed } from "@ndc/orders";
import { appendAudit, claimsOf, recordAudit, statedReason, takeItem } from "@ndc/staff";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";

/**
 * The console's work queue of reconcile_failed items (spec 3, through @ndc/orders' reconcile
 * failures, the same rules as `ndc-gateway reconcile-failed`) and its seller switch (suspend and
 * resume through @ndc/auth's registry, effective on the seller's next call). Each change commits
 * with its audit row.
 */

const iso = (ms: number) => new Date(ms).toISOString();

export async function reconcileQueue(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "queue.read", { action: "queue.view" });
  const now = deps.clock.now();
  const [items, claims] = await Promise.all([listReconcileFailed(deps.store), claimsOf(deps.store.db, "reconcile_failed")]);
  await recordAudit(deps.store, { ...who(caller), at: now, action: "queue.view", outcome: "ok", detail: `reconcile_failed: ${items.length} open` });
  return {
    items: items.map((i) => ({
      operationId: i.operationId, kind: i.kind, ...(i.orderId ? { orderId: i.orderId } : {}), phase: i.phase, attempts: i.attempts, lastError: i.lastError,
      raisedAt: iso(i.raisedAt), ageSeconds: Math.max(0, Math.floor((now - i.raisedAt) / 1000)),
      ...(claims.has(i.operationId) ? { takenBy: claims.get(i.operationId)!.username, takenAt: iso(claims.get(i.operationId)!.takenAt) } : {}),
    })),
  };
}

/** Take an item (it shows who took it), from whoever held it: the audit row names them, in the same write. */
export async function takeReconcileItem(deps: StaffDeps, caller: StaffCaller, operationId: string) {
  await requireRight(deps, caller, "queue.resolve", { action: "queue.take" });
  const item = (await listReconcileFailed(deps.store)).find((i) => i.operationId === operationId);
  if (!item) throw new GatewayError("staff_target_not_found", { element: "operationId" });
  const now = deps.clock.now();
  await deps.store.write(async (tx) => {
    const before = await takeItem(tx, "reconcile_failed", operationId, caller.session, now);
    const from = before && before.staffId !== caller.session.staffId ? `; taken from ${before.username}` : "";
    await appendAudit(tx, { ...who(caller), at: now, action: "queue.take", outcome: "ok", ...(item.orderId ? { orderId: item.orderId } : {}), detail: `reconcile_failed ${operationId}${from}` });
  });
  return { operationId, takenBy: caller.session.username, takenAt: iso(now) };
}

/** Mark an item resolved: `retry` (the cause is fixed: the reconciler tries again) or `close` (settled outside the gateway), with a note. */
export async function resolveReconcileItem(deps: StaffDeps, caller: StaffCaller, operationId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "queue.resolve", { action: "reconcile_failed.resolve" });
  const resolution = body.resolution === "retry" ? "retry" : body.resolution === "close" ? "closed" : undefined;
  if (!resolution) throw new GatewayError("request_invalid", { detail: "resolution is retry or close.", element: "resolution" });
  const { reason: note } = statedReason(body, false, "note");
  const item = (await listReconcileFailed(deps.store)).find((i) => i.operationId === operationId);
  if (!item) throw new GatewayError("staff_target_not_found", { element: "operationId" });
  const now = deps.clock.now();
  await resolveReconcileFailed(deps.store, operationId, resolution, caller.session.username, note, now, (tx) =>
    appendAudit(tx, { ...who(caller), at: now, action: "reconcile_failed.resolve", outcome: "ok", ...(item.orderId ? { orderId: item.orderId } : {}), reason: note, detail: `${operationId} ${resolution}` }),
  );
  return { operationId, resolution: resolution === "closed" ? "close" : "retry", resolvedAt: iso(now) };
}

export async function sellers(deps: StaffDeps, caller: StaffCaller) {
  await requireRight(deps, caller, "sellers.read", { action: "sellers.view" });
  const clients = await listClients(deps.store);
  await recordAudit(deps.store, { ...who(caller), at: deps.clock.now(), action: "sellers.view", outcome: "ok", detail: `${clients.length} clients` });
  return { clients: clients.map((c) => ({ clientId: c.clientId, name: c.name, agencyId: c.agencyId, scopes: c.scopes, suspended: c.suspended, createdAt: iso(c.createdAt) })) };
}

/** Suspend (every token refused from the seller's next call) or resume (the seller fetches a new token), with a reason. */
export async function switchSeller(deps: StaffDeps, caller: StaffCaller, clientId: string, to: "suspend" | "resume", body: Record<string, unknown>) {
  const action = to === "suspend" ? "seller.suspend" : "seller.resume";
  await requireRight(deps, caller, "sellers.suspend", { action });
  const { reason } = statedReason(body, false);
  const now = deps.clock.now();
  const audit = (tx: Parameters<typeof appendAudit>[0]) => appendAudit(tx, { ...who(caller), at: now, action, outcome: "ok", reason, detail: `client ${clientId}` });
  try {
    if (to === "suspend") await suspendClient(deps.store, clientId, now, audit);
    else await resumeClient(deps.store, clientId, now, audit);
  } catch (e) {
    if (isRegistryError(e) && e.code === "unknown_client") throw new GatewayError("staff_target_not_found", { element: "clientId" });
    throw e;
  }
  return { clientId, suspended: to === "suspend" };
}
