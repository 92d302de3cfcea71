import type { JointAsk } from "@ndc/actors";
import { GatewayError } from "@ndc/errors";
import type { PlannedLeg, SaleAuthorisation } from "@ndc/payments";
import type { OrdersContext } from "../../context";
import { writeOpen, writePhase, type OperationRow } from "../../operation/store";
import type { CrashPoint } from "../../saga/crash-point";
import type { OpeningRules, SagaKey, SagaStep } from "../../saga/declaration";
import { releaseHolds } from "../../saga/holds";
import { phaseWrite } from "../../saga/phase-write";
import type { Order, OrderLegRef } from "../../state";
import { legsTaken } from "../../create/rules";
import { orderFor, type ServicingActor } from "../actor";
import type { LegRequest } from "@ndc/payments";
import type { StoreDb } from "@ndc/store";
import { heldSeats, type ChargeOperation, type ChargePlanCore } from "./operation";

/** A post-sale charge's run: its row, the legs planned under `<op>/authorise`, the PSP's answer once asked. */
export interface ChargeRun<P extends ChargePlanCore> {
  op: OperationRow<P>;
  planned: readonly PlannedLeg[];
  auth?: SaleAuthorisation;
}

/**
 * The steps every post-sale charge takes (an addition, servicing/add/saga.ts; a flight change,
 * servicing/flight/saga.ts), each one write with its recovery point, the PSP called between them
 * under keys written before the call:
 *   1. open: the seats held, the operation row, the planned legs; compensated by freeing the
 *      holds and voiding every leg of the change (or recording the PSP's decline), `compensated`;
 *   2. authorise: each leg authorised under `<op>/authorise` (asked again, the PSP answers the first);
 *   3. commit: a declined authorisation refuses the change; else the saga's own write (`commit`).
 */
export function chargeSteps<P extends ChargePlanCore, R extends ChargeRun<P>>(
  points: { opened: CrashPoint; authorised: CrashPoint; committed: CrashPoint },
  commit: (ctx: OrdersContext, run: R, auth: SaleAuthorisation) => Promise<void>,
): SagaStep<R>[] {
  return [
    {
      name: "open",
      phase: "open",
      invoke: async (ctx, run) => {
        await openChargePhase(ctx, run.op, run.planned);
      },
      compensate: (ctx, run, errorCode) => compensateCharge(ctx, run.op, errorCode, run.auth?.result.status === "declined" ? run.auth : undefined),
      crashAfter: points.opened,
    },
    {
      name: "authorise",
      invoke: async (ctx, run) => {
        run.auth = await ctx.payments.sale.authorise(run.op.orderId, run.op.plan.changeRef, run.planned, `${run.op.operationId}/authorise`, ctx.clock.now());
      },
      crashAfter: points.authorised,
    },
    {
      name: "commit",
      phase: "committed",
      commit: true,
      invoke: async (ctx, run) => {
        const auth = run.auth!;
        if (auth.result.status === "declined") throw new GatewayError(auth.result.code, { detail: "The change was not made; every leg authorised for it was voided." });
        await commit(ctx, run, auth);
      },
      crashAfter: points.committed,
    },
  ];
}

/**
 * How a post-sale charge starts (both sagas): the order as the one asking may see it; the legs
 * taken (a change costing nothing is sent without legs, or with legs of 0.00 that take nothing:
 * `planOf` refuses legs it does not need); the legs planned under `<op>/authorise`; and the row a
 * retry of an open change finds (its keys find the PSP's answers), or the plan decided now.
 */
