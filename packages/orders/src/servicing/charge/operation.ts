import type { OperationRow } from "../../operation/store";
import type { SeatHoldRef } from "../../state";

/** What every post-sale charge's plan (an addition's, a flight change's) names for the steps its saga shares (steps.ts, close.ts). */
export interface ChargePlanCore {
  fingerprint: string;
  changeRef: string;
  legCount: number;
  /** The seats held in the open write, sold in the commit, freed by the compensation. */
  seatHolds?: SeatHoldRef[];
  /**
   * An addition's one seat as plans written before issue 21 name it (a running gateway's row is
   * recovered after an upgrade): read through `heldSeats`, never written.
   */
  seatHold?: SeatHoldRef;
}

/** What the close and the compensation read (a retained value's lapse, cancel/retained-lapse.ts, closes as a flight change does, with no request to fingerprint). */
export type ChargeOperation<P extends Omit<ChargePlanCore, "fingerprint"> = Omit<ChargePlanCore, "fingerprint">> = OperationRow<P>;

/** The seats a charge's plan holds, in either form a plan was written. */
export function heldSeats(plan: Pick<ChargePlanCore, "seatHolds" | "seatHold">): SeatHoldRef[] {
  return plan.seatHolds ?? (plan.seatHold ? [plan.seatHold] : []);
}
