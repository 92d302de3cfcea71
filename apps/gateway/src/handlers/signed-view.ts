import type { SignatureOutcome } from "@ndc/messages";
import { encodeOrderViewRS, orderViewOf } from "@ndc/messages";
import type { Order } from "@ndc/orders";
import { appendEvidence } from "@ndc/signatures";
import type { StoreDb } from "@ndc/store";
import type { HandlerDeps } from "./deps";
import { createdViewResult, orderViewResult, type ViewResult } from "./order-view-cache";

/**
 * The answer to a request that may have been signed (OrderCreateRQ, OrderChangeRQ;
 * docs/signatures.md): a verified request's evidence was written in the commit of the order it
 * created or changed (the handlers' `alsoInCommit`); one whose Signature was ignored under policy
 * none says so in a Warning.
 */
export async function signedOrderView(deps: HandlerDeps, order: Order, signature: SignatureOutcome | undefined, languages: readonly string[], opts: { created?: boolean } = {}): Promise<ViewResult> {
  // A new order's answer is the view its own last write stored (order-view-cache.ts createdViewResult).
  const created = opts.created && signature?.status !== "not_checked" ? createdViewResult(order, deps, languages) : undefined;
  if (created) return created;
  const details = await deps.orders.details(order);
  if (signature?.status !== "not_checked") return orderViewResult(details, deps, languages);
  // Never silence: the view is encoded with the Warning (not from the view cache, which holds none).
  const { view, decline } = orderViewOf(details, deps.config.airline.designator, languages);
  view.warnings.push({ code: "signature_not_checked" });
  const built = encodeOrderViewRS(view);
  return { response: built.response, trailing: built.trailing, ...(decline ? { decline } : {}) };
}

/**
 * The write a verified request adds to the commit of the order it creates or changes (the
 * handlers' `alsoInCommit`; docs/signatures.md): its evidence, chained and with the sealed
 * original, so the order or the change never exists without it. Undefined for any other request.
 */
export function evidenceInCommit(deps: HandlerDeps, signature: SignatureOutcome | undefined): ((tx: StoreDb, orderId: string) => Promise<unknown>) | undefined {
  if (signature?.status !== "verified") return undefined;
  const evidence = signature.evidence;
  return (tx, orderId) => appendEvidence(tx, deps.fieldKey, { orderId, ...evidence });
}
