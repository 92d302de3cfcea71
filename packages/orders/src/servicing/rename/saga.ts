import { createHash } from "node:crypto";
import { GatewayError } from "@ndc/errors";
import { judgeChange, type Allowance } from "../../conditions/flexibility";
import type { OrdersContext } from "../../context";
import { ids } from "../../ids";
import { writeOpen, writePhase, type OperationRow, type RequestKey } from "../../operation/store";
import type { Saga } from "../../saga/declaration";
import { currentOrder } from "../../saga/opening";
import { phaseWrite } from "../../saga/phase-write";
import { runSaga } from "../../saga/runner";
import { refuseUnlessMove, type Order } from "../../state";
import type { OrderCommand } from "../../actor/commands";
import { orderAsk } from "../../actor/joint";
import { isStaff, orderFor, type AlsoInCommit, type ServicingActor } from "../actor";
import { appendOverride } from "../override/audit";
import type { PaxName } from "./name";

export interface RenameInput {
  orderId: string;
  /** Who asks: a seller over NDC (a machine channel: the fare can refuse it; ownership checked), or the airline's staff in process (never refused by the fare: SHPOR1 rule 4). */
  by: ServicingActor;
  request: RequestKey;
  /** The passenger of the order whose name is corrected (UpdatePax/Current). */
  paxId: string;
  name: PaxName;
  /** The request asks to use the order's Flexibility service if the fare does not allow the rename. */
  useFlexibility: boolean;
  /** A write of the caller's that commits with the rename or not at all (a signed request's evidence, the staff audit row), told what the commit made. */
  alsoInCommit?: AlsoInCommit;
}

/** The operation's plan: which passenger, never the name itself (no personal data in operations). */
interface RenamePlan {
  paxId: string;
  /** How the rename was allowed (conditions/flexibility.ts judgeChange). */
  allowedBy: Allowance["by"];
  flexibilityItemId?: string;
  /** The fare rule the airline's staff overrode (also in the servicing_overrides audit trail). */
  overridden?: string;
}

/**
 * OrderChangeRQ UpdatePax: a passenger's name corrected (spec 4.7, issue 9 item 5). Allowed
 * where the outbound direction's frozen fare is renameable (SHPOR1 rules 1 and 2), or where the
 * request asks to use the order's unspent Flexibility service (spent in this same write);
 * refused with fare_not_renameable otherwise. No money moves, so it is a saga of ONE step: the
 * order's `pax_updated` event and its operation row (kind `order_rename`, done) in one
 * transaction. The operation id comes from the seller's request ids, so a retry answers the
 * order without writing again (the runner's opening checks).
 */
export async function renamePax(ctx: OrdersContext, input: RenameInput): Promise<Order> {
  orderFor(await ctx.orders.ask(input.orderId, { op: "get" }), input.by);
  return runSaga(ctx, renameSaga, input);
}

interface RenameRun {
  op: OperationRow<RenamePlan>;
  command: OrderCommand;
  override?: { staffId: string; ruleCode: string };
  allowance: Allowance;
  alsoInCommit?: AlsoInCommit;
}

const renameSaga: Saga<RenameInput, RenamePlan, RenameRun> = {
  kind: "order_rename",
  key: (input) => ({
    operationId: ids.renameSaga(input.request.clientId, input.request.correlationId, input.request.trxId),
    // Hashed: the operations table holds no personal data, and the name is.
    fingerprint: createHash("sha256").update(`${input.orderId}|${input.paxId}|${JSON.stringify(input.name)}|${input.useFlexibility}`).digest("hex"),
  }),
  opening: {},
  start: async (ctx, input, key) => {
    const order = (await ctx.orders.ask(input.orderId, { op: "get" }))!;
    refuseUnlessMove(order.state, "pax_updated");
    if (!order.passengers.some((p) => p.paxId === input.paxId)) {
      throw new GatewayError("request_invalid", { detail: "UpdatePax/Current names no passenger of the order.", element: "Request/ChangeOrderChoice/UpdatePax/Current/PaxRefID" });
    }
    // A name is the whole order's: judged on the outbound direction (SHPOR1 rule 2).
    const allowance = judgeChange(order, "rename", { useFlexibility: input.useFlexibility, airline: isStaff(input.by) });
    const override = allowance.overridden && isStaff(input.by) ? { staffId: input.by.staffId, ruleCode: allowance.overridden.ruleCode } : undefined;
    const now = ctx.clock.now();
    const operationId = key.operationId;
    const op: OperationRow<RenamePlan> = {
      operationId, kind: "order_rename", request: input.request, fingerprint: key.fingerprint!, orderId: input.orderId, owner: order.owner,
      phase: "done", status: "done", plan: { paxId: input.paxId, allowedBy: allowance.by, ...(allowance.flexibilityItemId ? { flexibilityItemId: allowance.flexibilityItemId } : {}), ...(override ? { overridden: override.ruleCode } : {}) }, createdAt: now, updatedAt: now,
    };
    const command: OrderCommand = { op: "updatePax", changeRef: ids.changeRef("rename", operationId), paxId: input.paxId, name: input.name, ...(allowance.flexibilityItemId ? { flexibilityItemId: allowance.flexibilityItemId } : {}), ...(override ? { override } : {}), ...(isStaff(input.by) ? { staffId: input.by.staffId } : {}) };
    return { op, command, allowance, ...(override ? { override } : {}), ...(input.alsoInCommit ? { alsoInCommit: input.alsoInCommit } : {}) };
  },
  steps: [
    {
      name: "commit",
      phase: "done",
      commit: true,
      // The rename, its row (done at once), the override's audit row and the caller's write: one transaction.
      invoke: async (ctx, { op, command, override, allowance, alsoInCommit }) => {
        const now = op.createdAt;
        await phaseWrite(ctx, [orderAsk(ctx, op.orderId, command)], async (tx) => {
          await writeOpen(tx, op, undefined, ctx.instanceId, now);
          await writePhase(tx, op.operationId, "done", now, { status: "done" });
          // The override is recorded exactly when the change is made: in its own write.
          if (override && allowance.overridden) {
            await appendOverride(tx, { at: now, staffId: override.staffId, channel: "airline_staff", orderId: op.orderId, operationId: op.operationId, ...allowance.overridden });
          }
          await alsoInCommit?.(tx, { operationId: op.operationId, allowedBy: allowance.by, ...(allowance.overridden ? { override: allowance.overridden } : {}), ...(allowance.flexibilityItemId ? { flexibilityItemId: allowance.flexibilityItemId } : {}) });
        });
      },
    },
  ],
  finish: (ctx, op) => currentOrder(ctx, op.orderId),
};
