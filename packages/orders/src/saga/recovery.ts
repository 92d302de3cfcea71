import type { OrdersContext } from "../context";
import type { OperationRow } from "../operation/store";
import type { Saga } from "./declaration";

/**
 * The reconciler's way with a declared saga's row left running by a dead process: past its
 * commit point (the order says) it is finished by the same close the request runs; short of
 * it, compensated from the row alone.
 */
export async function recover<I, P, R extends { op: OperationRow<P> }>(ctx: OrdersContext, saga: Saga<I, P, R>, op: OperationRow<P>): Promise<"finished" | "compensated"> {
  if (!saga.compensate || !saga.committed || (await saga.committed(ctx, op))) {
    await (saga.forward ?? saga.finish)(ctx, op);
    return "finished";
  }
  await saga.compensate(ctx, op, "reconciled");
  return "compensated";
}
