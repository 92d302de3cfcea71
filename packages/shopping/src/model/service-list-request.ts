import type { CoreRequest } from "./core-request";
import type { ResponsePreferences, ServiceCriterion, ShoppingPax } from "./request-types";

/**
 * The decoded IATA_ServiceListRQ (spec 4.7): services for an offer, for a booked order
 * (24.4 spells it OrderRequest/Order/OrderID) or for named flights, narrowed by ServiceCriteria.
 */
export interface ServiceListRequest {
  target: CoreRequest;
  serviceCriteria: ServiceCriterion[];
  passengers: ShoppingPax[];
  preferences: ResponsePreferences;
}
