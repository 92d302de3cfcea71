import type { OrderDetails } from "@ndc/orders";
import { c, el, type XNode } from "@ndc/xml";
import { warning } from "../../shopping/shared/encode/common";
import { orderDataLists } from "../shared/encode/data-lists";
import { order } from "../shared/encode/order";
import { paymentFunctionsContent } from "../shared/encode/payment";
import { orderViewOf } from "./view-of";

/**
 * The order as OrderViewRS shows it, as an OrderSnapshotType element (`name`: CurrentOrder in
 * IATA_OrderChangeNotifRQ), for a seller that cannot store the orders it is sent. Spec 6: the
 * pushed snapshot omits identity documents, so every passenger's IdentityDoc is left out (not
 * masked: a push is not an answer the seller asked for), and so is the warning that would
 * count omitted ones. Everything else is OrderViewRS's: the same items, services, ids, prices,
 * passengers and PAYSUM entries (cards masked), in the default language.
 */
export function encodeOrderSnapshot(name: string, details: OrderDetails, ownerCode: string): XNode {
  const { view } = orderViewOf(details, ownerCode);
  const passengers = view.dataLists.passengers.map((p) => ({ ...p, identityDocs: [] }));
  const warnings = view.warnings.filter((w) => w.code !== "identity_document_not_shown");
  // OrderSnapshotType: DataLists, Order, PaymentFunctions, TicketDocInfo, Warning.
  return el(
    name,
    null,
    orderDataLists({ ...view.dataLists, passengers }),
    order(view),
    view.payments.map((p) => c("PaymentFunctions", ...paymentFunctionsContent(view.orderId, p))),
    warnings.map(warning),
  );
}
