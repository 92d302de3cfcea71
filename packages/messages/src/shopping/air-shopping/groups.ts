import type { ALaCarteOfferView, OfferView } from "../shared/view/offers";
import type { AirShoppingView } from "./view";

export interface CarrierGroup {
  aLaCarte: ALaCarteOfferView[];
  offers: OfferView[];
}

/** The answer's offers per owning carrier (one CarrierOffers each), in first-seen order. */
export function carrierGroups(v: AirShoppingView): Map<string, CarrierGroup> {
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
