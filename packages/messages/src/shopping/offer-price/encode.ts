import { c, el, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../shared/encode/a-la-carte";
import { processing, warning } from "../shared/encode/common";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import { offer } from "../shared/encode/offer";
import { paymentFunctions } from "./payment-methods";
import type { OfferPriceView } from "./view";
import { writeOfferPriceRS } from "./write";

/** The Response element of IATA_OfferPriceRS (OfferPriceResponseType), written straight to bytes (./write.ts). */
export function encodeOfferPriceRS(v: OfferPriceView): XNode {
  return writeOfferPriceRS(v);
}

/**
 * The same Response built as a tree, as it was before the streaming writer: no longer answered,
 * kept as the oracle the writer is proven byte-identical to (test/shopping/response-writer.test.ts).
 */
export function offerPriceResponseTree(v: OfferPriceView): XNode {
  const media = mediaIndex(v.dataLists);
  const others = (v.otherALaCarteOffers ?? []).map((a) => aLaCarteOffer(a, media)).filter((n): n is XNode => n !== null);
  return el(
    "Response",
    null,
    dataLists(v.dataLists),
    others.length > 0 ? c("OtherOffers", others) : null,
    paymentFunctions(v.pricedOffer, v.paymentMethods),
    offer("PricedOffer", v.pricedOffer, media),
    processing(v.processing),
    v.warnings.map(warning),
  );
}
