import type { OrderItem } from "@ndc/orders";
import { ids as shoppingIds } from "@ndc/shopping/src/common/ids";

/**
 * Every Service of an OrderViewRS names a ServiceDefinition of its DataLists (issue 9 item 12):
 * a flight the fare brand it flies in (its baggage allowance by reference), a seat the seat
 * assignment, an extra its catalogue product. Listed by data-lists.ts.
 */
export const fareDefinitionId = (brandCode: string): string => shoppingIds.serviceDefinition(`FARE-${brandCode}`);
export const SEAT_DEFINITION_ID = shoppingIds.serviceDefinition("SEAT-ASSIGNMENT");

/** The ServiceDefinition an extra refers to, also listed in DataLists (data-lists.ts). */
export function serviceDefinitionIdOf(it: OrderItem): string {
  return shoppingIds.serviceDefinition(it.ref ?? it.kind.toUpperCase());
}
