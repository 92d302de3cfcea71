import { c, el, prewritten, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../shared/encode/a-la-carte";
import { processing, warning } from "../shared/encode/common";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import { offer } from "../shared/encode/offer";
import type { ALaCarteOfferView, OfferView } from "../shared/view/offers";
import type { AirShoppingView } from "./view";

interface CarrierGroup {
  aLaCarte: ALaCarteOfferView[];
  offers: OfferView[];
}

function groups(v: AirShoppingView): Map<string, CarrierGroup> {
  const map = new Map<string, CarrierGroup>();
  const group = (owner: string) => {
    let g = map.get(owner);
    if (!g) map.set(owner, (g = { aLaCarte: [], offers: [] }));
    return g;
  };
  for (const o of v.offers) group(o.ownerCode).offers.push(o);
  for (const a of v.aLaCarteOffers) group(a.ownerCode).aLaCarte.push(a);
  // OffersGroup needs at least one CarrierOffers, even when nothing matched.
  if (map.size === 0) group(v.ownerCode);
  return map;
}

const reusable = new WeakSet<AirShoppingView>();
const encodedAnswers = new WeakMap<AirShoppingView, XNode>();

/**
 * Marks a view that will be answered again unchanged (the shopping answer cache): its Response
 * is encoded once and kept as text for as long as the view itself is kept.
 */
export function keepEncoding(v: AirShoppingView): void {
  reusable.add(v);
}

/** The Response element of IATA_AirShoppingRS (AirShoppingResponseType), children in schema order. */
export function encodeAirShoppingRS(v: AirShoppingView): XNode {
  const kept = encodedAnswers.get(v);
  if (kept) return kept;
  const node = responseNode(v);
  if (!reusable.has(v)) return node;
  const text = prewritten(node);
  encodedAnswers.set(v, text);
  return text;
}

function responseNode(v: AirShoppingView): XNode {
  const media = mediaIndex(v.dataLists);
  const carrierOffers = [...groups(v).values()].map((g) =>
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
