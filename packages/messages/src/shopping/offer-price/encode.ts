import { c, el, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../shared/encode/a-la-carte";
import { processing, warning } from "../shared/encode/common";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import { offer } from "../shared/encode/offer";
import type { OfferPriceView } from "./view";

/** The Response element of IATA_OfferPriceRS (OfferPriceResponseType), children in schema order. */
export function encodeOfferPriceRS(v: OfferPriceView): XNode {
  const media = mediaIndex(v.dataLists);
  const others = (v.otherALaCarteOffers ?? []).map((a) => aLaCarteOffer(a, media)).filter((n): n is XNode => n !== null);
  return el(
    "Response",
    null,
    dataLists(v.dataLists),
    others.length > 0 ? c("OtherOffers", others) : null,
    offer("PricedOffer", v.pricedOffer, media),
    processing(v.processing),
    v.warnings.map(warning),
  );
}
