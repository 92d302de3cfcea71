import type { Envelope, XmlElement } from "@ndc/xml";
import { invalid, list, opt, req, reqText, type Cursor } from "../../shopping/shared/cursor";
import { requestCursor, responsePreferences } from "../../shopping/shared/request-common";
import { refuseIdentityDocs } from "../shared/decode/identity-doc";
import { addSeat } from "./add-seat";
import { addServices } from "./add-services";
import { cancelItems } from "./cancel-items";
import { cancelOrderRef } from "./cancel-order-ref";
import { changeFlight, deleteItems } from "./change-flight";
import type { OrderReshopRequest, ReshopForm } from "./request";

/**
 * IATA_OrderReshopRQ -> OrderReshopRequest, dispatched on Request/UpdateOrder's choice (one
 * file per form). Any IdentityDoc is refused first (identity_document_not_updatable, spec 7.3).
 */
export function decodeOrderReshopRQ(envelope: Envelope): OrderReshopRequest {
  refuseIdentityDocs(envelope.root);
  const request = requestCursor(envelope);
  const orderId = reqText(request, "OrderRefID");
  return { orderId, change: form(req(request, "UpdateOrder"), orderId), preferences: responsePreferences(request, envelope) };
}

/** UpdateOrder is a choice of CancelOrderRef (the whole order) and ReshopOrder (items of it: added, cancelled, or replaced when deleted and added). */
function form(update: Cursor, orderId: string): ReshopForm {
  const cancel = opt(update, "CancelOrderRef");
  if (cancel) return cancelOrderRef(cancel, orderId);
  const reshop = opt(update, "ReshopOrder");
  if (!reshop) throw invalid(update.path, "UpdateOrder needs CancelOrderRef or ReshopOrder.");
  const choice = opt(reshop, "ReshopOrderChoice");
  const serviceOrder = opt(choice, "ServiceOrder");
  const add = opt(serviceOrder, "AddOfferItems");
  const deletes = deleteItems(serviceOrder);
  // AddOfferItems with DeleteOrderItem: a direction's flights replaced (change-flight.ts).
  if (add && deletes.length > 0) return changeFlight(serviceOrder!, add, deletes);
  // DeleteOrderItem alone: those items cancelled (cancel-items.ts).
  if (deletes.length > 0) return cancelItems(serviceOrder!, deletes);
  if (add) {
    const criteria = opt(add, "OrderCriteria");
    const seats = list(criteria, "SeatCriteria");
    return seats.length > 0 ? addSeat(add, seats) : addServices(criteria);
  }
  if (hasDescendant(reshop.el, "DeleteOrderItem")) return { form: "deleteItems" };
  return { form: "other", choice: opt(choice, "UpdatePax") ? "UpdatePax" : opt(choice, "UpdatePaxName") ? "UpdatePaxName" : "ReshopOrder" };
}

function hasDescendant(node: XmlElement, name: string): boolean {
  return node.children.some((c) => c.name === name || hasDescendant(c, name));
}
