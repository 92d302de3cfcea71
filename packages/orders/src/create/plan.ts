import type { PartnerHoldRef, SeatHoldRef } from "../state";

/** The create saga's recovery point: what it has taken or may have taken. No personal data. */
export interface CreatePlan {
  /** SHA-256 of the canonical request: the same ids with another body are refused. */
  fingerprint: string;
  createdAt: number;
  paymentTimeLimit: number;
  seatHolds: SeatHoldRef[];
  partnerHolds: PartnerHoldRef[];
  /** How many payment legs the request carries (0: held unpaid). */
  legCount: number;
}

/** Steps in order; the commit point is `committed` (the order exists from then on). */
export const CREATE_STEPS = ["started", "holding", "held", "authorising", "authorised", "declined", "committed", "done"] as const;
export const SALE_CHANGE_REF = "sale";
