import type { ProcessingView, WarningView } from "./common";
import type { DataListsView } from "./data-lists";
import type { ALaCarteOfferView } from "./offers";

/**
 * What the domain hands the ServiceListRS encoder: the priced a-la-carte items (per segment or
 * journey and passenger, through each item's Eligibility) and the ServiceDefinitionList in
 * `dataLists`. An empty list is valid: no ALaCarteOffer, and a Warning if something was left out.
 */
export interface ServiceListView {
  aLaCarteOffer?: ALaCarteOfferView;
  dataLists: DataListsView;
  processing?: ProcessingView;
  warnings: WarningView[];
}
