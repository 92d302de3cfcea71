import { storedViewOf } from "@ndc/domain";
import type { AnswerOutcome } from "@ndc/messages";
import type { Order, OrderDetails, StoredView } from "@ndc/orders";
import { writtenNode, type XNode } from "@ndc/xml";
import type { HandlerDeps } from "./deps";

/** The handler result for an order: the Response element and the root PaymentFunctions (PAYSUM). */
export interface ViewResult {
  response: XNode;
  trailing: XNode[];
  decline?: AnswerOutcome;
}

interface Entry {
  /**
   * The documents and legs the view was built from, as text: the view is reused only while they
   * are unchanged. Written by the first retrieve that compares (`written` below): a booking's
   * answer does not compare (createdViewResult), and most booked orders are never retrieved
   * while their state object is in memory.
   */
  inputs?: string;
  /** What the write that stored the view built it from (keptViewEncoder), until `inputs` is written from it. */
  details?: OrderDetails;
  /** The designator it was encoded with (config, the only other input). */
  designator: string;
  result: ViewResult;
  /** Set by the write that stored this order's view (keptViewEncoder): the details as that write committed them. */
  written?: true;
}

/**
 * The encoded OrderViewRS of an order, kept while nothing it is built from changes, so a
 * repeated OrderRetrieveRQ writes no tree (docs/decisions/0009-order-read-path.md). The view is
 * a pure function of the order's details (@ndc/messages orderViewOf) and the configuration: the
 * order is the key (an actor's state is replaced, never mutated, by every change, so a changed
 * order is another key), its documents, legs and flown flights are read by the domain on every
 * call and compared, its flights are a function of the order and the supply seed, and the
 * designator is kept with the entry. Kept weakly: an entry lives as long as the order's state
 * object, so evicting the actor frees it. The view the order's own write stored (`storedViewOf`
 * through `keptViewEncoder`) seeds the entry under the order object that write persisted, which
 * is the object the command answers with and the actor keeps (@ndc/actors NEXT_VALUE), so a
 * booking encodes its view once, not twice, and its answer reads nothing again
 * (createdViewResult). An order not in memory is answered from its stored view
 * (`storedViewOf`, written with the order's own writes, default language, valid until the next
 * fee-band edge or departure) when it has one.
 */
const cache = new WeakMap<Order, Entry>();

/** What a view is built from besides the order object itself (see `cache`). */
function inputsOf({ documents, legs, flown, servicing }: OrderDetails, languages: readonly string[]): string {
  // Flown flights too: a service is delivered when its flight flies, with no change to the order.
  // And the change fee band now: the restrictions state the fee a change made now would cost.
  return JSON.stringify({ documents, legs, flown, band: servicing.changeFeeBand?.id, languages });
}

/**
 * The handler result for an order's details, and, for a handler whose request was a payment
 * attempt, what its log line says of a decline.
 */
export function orderViewResult(details: OrderDetails, deps: HandlerDeps, languages: readonly string[] = []): ViewResult {
  const designator = deps.config.airline.designator;
  const inputs = inputsOf(details, languages);
  const hit = cache.get(details.order);
  if (hit && hit.inputs === undefined && hit.details) {
    hit.inputs = inputsOf(hit.details, []);
    hit.details = undefined;
  }
  if (hit && hit.inputs === inputs && hit.designator === designator) return hit.result;
  // Written once now, kept as text: the tree is not held, and every later answer reuses the text.
  const result = storedViewResult(storedViewOf(details, designator, languages));
  cache.set(details.order, { inputs, designator, result });
  return result;
}

// The plain encoder lives with the domain (an order changed by the scheduler app stores its view too).
export { storedViewOf, viewEncodes } from "@ndc/domain";

/**
 * The orders domain's view encoder (OrdersServiceOptions.viewEncoder): `storedViewOf`, and the
 * text it wrote kept for the order's answer, which reads the same documents and legs after the
 * write commits (a write that fails leaves its order object unused, and its entry with it).
 */
export function keptViewEncoder(designator: string): (details: OrderDetails) => StoredView {
  return (details) => {
    const stored = storedViewOf(details, designator);
    cache.set(details.order, { details, designator, result: storedViewResult(stored), written: true });
    return stored;
  };
}

/**
 * The answer of the command that created this order, as the write that stored its view encoded
 * it: that write read the order's documents and legs inside its own transaction, so its view is
 * the order as committed, and reading them again right after the COMMIT to compare (as
 * `orderViewResult` does for a retrieve) only costs two statements and two JSON texts per
 * booking. Only for a new order (OrderCreate): its order object exists only in this command's
 * writes, so an entry on it can only be one of them, the last (each write persists a new
 * object). Undefined when that write stored no view (a leg left to capture, a view it could not
 * build), or for content languages (stored views are the default language's): the caller reads.
 */
export function createdViewResult(order: Order, deps: HandlerDeps, languages: readonly string[]): ViewResult | undefined {
  if (languages.length) return undefined;
  const hit = cache.get(order);
  return hit?.written && hit.designator === deps.config.airline.designator ? hit.result : undefined;
}

/** A stored (or just written) view as a handler result: its texts placed as written elements. */
export function storedViewResult(stored: StoredView): ViewResult {
  const node = (t: { name: string; text: string }) => writtenNode(t.name, t.text);
  return { response: node(stored.response), trailing: stored.trailing.map(node), ...(stored.decline ? { decline: stored.decline } : {}) };
}
