import type { OrdersContext } from "../context";
import type { OperationKind, OperationRow } from "../operation/store";
import type { Order } from "../state";
import type { CrashPoint } from "./crash-point";

/**
 * A saga declared as its steps, each with its compensation (Medusa's workflow steps are the
 * model, decision 0039), and run by one runner (runner.ts) that owns what every saga did by hand:
 * the opening checks (opening.ts), the steps in order with their crash points, the commit point
 * whose lost answer the order settles, the compensation short of it, the close after it, and the
 * reconciler's recovery (recovery.ts).
 *
 * `R` is the run's state, handed from step to step; `op` is the operation row its first write
 * records (every step after the plan reads what it needs from there, so a retry or the
 * reconciler resumes from the row alone).
 */
export interface SagaStep<R> {
  name: string;
  /** The operation phase the step's one write records: a retry of a row at this phase resumes after it. Absent: the step writes no phase (a call to the PSP). */
  phase?: string;
  invoke(ctx: OrdersContext, run: R): Promise<void>;
  /** Undoes what the step took when a later step short of the commit fails (run in reverse order). */
  compensate?(ctx: OrdersContext, run: R, errorCode: string): Promise<void>;
  /** The step has nothing to do in this run (no legs to authorise): skipped, its crash point too. */
  skip?(run: R): boolean;
  /** The step runs again on a retry of a row at its phase (an open write that moves the row on: writeOpen with the row seen). */
  reopens?: true;
  /** The crash tests' point right after the step. */
  crashAfter?: CrashPoint;
  /** The saga's commit point: once it happened the change is made and the saga only goes forward. */
  commit?: true;
}

export interface SagaKey {
  operationId: string;
  /** What makes a retry the same request; absent for a saga keyed by its quote alone (a cancellation). */
  fingerprint?: string;
}

/** What a retry finding the operation row is answered before any step runs. */
export interface OpeningRules<I, P> {
  /** A row that is no run of this saga (a refusal's stored answer): the steps run as if there were none. */
  ignores?(seen: OperationRow<P>): boolean;
  /** OrderCreate and the payment retry refuse a row live elsewhere before judging the body (their order of checks since issue 8). */
  heldElsewhereFirst?: true;
  /** The refusal of another body under the same ids (default idempotency_conflict). */
  conflict?(seen: OperationRow<P>): Error;
  /** A compensated operation left nothing behind: asked again it runs afresh (its next run), instead of payment_leg_voided. */
  compensatedRunsAgain?: true;
  /** A row short of the commit phase may still be past it (a commit whose answer was lost): the order is asked (`committed`). */
  asksOrder?: true;
  /** A quote spent by another request (quote_already_used, or the cancellation's order_state_invalid). */
  spent?(seen: OperationRow<P>, input: I): Error | undefined;
  /** The fingerprint the row keeps (the plan's for a post-sale charge; the row's by default). */
  fingerprintOf?(seen: OperationRow<P>): string;
  /** The row of a dead process is finished by whoever comes (a cancellation): no request_in_progress for another process's lock. */
  resumesOthers?: true;
  /** The text of payment_leg_voided for a retry of a compensated operation. */
  compensated?(seen: OperationRow<P>): string;
}

export interface Saga<I, P, R extends { op: OperationRow<P> }> {
  kind: OperationKind;
  key(input: I): SagaKey;
  opening: OpeningRules<I, P>;
  /** The run's state: the plan decided from the order as it is (a refusal here leaves nothing), or the row a retry resumes. */
  start(ctx: OrdersContext, input: I, key: SagaKey, seen: OperationRow<P> | undefined): Promise<R>;
  steps: SagaStep<R>[];
  /** Whether the commit happened, when its answer was lost (or for the reconciler): the order says. */
  committed?(ctx: OrdersContext, op: OperationRow<P>): Promise<boolean>;
  /** Past the commit (the request's close, a retry of a committed or done row, the reconciler's way forward); `run` when the request itself just committed. */
  finish(ctx: OrdersContext, op: OperationRow<P>, run?: R): Promise<Order>;
  /** Past the commit for the reconciler, where it differs from the request's close (which may leave a refusal to the reconciler): every failure raised. */
  forward?(ctx: OrdersContext, op: OperationRow<P>): Promise<Order>;
  /** Short of the commit, for the reconciler: what the steps' compensations undo, from the row alone. */
  compensate?(ctx: OrdersContext, op: OperationRow<P>, errorCode: string): Promise<void>;
}
