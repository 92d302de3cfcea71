import type { PartnerHoldRef, SeatHoldRef } from "../state";

/** The create saga's recovery point: what it has taken or may have taken. No personal data. */
export interface CreatePlan {
  /** SHA-256 of the canonical request: the same ids with another body are refused. */
  fingerprint: string;
  /**
   * The request's CorrelationID and TrxID (the seller is the saga's owner): the reconciler's
   * settling mark releases the lock a dead request left on them. Absent on sagas started before.
   */
  request?: { correlationId: string; trxId: string };
  /**
   * Which run of the saga this is (absent: 1). A compensated saga runs again when the same ids
   * come back unanswered; hold ids, payment keys and the order id are the run's (ids.createAttempt).
   */
  attempt?: number;
  createdAt: number;
  paymentTimeLimit: number;
  seatHolds: SeatHoldRef[];
  partnerHolds: PartnerHoldRef[];
  /** How many payment legs the request carries (0: held unpaid). */
  legCount: number;
}

/**
 * Steps the saga row records, in order; the commit point is `committed` (the order exists from
 * then on, and the order's commit writes it). Rows written before issue 8 may also name
 * `started`, `held`, `authorising`, `authorised` or `declined`: the reconciler reads only the
 * status and whether the order exists, so they are settled the same way.
 */
export const CREATE_STEPS = ["holding", "committed", "done"] as const;
export const SALE_CHANGE_REF = "sale";
