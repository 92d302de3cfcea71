import type { OriginDestCriterion } from "../../shopping/air-shopping/request";
import type { ResponsePreferences, ServiceCriterion } from "../../shopping/shared/request-types";

/**
 * What an OrderReshopRQ asks (spec 4.7 OrderReshopRQ row), by request form. Each form read is
 * decoded by its own file (decode.ts dispatches); forms not read here are named so the handler
 * refuses them clearly instead of answering something else.
 */
export type ReshopForm =
  /** UpdateOrder/CancelOrderRef: a quote to cancel the whole order (cancel-order-ref.ts; 24.4 names no items here). */
  | { form: "cancelOrder" }
  /** ReshopOrder/ServiceOrder/AddOfferItems with OrderCriteria/ServiceCriteria: airline extras (add-services.ts). */
  | { form: "addServices"; serviceCriteria: ServiceCriterion[] }
  /** AddOfferItems with one OriginDestCriteria, one Pax and one SeatCriteria: one seat (add-seat.ts). */
  | { form: "addSeat"; flight: OriginDestCriterion; paxId: string; seat: { row: number; column: string } }
  /** ServiceOrder with DeleteOrderItem (the order's flight items) and AddOfferItems/FlightRequest (one OriginDestCriteria per direction replaced): a flight change (change-flight.ts). */
  | { form: "changeFlight"; orderItemIds: string[]; flights: { origin: string; destination: string; date: string }[]; at: string }
  /** ServiceOrder with DeleteOrderItem alone: a quote to cancel those items (cancel-items.ts); `at` the element named in refusals. */
  | { form: "cancelItems"; orderItemIds: string[]; at: string; /** RespendInd true: the amount is retained for a following change, not refunded. */ respend: boolean }
  /** DeleteOrderItem anywhere else in ReshopOrder: not a form 24.4 gives a meaning here, refused. */
  | { form: "deleteItems" }
  /** Any other ReshopOrder choice (UpdatePax, UpdatePaxName): recognised, not served. */
  | { form: "other"; choice: string };

export interface OrderReshopRequest {
  orderId: string;
  change: ReshopForm;
  preferences: ResponsePreferences;
}
