import { encodeOrderViewRS, orderViewOf } from "@ndc/messages";
import type { OrderDetails, StoredView } from "@ndc/orders";
import { writtenText, type XNode } from "@ndc/xml";

/** How many OrderViewRS this process has encoded for orders (a test pins one per paid booking). */
export const viewEncodes = { count: 0 };

/**
 * The encoded view as text: what the orders domain stores with each write of the order
 * (OrdersServiceOptions.viewEncoder), in the default language (no `languages`): a request that
 * names content languages is never answered from a stored view (OrdersService.retrieveView).
 * Here, below both apps, because an order changed by the scheduler app stores its view too.
 */
export function storedViewOf(details: OrderDetails, designator: string, languages: readonly string[] = []): StoredView {
  viewEncodes.count++;
  const { view, decline } = orderViewOf(details, designator, languages);
  const built = encodeOrderViewRS(view);
  const text = (node: XNode) => ({ name: node.name, text: writtenText(node) });
  return { response: text(built.response), trailing: built.trailing.map(text), ...(decline ? { decline } : {}) };
}
