import { isKeptAnswer } from "@ndc/shopping";
import { c, el, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../shared/encode/a-la-carte";
import { processing, warning } from "../shared/encode/common";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import { offer } from "../shared/encode/offer";
import { carrierGroups } from "./groups";
import type { AirShoppingView } from "./view";
import { writeAirShoppingRS } from "./write";

// A view the shopping answer cache will give again unchanged (isKeptAnswer) has its Response
// encoded once and kept as text for as long as the view itself is kept.
const encodedAnswers = new WeakMap<AirShoppingView, XNode>();

/**
 * The Response element of IATA_AirShoppingRS (AirShoppingResponseType), written straight to bytes
 * (./write.ts); a kept answer's text is reused.
 */
export function encodeAirShoppingRS(v: AirShoppingView): XNode {
  const kept = encodedAnswers.get(v);
  if (kept) return kept;
  const node = writeAirShoppingRS(v);
  if (isKeptAnswer(v)) encodedAnswers.set(v, node);
  return node;
}

/**
 * The same Response built as a tree, as it was before the streaming writer: no longer answered,
 * kept as the oracle the writer is proven byte-identical to (test/shopping/response-writer.test.ts).
 */
export function airShoppingResponseTree(v: AirShoppingView): XNode {
  const media = mediaIndex(v.dataLists);
  const carrierOffers = [...carrierGroups(v).values()].map((g) =>
    c(
      "CarrierOffers",
      g.aLaCarte.map((a) => aLaCarteOffer(a, media)),
      g.offers.map((o) => offer("Offer", o, media)),
    ),
  );
  return el(
    "Response",
    null,
    dataLists(v.dataLists),
    c("OffersGroup", c("AllOffersSummary", c("MatchedOfferQty", v.offers.length)), carrierOffers),
    processing(v.processing),
    v.warnings.map(warning),
  );
}
