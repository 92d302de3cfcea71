import { GatewayError } from "@ndc/errors";
import type { OrdersContext } from "../context";
import type { OperationRow } from "../operation/store";
import { notFound, type Order } from "../state";
import type { Saga, SagaKey } from "./declaration";
import { claimIfReleased, refuseIfHeldElsewhere } from "./held-elsewhere";

/**
 * The checks every saga made by hand when a retry finds its operation row, in one order: a quote
 * spent by another request, another body under the same ids (idempotency_conflict), a row live
 * under another process's lock, a row its process released claimed for this one (or
 * request_in_progress when another process claimed it first), a compensated change
 * (payment_leg_voided: no late charge under a voided reference); then a done or committed row is
 * answered by the saga's close. Returns
 * the answer, or undefined when the steps are to run (no row, or one short of its commit).
 */
export async function openingChecks<I, P, R extends { op: OperationRow<P> }>(ctx: OrdersContext, saga: Saga<I, P, R>, input: I, key: SagaKey, seen: OperationRow<P> | undefined): Promise<Order | undefined> {
  if (!seen) return undefined;
  const o = saga.opening;
  if (o.heldElsewhereFirst) refuseIfHeldElsewhere(ctx, seen);
  const spent = o.spent?.(seen, input);
  if (spent) throw spent;
  if (key.fingerprint !== undefined && (o.fingerprintOf?.(seen) ?? seen.fingerprint) !== key.fingerprint) throw o.conflict?.(seen) ?? new GatewayError("idempotency_conflict");
  if (!o.resumesOthers && !o.heldElsewhereFirst) refuseIfHeldElsewhere(ctx, seen);
  await claimIfReleased(ctx, seen);
  if (seen.status === "compensated") {
    if (o.compensatedRunsAgain) return undefined;
    throw new GatewayError("payment_leg_voided", { detail: o.compensated?.(seen) ?? `This change was not made (${seen.errorCode ?? "compensated"}).` });
  }
  if (seen.status === "done" || seen.phase === commitPhaseOf(saga) || (o.asksOrder && (await saga.committed?.(ctx, seen)))) return saga.finish(ctx, seen);
  return undefined;
}

/** The phase the saga's commit step records. */
export function commitPhaseOf<I, P, R extends { op: OperationRow<P> }>(saga: Saga<I, P, R>): string | undefined {
  return saga.steps.find((s) => s.commit)?.phase;
}

export async function currentOrder(ctx: OrdersContext, orderId: string): Promise<Order> {
  const order = await ctx.orders.ask(orderId, { op: "get" });
  if (!order) throw notFound();
  return order;
}
