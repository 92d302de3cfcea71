import { encodeOrderViewRS, orderViewOf, type AnswerOutcome } from "@ndc/messages";
import type { Order, OrderDetails, StoredView } from "@ndc/orders";
import { writtenNode, writtenText, type XNode } from "@ndc/xml";
import type { HandlerDeps } from "./deps";

/** The handler result for an order: the Response element and the root PaymentFunctions (PAYSUM). */
export interface ViewResult {
  response: XNode;
  trailing: XNode[];
  decline?: AnswerOutcome;
}

interface Entry {
  /** The documents and legs the view was built from, as text: the view is reused only while they are unchanged. */
  inputs: string;
  result: ViewResult;
}

/**
 * The encoded OrderViewRS of an order, kept while nothing it is built from changes, so a
 * repeated OrderRetrieveRQ writes no tree (docs/decisions/0009-order-read-path.md). The view is
 * a pure function of the order's details (@ndc/messages orderViewOf) and the configuration: the
 * order is the key (an actor's state is replaced, never mutated, by every change, so a changed
 * order is another key), its documents, legs and flown flights are read by the domain on every
 * call and compared, its flights are a function of the order and the supply seed, and the gateway's deps
 * key the outer map. Kept weakly: an entry lives as long as the order's state object, so
 * evicting the actor frees it. An order not in memory is answered from its stored view
 * (`storedViewOf`, written with the order's own writes, default language, valid until the next
 * fee-band edge or departure) when it has one.
 */
const cache = new WeakMap<HandlerDeps, WeakMap<Order, Entry>>();

/**
 * The handler result for an order's details, and, for a handler whose request was a payment
 * attempt, what its log line says of a decline.
 */
export function orderViewResult(details: OrderDetails, deps: HandlerDeps, languages: readonly string[] = []): ViewResult {
  const { order, documents, legs, flown, servicing } = details;
  let byOrder = cache.get(deps);
  if (!byOrder) cache.set(deps, (byOrder = new WeakMap()));
  // Flown flights too: a service is delivered when its flight flies, with no change to the order.
  // And the change fee band now: the restrictions state the fee a change made now would cost.
  const inputs = JSON.stringify({ documents, legs, flown, band: servicing.changeFeeBand?.id, languages });
  const hit = byOrder.get(order);
  if (hit && hit.inputs === inputs) return hit.result;
  // Written once now, kept as text: the tree is not held, and every later answer reuses the text.
  const result = storedViewResult(storedViewOf(details, deps.config.airline.designator, languages));
  byOrder.set(order, { inputs, result });
  return result;
}

/**
 * The encoded view as text: what the orders domain stores with each write of the order
 * (OrdersServiceOptions.viewEncoder), in the default language (no `languages`): a request that
 * names content languages is never answered from a stored view (OrdersService.retrieveView).
 */
export function storedViewOf(details: OrderDetails, designator: string, languages: readonly string[] = []): StoredView {
  const { view, decline } = orderViewOf(details, designator, languages);
  const built = encodeOrderViewRS(view);
  const text = (node: XNode) => ({ name: node.name, text: writtenText(node) });
  return { response: text(built.response), trailing: built.trailing.map(text), ...(decline ? { decline } : {}) };
}

/** A stored (or just written) view as a handler result: its texts placed as written elements. */
export function storedViewResult(stored: StoredView): ViewResult {
  const node = (t: { name: string; text: string }) => writtenNode(t.name, t.text);
  return { response: node(stored.response), trailing: stored.trailing.map(node), ...(stored.decline ? { decline: stored.decline } : {}) };
}
