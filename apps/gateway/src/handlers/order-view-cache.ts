import { encodeOrderViewRS, orderViewOf, type AnswerOutcome } from "@ndc/messages";
import type { Order, OrderDetails } from "@ndc/orders";
import { prewritten, type XNode } from "@ndc/xml";
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
 * evicting the actor frees it.
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
  const { view, decline } = orderViewOf(details, deps.config.airline.designator, languages);
  const built = encodeOrderViewRS(view);
  // Written once now, kept as text: the tree is not held, and every later answer reuses the text.
  const result: ViewResult = { response: prewritten(built.response), trailing: built.trailing.map(prewritten), ...(decline ? { decline } : {}) };
  byOrder.set(order, { inputs, result });
  return result;
}
