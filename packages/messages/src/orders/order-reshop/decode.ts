import type { Envelope, XmlElement } from "@ndc/xml";
import { invalid, opt, req, reqText } from "../../shopping/shared/cursor";
import { requestCursor } from "../../shopping/shared/request-common";
import { refuseIdentityDocs } from "../shared/decode/identity-doc";
import { cancelOrderRef } from "./cancel-order-ref";
import type { OrderReshopRequest } from "./request";

/**
 * IATA_OrderReshopRQ -> OrderReshopRequest, dispatched on Request/UpdateOrder's choice (one
 * file per form). Any IdentityDoc is refused first (identity_document_not_updatable, spec 7.3).
 */
export function decodeOrderReshopRQ(envelope: Envelope): OrderReshopRequest {
  refuseIdentityDocs(envelope.root);
  const request = requestCursor(envelope);
  const orderId = reqText(request, "OrderRefID");
  const update = req(request, "UpdateOrder");
  const cancel = opt(update, "CancelOrderRef");
  if (cancel) return cancelOrderRef(cancel, orderId);
  const reshop = opt(update, "ReshopOrder");
  if (reshop) return { form: "reshopOrder", orderId, deletesItems: hasDescendant(reshop.el, "DeleteOrderItem") };
  throw invalid(update.path, "UpdateOrder needs CancelOrderRef or ReshopOrder.");
}

function hasDescendant(node: XmlElement, name: string): boolean {
  return node.children.some((c) => c.name === name || hasDescendant(c, name));
}
