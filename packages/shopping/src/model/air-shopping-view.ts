import type { ProcessingView, WarningView } from "./common";
import type { DataListsView } from "./data-lists";
import type { ALaCarteOfferView, OfferView } from "./offers";

/**
 * What the domain hands the AirShoppingRS encoder. Offers are grouped into CarrierOffers by
 * OwnerCode in order of first appearance; a-la-carte offers (OfferCriteria/ServiceCriteria)
 * join their owner's group. `ownerCode` is the responding airline: with no offers at all it
 * names the one (empty) CarrierOffers the schema requires.
 */
export interface AirShoppingView {
  ownerCode: string;
  offers: OfferView[];
  aLaCarteOffers: ALaCarteOfferView[];
  dataLists: DataListsView;
  processing?: ProcessingView;
  warnings: WarningView[];
}
