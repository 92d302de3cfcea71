import type { ErrorCode } from "@ndc/errors";
import type { HoldableValue, HoldRecord, HoldRequest, Keeps } from "./types";

/**
 * What makes one holdable stock differ from another: what a hold takes and how it is found
 * free, the refusal codes, and the query. The lifecycle (hold, sell, confirm, release, expire,
 * a replayed hold id) is decideHoldable's, once for every stock.
 *
 * V: the stock's value; C: what a hold takes; R: what a hold request names; H: a hold as callers
 * see it; Q: the query's op; QR: the query's reply.
 */
export interface HoldableShape<V extends HoldableValue<C>, C, R, H, Q extends string, QR> {
  /** The query op (availability, stock): the one command that is neither a hold nor a lifecycle step. */
  queryOp: Q;
  /** A hold id unknown to this stock, or released; a hold past its expiry. */
  holdNotFound: ErrorCode;
  holdExpired: ErrorCode;
  /** The actor's key as refusals name it (the flight key, the product code). */
  keyOf(value: V): string;
  /** Refuses a malformed request (throws), before the shared channel and expiry checks. */
  checkRequest(request: HoldRequest<R>): void;
  /** Refuses a hold on a key the supply does not know (throws). */
  checkExists(value: V): void;
  /** A replayed hold id that names another claim: the refusal's detail; undefined when it is the same. */
  replayConflict(existing: HoldRecord<C>, request: HoldRequest<R>): string | undefined;
  /**
   * What a new hold takes, or a refusal (throws). `value` is the stock as it is; `fresh` the same
   * after its lapsed holds expire, which the new hold's transaction records first.
   */
  take(value: V, fresh: V, request: HoldRequest<R>): C;
  /**
   * The claim of the part of `hold` that `keeps` names (a release that keeps the rest), or a
   * refusal (throws). Absent: this stock's holds are not split (a partner unit is one unit).
   */
  kept?(hold: HoldRecord<C>, keeps: Keeps): C;
  /** Evolve: index a new hold's claim; and free it when the hold is released or expires. */
  claim(value: V, hold: HoldRecord<C>): V;
  free(value: V, hold: HoldRecord<C>): V;
  /** A hold as callers see it. */
  answer(value: V, hold: HoldRecord<C>): H;
  query(value: V, now: number): QR;
}
