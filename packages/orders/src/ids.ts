import { createHash } from "node:crypto";

/** The post-sale changes that pay, refund or keep value under a reference of their own (the sale's is SALE_CHANGE_REF, create/plan.ts). */
export type ChangeRefKind = "addition" | "flightChange" | "itemsCancellation" | "retainedLapse" | "paymentRetry" | "rename";

const CHANGE_REF_PREFIX: Record<Exclude<ChangeRefKind, "rename">, string> = {
  addition: "add",
  flightChange: "chg",
  itemsCancellation: "cxi",
  retainedLapse: "rvl",
  paymentRetry: "retry",
};

const digest = (parts: readonly string[]) => createHash("sha256").update(parts.join("\u0000")).digest("hex").toUpperCase();

/**
 * Ids derived from what identifies the work, so a retried or recovered step finds what the
 * first attempt took instead of taking it twice (a hold, a leg, the order itself).
 */
export const ids = {
  createSaga: (clientId: string, correlationId: string, trxId: string) => `SGC${digest([clientId, correlationId, trxId]).slice(0, 24)}`,
  /**
   * The n-th run of a create saga: a compensated saga run again (its first run left nothing) may
   * not reuse a released hold or a voided leg's key. Run 1 is the saga id itself, so the ids of
   * a first run are what they always were.
   */
  createAttempt: (sagaId: string, attempt: number) => (attempt > 1 ? `${sagaId}-${attempt}` : sagaId),
  /** A post-sale change (servicing/add), keyed like OrderCreate by the seller's request ids (the order is in its fingerprint). */
  addSaga: (clientId: string, correlationId: string, trxId: string) => `SGA${digest([clientId, correlationId, trxId]).slice(0, 24)}`,
  /** A flight change (servicing/flight/saga.ts), keyed by its quote: a quote is spent once. */
  flightChangeSaga: (quoteId: string) => `SGF${digest(["flight", quoteId]).slice(0, 24)}`,
  /** One cancellation per order: every retry of its commit, whatever its TrxID, is the same operation. */
  cancelSaga: (orderId: string) => `SGX${digest(["cancel", orderId]).slice(0, 24)}`,
  /** An items cancellation (cancel/items-saga.ts), keyed by its quote: a quote is spent once, whatever TrxID retries it. */
  cancelItemsSaga: (quoteId: string) => `SGI${digest(["cancel-items", quoteId]).slice(0, 24)}`,
  /** A retained value's lapse (cancel/retained-lapse.ts), keyed by the retention it ends: a repeat of the sweep is the same operation. */
  retainedLapseSaga: (orderId: string, retentionRef: string) => `SGV${digest(["retained-lapse", orderId, retentionRef]).slice(0, 24)}`,
  /** The hold the other seats of a shared hold stay sold under when one of them is released (an items cancellation, a seat change). */
  keptSeatHold: (operationId: string, releasedHoldId: string) => `SH-${digest(["kept", operationId, releasedHoldId]).slice(0, 20)}`,
  /** A name correction (servicing/rename), keyed by the seller's request ids. */
  renameSaga: (clientId: string, correlationId: string, trxId: string) => `SGN${digest([clientId, correlationId, trxId]).slice(0, 24)}`,
  /**
   * A change's reference, which its legs, its charge and its history entries carry: the kind's
   * prefix and the start of its operation's digest (the saga prefix dropped). A name correction's
   * is its operation id whole. Journals and ledgers store these: the forms never change.
   */
  changeRef: (kind: ChangeRefKind, operationId: string) => (kind === "rename" ? operationId : `${CHANGE_REF_PREFIX[kind]}-${operationId.slice(3, 15)}`),
  retrySaga: (orderId: string, key: string) => `SGR${digest([orderId, key]).slice(0, 24)}`,
  order: (sagaId: string) => `ORD-${digest(["order", sagaId]).slice(0, 12)}`,
  seatHold: (sagaId: string, flightKey: string) => `SH-${digest(["seat", sagaId, flightKey]).slice(0, 20)}`,
  partnerHold: (sagaId: string, code: string) => `PH-${digest(["partner", sagaId, code]).slice(0, 20)}`,
  orderItem: (orderId: string, offerItemId: string) => `${orderId}-${digest([offerItemId]).slice(0, 8)}`,
  document: (orderId: string, paxId: string, index: number) => `DOC${digest([orderId, paxId, String(index)]).slice(0, 20)}`,
};
