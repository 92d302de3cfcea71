import { CHANGE_FEE_BANDS, conditionsFor, fareBrand, type FeeBand } from "@ndc/supply";

/**
 * Fare conditions frozen onto an order (spec 4.7, SHPOR1 rule 1): what the booked brand allowed
 * when the order was made, so a later change of brand policy does not change a sold fare. One
 * entry per direction (journey), outbound first: changeability is judged per direction, and
 * cancel refundability and the whole-order terms come from the outbound one (rule 2).
 */
export interface FrozenAllowance {
  kind: "Checked" | "CarryOn";
  pieces: number;
  kgPerPiece: number;
  /** Passenger types it is granted to (ADT, CHD, INF). */
  paxTypes: string[];
}

export interface DirectionConditions {
  paxJourneyId: string;
  brandCode: string;
  changeable: boolean;
  refundable: boolean;
  cancellable: boolean;
  renameable: boolean;
  /** brand: the brand policy; supplier: the supplier's filed conditions, the policy being unreadable (fare_conditions_supplier). */
  source: "brand" | "supplier";
  /** Absent: the brand states no allowance (SAVER), and neither does the order. */
  allowances?: FrozenAllowance[];
}

export interface FrozenConditions {
  /** booking: written when the order was built; migration: by 0016_freeze_fare_conditions from the booked brand. */
  frozenBy: "booking" | "migration";
  directions: DirectionConditions[];
  /** The change-fee bands in force when frozen (bare integers, fee-bands.ts). */
  changeFeeBands: FeeBand[];
}

/** The conditions a servicing answer uses, and whether they are the order's own or today's policy. */
export interface OrderConditions {
  conditions: Omit<FrozenConditions, "frozenBy">;
  /** frozen: the order's own; current_policy: an order booked before freezing, answered with a warning. */
  basis: "frozen" | "current_policy";
}

/** The conditions of each direction under the brand policy in force now (the supplier's where it cannot be read). */
export function directionConditions(journeys: readonly { paxJourneyId: string; brandCode: string }[]): DirectionConditions[] {
  return journeys.map((j) => {
    const outcome = conditionsFor(j.brandCode);
    const allowance = fareBrand(j.brandCode)?.allowance;
    return {
      paxJourneyId: j.paxJourneyId,
      brandCode: j.brandCode,
      ...outcome.conditions,
      source: outcome.source,
      ...(allowance ? { allowances: allowance.map((a) => ({ kind: a.kind, pieces: a.pieces, kgPerPiece: a.kgPerPiece, paxTypes: [...a.paxTypes] })) } : {}),
    };
  });
}

/** What build-order writes into a new order. */
export function freezeAtBooking(journeys: readonly { paxJourneyId: string; brandCode: string }[]): FrozenConditions {
  return { frozenBy: "booking", directions: directionConditions(journeys), changeFeeBands: CHANGE_FEE_BANDS.map((b) => ({ ...b })) };
}

/**
 * The order's frozen conditions, or, for an order booked before freezing existed that migration
 * 0016 could not freeze (docs/servicing.md), the current policy of its brands, marked as such so
 * every answer that uses them carries the fare_conditions_current_policy warning.
 */
export function conditionsOfOrder(order: { journeys: readonly { paxJourneyId: string; brandCode: string }[]; fareConditions?: FrozenConditions }): OrderConditions {
  if (order.fareConditions) return { conditions: order.fareConditions, basis: "frozen" };
  return { conditions: { directions: directionConditions(order.journeys), changeFeeBands: [...CHANGE_FEE_BANDS] }, basis: "current_policy" };
}
