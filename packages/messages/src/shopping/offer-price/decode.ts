import type { Envelope } from "@ndc/xml";
import { invalid, list, opt, req, reqText, texts, type Cursor } from "../shared/cursor";
import { flightAssociation, nonEmpty, paxes, requestCursor, responsePreferences } from "../shared/request-common";
import { column, wholeNumber } from "../shared/values";
import { decodeCreateOrderItems } from "../shared/create-order-item";
import { requirePartySize } from "../shared/party-size";
import type { OfferPriceRequest, SeatChoice, SelectedOffer, SelectedOfferItem } from "./request";

const MAX_ROW = 999;
const MAX_QTY = 99;

function selectedSeat(s: Cursor): SeatChoice {
  return {
    row: wholeNumber(reqText(s, "SeatRowNumber"), `${s.path}/SeatRowNumber`, 1, MAX_ROW),
    column: column(reqText(s, "ColumnID"), `${s.path}/ColumnID`),
  };
}

function selectedItem(i: Cursor): SelectedOfferItem {
  const item: SelectedOfferItem = { offerItemId: reqText(i, "OfferItemRefID"), paxIds: nonEmpty(i, "PaxRefID") };
  const seat = opt(i, "SelectedSeat");
  if (seat) item.seat = selectedSeat(seat);
  const alc = opt(i, "SelectedALaCarteOfferItem");
  if (alc) {
    const flights = flightAssociation(alc);
    item.aLaCarte = { qty: wholeNumber(reqText(alc, "Qty"), `${alc.path}/Qty`, 1, MAX_QTY), ...(flights ? { flights } : {}) };
  }
  const bundle = opt(i, "SelectedBundleServices");
  if (bundle) {
    item.bundle = { serviceId: reqText(bundle, "SelectedServiceRefID"), serviceDefinitionIds: texts(bundle, "SelectedServiceDefinitionRefID") };
  }
  return item;
}

function selectedOffers(listCursor: Cursor): SelectedOffer[] {
  const offers = list(listCursor, "SelectedOffer");
  if (offers.length === 0) throw invalid(`${listCursor.path}/SelectedOffer`, "SelectedOffer is required.");
  return offers.map((o) => {
    const items = list(o, "SelectedOfferItem");
    if (items.length === 0) throw invalid(`${o.path}/SelectedOfferItem`, "SelectedOfferItem is required.");
    return { offerId: reqText(o, "OfferRefID"), ownerCode: reqText(o, "OwnerCode"), items: items.map(selectedItem) };
  });
}

/** IATA_OfferPriceRQ -> OfferPriceRequest. Throws GatewayError request_invalid naming the element at fault. */
export function decodeOfferPriceRQ(envelope: Envelope): OfferPriceRequest {
  const request = requestCursor(envelope);
  const priced = req(request, "PricedOffer");
  const passengers = paxes(list(opt(opt(request, "DataLists"), "PaxList"), "Pax"));
  requirePartySize(passengers, "Request/DataLists/PaxList/Pax", "shopping_criteria_invalid");
  const preferences = responsePreferences(request, envelope);
  const sel = opt(priced, "SelectedOfferList");
  if (sel) return { form: "SelectedOfferList", selectedOffers: selectedOffers(sel), orderItems: [], passengers, preferences };
  const accept = opt(priced, "AcceptOrderItemList");
  if (accept) return { form: "AcceptOrderItemList", selectedOffers: [], orderItems: decodeCreateOrderItems(accept), passengers, preferences };
  throw invalid(priced.path, "PricedOffer needs AcceptOrderItemList or SelectedOfferList.");
}
