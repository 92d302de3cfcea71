import type { OrderItem } from "@ndc/orders";
import { shoppingIds } from "@ndc/shopping";

/**
 * The ServiceDefinitions of an OrderViewRS's DataLists (issue 9 item 12): the fare brand each
 * flight flies in (its baggage allowance by reference), the seat assignment a seat names, the
 * catalogue product an extra names. A flight's service names its segment directly (issue 20
 * item 8). Listed by data-lists.ts.
 */
export const fareDefinitionId = (brandCode: string): string => shoppingIds.serviceDefinition(`FARE-${brandCode}`);
export const SEAT_DEFINITION_ID = shoppingIds.serviceDefinition("SEAT-ASSIGNMENT");

/** The ServiceDefinition an extra refers to, also listed in DataLists (data-lists.ts). */
export function serviceDefinitionIdOf(it: OrderItem): string {
  return shoppingIds.serviceDefinition(it.ref ?? it.kind.toUpperCase());
}
