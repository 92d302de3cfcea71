import { GatewayError } from "@ndc/errors";
import { addInput, decodeOrderChangeRQ, FLIGHT_CHANGE_ITEM_ID, type MessageHandler, type OrderChange } from "@ndc/messages";
import type { HandlerDeps } from "./deps";
import type { Order } from "@ndc/orders";
import type { StoreDb } from "@ndc/store";
import { requestIds } from "./request-key";
import { evidenceInCommit, signedOrderView } from "./signed-view";

/** What each unserved change form is called in the refusal, so the seller knows what was not done. */
const NOT_SERVED: Readonly<Record<Exclude<OrderChange["form"], "paymentRetry" | "seat" | "services" | "acceptCancel" | "updatePax">, string>> = {
  cancelUnpaid: "CancelUnpaidOrder",
  other: "This change",
};

/**
 * OrderChangeRQ (spec 3, 4.7). Served: the seller pays a held order, or retries its declined
 * payment, with PaymentFunctions alone; the answer is the order as OrderViewRS (Booked with the
 * legs captured, or still held with the decline shown). A booked order takes airline extras or
 * one seat (ORDRE2, docs/servicing.md), answered with the order changed; AcceptCancelledOffer
 * accepts a firm cancel quote, of the whole order (cancel/saga.ts, answered with the order
 * cancelled) or of items of it (cancel/items-saga.ts, answered with the order without them). Every other change is refused with
 * change_not_supported rather than ignored, so a seller never reads an unchanged order as a
 * done change. An IdentityDoc anywhere is refused by the decoder (identity_document_not_updatable).
 */
export function orderChangeHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller, signature }) => {
    const rq = decodeOrderChangeRQ(envelope);
    const { orderId, ownerCode } = rq.order;
    // Another airline's order is never ours: answered like a missing order.
    if (ownerCode !== deps.config.airline.designator) throw new GatewayError("order_not_found");
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    // A verified request's evidence commits in the change's own write (docs/signatures.md): a
    // change never exists without it. A retry that changes nothing writes none.
    const evidence = evidenceInCommit(deps, signature);
    const inCommit = evidence && ((tx: StoreDb) => evidence(tx, orderId));
    const view = (order: Order) => signedOrderView(deps, order, signature, rq.languages);
    // The seller's CorrelationID and TrxID, or the request itself without them (request-key.ts).
    const { correlationId, trxId } = requestIds(envelope.payload, "OrderChangeRQ", rq);
    // A flight-change quote (OrderReshopRQ, decision 0016) is accepted by naming its signed id.
    const quoted = rq.change.form === "services" && rq.change.selection.form === "AcceptSelectedQuotedOfferList" ? rq.change.selection.quotedOffers : [];
    if (quoted.length === 1 && quoted[0]!.offerId.startsWith("FCQ.")) {
      if (quoted[0]!.ownerCode !== deps.config.airline.designator) throw new GatewayError("offer_not_found", { element: "Request/ChangeOrderChoice/AcceptSelectedQuotedOfferList/SelectedPricedOffer/OwnerCode" });
      // The items a flight-change offer carries: its AddedOfferItem (FC<n>-NEW) and DeleteOrderItems (FC<n>-<i>).
      const stray = quoted[0]!.items.findIndex((i) => !FLIGHT_CHANGE_ITEM_ID.test(i.offerItemId));
      if (stray >= 0) throw new GatewayError("offer_item_not_found", { detail: "A flight-change offer is taken by its AddedOfferItem (FC<n>-NEW) or its DeleteOrderItem ids.", element: `Request/ChangeOrderChoice/AcceptSelectedQuotedOfferList/SelectedPricedOffer/SelectedOfferItem[${stray + 1}]/OfferItemRefID` });
      const input = { by: { channel: "seller" as const, seller: owner }, orderId, quoteId: quoted[0]!.offerId, correlationId, trxId, payment: rq.paymentLegs, useFlexibility: rq.useFlexibility, ...(inCommit ? { alsoInCommit: inCommit } : {}) };
      const order = await deps.orders.acceptFlightChange(input, { agencyId: seller.agencyId, iataNumber: seller.iataNumber });
      return view(order);
    }
    if (rq.change.form === "seat" || rq.change.form === "services") {
      const input = { ...addInput(rq, rq.change, { correlationId, trxId }, seller), ...(inCommit ? { alsoInCommit: inCommit } : {}) };
      const order = await deps.orders.addToOrder(input, { agencyId: seller.agencyId, iataNumber: seller.iataNumber });
      return view(order);
    }
    if (rq.change.form === "acceptCancel") {
      if (rq.change.ownerCode !== deps.config.airline.designator) throw new GatewayError("cancel_quote_invalid", { element: "Request/ChangeOrderChoice/AcceptCancelledOffer/OwnerCode" });
      // Keyed by the order (whole) or the quote (items): any number of retries (any TrxID) cancel and refund once.
      const order = await deps.orders.cancel(orderId, { channel: "seller", seller: owner }, rq.change.offerId, inCommit);
      return view(order);
    }
    if (rq.change.form === "updatePax") {
      // A name correction is idempotent on the seller's ids, like every change (servicing/rename).
      const order = await deps.orders.renamePax({
        orderId, by: { channel: "seller", seller: owner }, request: { clientId: seller.clientId, correlationId, trxId }, paxId: rq.change.currentPaxId, name: rq.change.name, useFlexibility: rq.useFlexibility,
        ...(inCommit ? { alsoInCommit: inCommit } : {}),
      });
      return view(order);
    }
    if (rq.change.form !== "paymentRetry") {
      // Ownership first: another seller's order must not learn which changes exist for it.
      await deps.orders.retrieve(orderId, owner);
      const what = rq.change.form === "other" ? `${rq.change.choice}` : NOT_SERVED[rq.change.form];
      throw new GatewayError("change_not_supported", { detail: `${what} is not offered yet.`, element: "Request/ChangeOrderChoice" });
    }
    // The payment attempt is keyed by the seller's ids, so a retried request resumes the same
    // attempt (never authorises twice) and a new TrxID is a new attempt.
    const order = await deps.orders.retryPayment(orderId, owner, rq.paymentLegs, `${correlationId}/${trxId}`, inCommit);
    const { response, trailing, decline } = await view(order);
    // A declined attempt answers 200 with the order held; its log line names the PSP's reason.
    return { response, trailing, ...(decline ? { outcome: decline } : {}) };
  };
}
