import type { OrderItem } from "@ndc/orders";
import { ids as shoppingIds } from "@ndc/shopping/src/common/ids";

/** The ServiceDefinition an extra refers to, also listed in DataLists (data-lists.ts). */
export function serviceDefinitionIdOf(it: OrderItem): string {
  return shoppingIds.serviceDefinition(it.ref ?? it.kind.toUpperCase());
}
