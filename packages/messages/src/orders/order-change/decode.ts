import { checkText, type Envelope } from "@ndc/xml";
import { invalid, list, opt, optText, reqText, type Cursor } from "../../shopping/shared/cursor";
import { contentLanguages, requestCursor } from "../../shopping/shared/request-common";
import { refuseIdentityDocs } from "../shared/decode/identity-doc";
import { offerSelection, type OfferSelection } from "../shared/decode/offer-selection";
import { requiredOrderKey } from "../shared/decode/order-key";
import { orderContacts, orderPassengers, type OrderPax } from "../shared/decode/passengers";
import { paymentLegs } from "../shared/decode/payment-legs";
import { acceptCancelledOffer } from "./accept-cancelled-offer";
import { updatePax } from "./update-pax";
import type { OrderChange, OrderChangeRequest } from "./request";

function hasSeat(s: OfferSelection): boolean {
  return s.form === "AcceptOrderItemList"
    ? s.orderItems.some((i) => i.item?.kind === "seat")
    : s.quotedOffers.some((o) => o.items.some((i) => i.seat !== undefined));
}

/** Spec 4.7: buying a seat selects one seat for one passenger, in a message of its own. */
function seatChange(s: OfferSelection, at: string): OrderChange {
  const mixed = "A seat is bought alone: one seat for one passenger, extras in a separate OrderChangeRQ.";
  if (s.form === "AcceptOrderItemList") {
    const [only, ...rest] = s.orderItems;
    if (!only || rest.length > 0 || only.item?.kind !== "seat") throw invalid(at, mixed);
    return { form: "seat", ownerCode: only.ownerCode, paxId: only.item.paxId, item: only };
  }
  const [offer, ...others] = s.quotedOffers;
  const item = offer?.items[0];
  if (!offer || others.length > 0 || offer.items.length !== 1 || !item?.seat || item.paxIds.length !== 1) throw invalid(at, mixed);
  return { form: "seat", offerId: offer.offerId, ownerCode: offer.ownerCode, paxId: item.paxIds[0]!, item };
}

function change(choice: Cursor | undefined, legs: number, request: Cursor, passengers: readonly OrderPax[]): OrderChange {
  if (!choice) {
    if (legs === 0) throw invalid(`${request.path}/ChangeOrderChoice`, "OrderChangeRQ needs ChangeOrderChoice or PaymentFunctions.");
    return { form: "paymentRetry" };
  }
  const selection = offerSelection(choice);
  if (selection) return hasSeat(selection) ? seatChange(selection, choice.path) : { form: "services", selection };
  const update = opt(choice, "UpdatePax");
  if (update) return updatePax(update, passengers);
  const cancel = opt(choice, "CancelUnpaidOrder");
  if (cancel) {
    reqText(cancel, "OrderRefID");
    return { form: "cancelUnpaid", orderItemIds: list(cancel, "SelectedOrderItem").flatMap((s) => list(s, "OrderItemRefID").map((i) => checkText("OrderItemRefID", i.el.text.trim(), i.path))) };
  }
  const acceptCancel = opt(choice, "AcceptCancelledOffer");
  if (acceptCancel) return acceptCancelledOffer(acceptCancel);
  for (const name of ["AcceptChange", "AcceptRepricedOrder"] as const) {
    if (opt(choice, name)) return { form: "other", choice: name };
  }
  throw invalid(choice.path, "ChangeOrderChoice names no change the gateway knows.");
}

/** The one way a request asks to spend the order's Flexibility service (docs/servicing.md "Flexibility"). */
export const USE_FLEXIBILITY_REASON = "FLEXIBILITY";

function useFlexibility(request: Cursor): boolean {
  const reason = optText(opt(request, "OrderChangeParameters"), "ReasonCode");
  if (reason === undefined) return false;
  if (reason !== USE_FLEXIBILITY_REASON) throw invalid(`${request.path}/OrderChangeParameters/ReasonCode`, `ReasonCode ${reason.slice(0, 32)} is not known; ${USE_FLEXIBILITY_REASON} asks to use the order's Flexibility service.`);
  return true;
}

/**
 * IATA_OrderChangeRQ -> OrderChangeRequest. Card data was refused by the transport pipeline
 * (refuseCardDataIn) before this runs; first here, any IdentityDoc,
 * wherever it is, is refused with identity_document_not_updatable (spec 7.3), never dropped.
 */
export function decodeOrderChangeRQ(envelope: Envelope): OrderChangeRequest {
  refuseIdentityDocs(envelope.root);
  const request = requestCursor(envelope);
  const order = requiredOrderKey(request, "Order");
  const legs = paymentLegs(request, envelope);
  const dataLists = opt(request, "DataLists");
  const passengers = orderPassengers(dataLists);
  return {
    order,
    change: change(opt(request, "ChangeOrderChoice"), legs.length, request, passengers),
    paymentLegs: legs,
    passengers,
    contacts: orderContacts(dataLists),
    useFlexibility: useFlexibility(request),
    // OrderChangeParameters (ResponseParametersOrderChangeType) has no LangUsage: PrimaryLangID only.
    languages: contentLanguages(envelope),
  };
}
