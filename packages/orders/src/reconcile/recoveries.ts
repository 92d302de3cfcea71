import { cancelSaga } from "../cancel/saga";
import { cancelItemsSaga } from "../cancel/items-saga";
import { lapseSaga } from "../cancel/retained-lapse";
import type { OrdersContext } from "../context";
import { createSaga } from "../create/saga";
import type { OperationKind, OperationRow } from "../operation/store";
import { retrySaga } from "../payment/retry";
import type { Saga } from "../saga/declaration";
import { recover } from "../saga/recovery";
import { addSaga } from "../servicing/add/saga";
import { flightChangeSaga } from "../servicing/flight/saga";

type Recovery = (ctx: OrdersContext, op: OperationRow<unknown>) => Promise<"finished" | "compensated">;

/** The row is the saga's own kind: read as its plan. */
const by = <I, P, R extends { op: OperationRow<P> }>(saga: Saga<I, P, R>): Recovery => (ctx, op) => recover(ctx, saga, op as OperationRow<P>);

/**
 * How the reconciler recovers each kind of operation: through its saga's declaration (finished
 * past its commit point, compensated short of it: saga/recovery.ts). A rename is done in the
 * write that opens it, so it is never left running.
 */
export const RECOVERIES: Partial<Record<OperationKind, Recovery>> = {
  order_create: by(createSaga),
  payment_retry: by(retrySaga),
  order_add: by(addSaga),
  order_change_flight: by(flightChangeSaga),
  order_cancel: by(cancelSaga),
  order_cancel_items: by(cancelItemsSaga),
  order_retained_lapse: by(lapseSaga),
};
