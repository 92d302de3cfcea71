import type { Envelope } from "@ndc/xml";
import { list, opt, reqText } from "../../shopping/shared/cursor";
import { requestCursor, responsePreferences } from "../../shopping/shared/request-common";
import { refuseIdentityDocs } from "../shared/decode/identity-doc";
import { addSeat } from "./add-seat";
import { addServices } from "./add-services";
import type { OrderReshopRequest, ReshopForm } from "./request";

/**
 * IATA_OrderReshopRQ -> OrderReshopRequest, dispatching on the request form (one file per form).
 * An IdentityDoc anywhere is refused first (identity_document_not_updatable, spec 7.3).
 */
export function decodeOrderReshopRQ(envelope: Envelope): OrderReshopRequest {
  refuseIdentityDocs(envelope.root);
  const request = requestCursor(envelope);
  return { orderId: reqText(request, "OrderRefID"), change: form(request), preferences: responsePreferences(request, envelope) };
}

function form(request: ReturnType<typeof requestCursor>): ReshopForm {
  const update = opt(request, "UpdateOrder");
  if (!update) return { form: "other", choice: "(none)" };
  if (opt(update, "CancelOrderRef")) return { form: "other", choice: "CancelOrderRef" };
  const choice = opt(opt(update, "ReshopOrder"), "ReshopOrderChoice");
  const service = opt(choice, "ServiceOrder");
  if (!service) return { form: "other", choice: opt(choice, "UpdatePax") ? "UpdatePax" : opt(choice, "UpdatePaxName") ? "UpdatePaxName" : "ReshopOrder" };
  const add = opt(service, "AddOfferItems");
  if (!add) return { form: "other", choice: "DeleteOrderItem" };
  const criteria = opt(add, "OrderCriteria");
  const seats = list(criteria, "SeatCriteria");
  return seats.length > 0 ? addSeat(add, seats) : addServices(criteria);
}
