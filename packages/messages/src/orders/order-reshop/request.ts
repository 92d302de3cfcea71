import type { OriginDestCriterion } from "../../shopping/air-shopping/request";
import type { ResponsePreferences, ServiceCriterion } from "../../shopping/shared/request-types";

/**
 * What an OrderReshopRQ asks (spec 4.7 OrderReshopRQ row), by request form. Each form is read
 * by its own file; forms other helpers serve (UpdateOrder/CancelOrderRef, UpdatePax) are
 * recognised here and left to them.
 */
export type ReshopForm =
  /** ReshopOrder/ServiceOrder/AddOfferItems with OrderCriteria/ServiceCriteria: airline extras (add-services.ts). */
  | { form: "addServices"; serviceCriteria: ServiceCriterion[] }
  /** AddOfferItems with one OriginDestCriteria, one Pax and one SeatCriteria: one seat (add-seat.ts). */
  | { form: "addSeat"; flight: OriginDestCriterion; paxId: string; seat: { row: number; column: string } }
  /** Recognised, not served by this decoder's callers yet. */
  | { form: "other"; choice: string };

export interface OrderReshopRequest {
  orderId: string;
  change: ReshopForm;
  preferences: ResponsePreferences;
}
