import { invalid, list, opt, optText, req, reqText, texts, type Cursor } from "./cursor";
import { marketingSegments, requestedFlight } from "./dated-segments";
import type { CoreRequest, ItemRef, OfferRef, OrderRef } from "@ndc/shopping";

// The request shapes are shopping's (src/model/core-request.ts); reading them from XML is here.
export type { CoreRequest, ItemRef, OfferRef, OrderRef };

function itemRef(i: Cursor, idName: "OfferItemID" | "OrderItemID"): ItemRef {
  const ref: ItemRef = {
    id: reqText(i, idName),
    paxIds: texts(i, "PaxRefID"),
    paxSegmentIds: texts(i, "PaxSegmentRefID"),
    datedOperatingLegIds: texts(i, "DatedOperatingLegRefID"),
    serviceIds: list(i, "Service").map((s) => reqText(s, "ServiceID")),
  };
  const owner = optText(i, "OwnerCode");
  if (owner) ref.ownerCode = owner;
  return ref;
}

export function decodeCoreRequest(request: Cursor, name: "SeatAvailCoreRequest" | "ServiceListCoreRequest"): CoreRequest {
  const core = req(request, name);
  const offerReq = opt(core, "OfferRequest");
  if (offerReq) {
    const offers = list(offerReq, "Offer");
    if (offers.length === 0) throw invalid(`${offerReq.path}/Offer`, "Offer is required.");
    return {
      form: "offer",
      offers: offers.map((o) => ({
        offerId: reqText(o, "OfferID"),
        ownerCode: reqText(o, "OwnerCode"),
        items: list(o, "OfferItem").map((i) => itemRef(i, "OfferItemID")),
      })),
    };
  }
  const orderReq = opt(core, "OrderRequest");
  if (orderReq) {
    const o = req(orderReq, "Order");
    const order: OrderRef = {
      orderId: reqText(o, "OrderID"),
      ownerCode: reqText(o, "OwnerCode"),
      items: list(o, "OrderItem").map((i) => itemRef(i, "OrderItemID")),
    };
    const version = optText(o, "OrderVersionNumber");
    if (version !== undefined) {
      if (!/^\d{1,9}$/.test(version)) throw invalid(`${o.path}/OrderVersionNumber`, "OrderVersionNumber is a whole number.");
      order.orderVersion = Number(version);
    }
    return { form: "order", order };
  }
  const segReq = opt(core, "PaxSegmentRequest");
  if (segReq) {
    const segs = list(segReq, "PaxSegment");
    if (segs.length === 0) throw invalid(`${segReq.path}/PaxSegment`, "PaxSegment is required.");
    const dated = marketingSegments(request);
    return { form: "paxSegment", segments: segs.map((s) => requestedFlight(s, dated)) };
  }
  throw invalid(core.path, `${name} needs OfferRequest, OrderRequest or PaxSegmentRequest.`);
}
