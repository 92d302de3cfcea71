import { list, type Cursor } from "../../shopping/shared/cursor";
import { serviceCriterion } from "../../shopping/shared/request-common";
import type { ReshopForm } from "./request";

/**
 * The extras form of OrderReshopRQ (ORDRE2): AddOfferItems/OrderCriteria/ServiceCriteria,
 * narrowing the booked order's airline extras as ServiceListRQ's criteria do. FlightRequest is
 * required by the schema and not read: the order's own flights are the ones listed.
 */
export function addServices(orderCriteria: Cursor | undefined): Extract<ReshopForm, { form: "addServices" }> {
  return { form: "addServices", serviceCriteria: list(orderCriteria, "ServiceCriteria").map(serviceCriterion) };
}
