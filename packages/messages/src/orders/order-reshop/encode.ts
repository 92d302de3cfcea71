import { c, el, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../../shopping/shared/encode/a-la-carte";
import { processing, warning } from "../../shopping/shared/encode/common";
import { dataLists, mediaIndex } from "../../shopping/shared/encode/data-lists";
import type { ALaCarteOfferView, DataListsView, ProcessingView, WarningView } from "../../shopping";

/** What OrderReshopRS shows of an add reshop: the order and the a-la-carte offer of what it can take. */
export interface OrderReshopView {
  orderId: string;
  ownerCode: string;
  aLaCarteOffer: ALaCarteOfferView;
  dataLists: DataListsView;
  processing?: ProcessingView;
  warnings: WarningView[];
}

/**
 * The Response of IATA_OrderReshopRS (OrderReshopResponseType), children in schema order:
 * DataLists, Order, Processing, ReshopResults/ReshopOffers/ALaCarteOffer, Warning. The offer is
 * the one OrderChangeRQ buys by OfferRefID (ORDRE2).
 */
export function encodeOrderReshopRS(v: OrderReshopView): XNode {
  const media = mediaIndex(v.dataLists);
  return el(
    "Response",
    null,
    dataLists(v.dataLists),
    c("Order", c("OrderID", v.orderId), c("OwnerCode", v.ownerCode)),
    processing(v.processing),
    c("ReshopResults", c("ReshopOffers", aLaCarteOffer(v.aLaCarteOffer, media))),
    v.warnings.map(warning),
  );
}