export function chargeStart<I extends { orderId: string; by: ServicingActor; payment: LegRequest[]; alsoInCommit?: unknown }, P extends ChargePlanCore>(
  planOf: (ctx: OrdersContext, order: Order, input: I, operationId: string, fingerprint: string) => Promise<OperationRow<P>>,
): (ctx: OrdersContext, input: I, key: SagaKey, seen: OperationRow<P> | undefined) => Promise<ChargeRun<P> & { alsoInCommit?: I["alsoInCommit"] }> {
  return async (ctx, input, key, seen) => {
    const order = orderFor(await ctx.orders.ask(input.orderId, { op: "get" }), input.by);
    const payment = legsTaken(input.payment);
    const planned = payment.length ? ctx.payments.sale.plan(payment, `${key.operationId}/authorise`) : [];
    const op = seen ?? (await planOf(ctx, order, { ...input, payment }, key.operationId, key.fingerprint!));
    return { op, planned, ...(input.alsoInCommit ? { alsoInCommit: input.alsoInCommit } : {}) };
  };
}

/** The opening rules of a post-sale charge: its quote spent by another request, the plan's fingerprint, a compensated change's text. */
export function chargeOpening<I extends { correlationId: string; trxId: string }, P extends ChargePlanCore>(o: { quoteSpent(input: I): Error | undefined; compensated(seen: OperationRow<P>): string }): OpeningRules<I, P> {
  return {
    spent: (seen, input) => (seen.request?.correlationId !== input.correlationId || seen.request?.trxId !== input.trxId ? o.quoteSpent(input) : undefined),
    fingerprintOf: (seen) => seen.plan.fingerprint,
    compensated: o.compensated,
  };
}

/** The open write: the seats held (a post-sale hold only has to outlive the saga; the reconciler frees it if the saga dies), the operation row, the planned legs. */
async function openChargePhase<P extends ChargePlanCore>(ctx: OrdersContext, op: OperationRow<P>, planned: readonly PlannedLeg[]): Promise<void> {
  const holds: JointAsk[] = heldSeats(op.plan).map((h) => ctx.inventory.joint.holdSeats({ flightKey: h.flightKey, seatIds: h.seatIds, holder: op.orderId, channel: "ndc", expiresAt: op.createdAt + ctx.paymentTimeLimitMs, holdId: h.holdId }));
  const write = async (tx: StoreDb) => {
    await writeOpen(tx, op, undefined, ctx.instanceId, op.createdAt);
    await ctx.payments.sale.writePlanned(tx, op.orderId, op.plan.changeRef, planned, op.createdAt);
  };
  await phaseWrite(ctx, holds, write, { operationId: op.operationId, otherwise: () => new GatewayError("seat_unavailable", { detail: "(refused by the store)" }) });
}

/**
 * Short of the commit: the change is not made. Its seats' holds are freed, every leg of the
 * change voided (asked about by key first), and one write records the PSP's answers (when the
 * request has them: a decline) with `compensated`. A seat it would have replaced was never touched.
 */
export async function compensateCharge(ctx: OrdersContext, op: ChargeOperation, errorCode: string, declined?: SaleAuthorisation): Promise<void> {
  const holds = heldSeats(op.plan);
  if (holds.length) await releaseHolds(ctx, holds, []);
  const now = ctx.clock.now();
  if (declined) {
    await ctx.store.write(async (tx) => {
      await ctx.payments.sale.record(tx, op.orderId, declined, now);
      await writePhase(tx, op.operationId, op.phase, now, { status: "compensated", errorCode });
    });
    return;
  }
  if (op.plan.legCount > 0) await ctx.payments.voidAll(op.orderId, `${op.operationId}/compensate`, { changeRef: op.plan.changeRef });
  await ctx.store.write((tx) => writePhase(tx, op.operationId, op.phase, now, { status: "compensated", errorCode }));
}

/** Whether the order recorded this change (its commit point). */
export async function chargeCommitted(ctx: OrdersContext, op: ChargeOperation): Promise<boolean> {
  const order = await ctx.orders.ask(op.orderId, { op: "get" });
  return !!order?.charges?.some((c) => c.changeRef === op.plan.changeRef);
}

/** The legs a post-sale charge's commit records on the order, as the PSP authorised them. */
export function authorisedLegs(auth: SaleAuthorisation, changeRef: string): OrderLegRef[] {
  return auth.result.status === "authorised" ? auth.result.legs.map((l) => ({ legId: l.legId, kind: l.kind, amountMinor: l.authorised, state: "authorised", changeRef })) : [];
}
