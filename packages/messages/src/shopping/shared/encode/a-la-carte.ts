import { c, cOpt, shared, type XNode } from "@ndc/xml";
import type { MediaView } from "../view/common";
import type { ALaCarteItemView, ALaCarteOfferView } from "../view/offers";
import { flightAssociation, mediaFor, richMedia, taxonomies } from "./common";
import { price } from "./price";

/**
 * The same item view is often listed in several a-la-carte offers of one answer (same product on
 * the same flights for the same passengers): it is encoded once per answer (per media index) and
 * written once, its text reused.
 */
const encoded = new WeakMap<ReadonlyMap<string, MediaView>, WeakMap<ALaCarteItemView, XNode>>();

function item(i: ALaCarteItemView, media: ReadonlyMap<string, MediaView>): XNode {
  let byView = encoded.get(media);
  if (!byView) encoded.set(media, (byView = new WeakMap()));
  let node = byView.get(i);
  if (!node) byView.set(i, (node = shared(itemNode(i, media))));
  return node;
}

/** CancelRestrictions and ChangeRestrictions of an extra (ExtraTermsView). */
function terms(t: NonNullable<ALaCarteItemView["terms"]>): XNode[] {
  return [
    c("CancelRestrictions", c("DescText", t.cancel.text), c("Refund", c("LevelTypeCode", "Full"))),
    c("ChangeRestrictions", c("AllowedModificationInd", String(t.change.allowed)), c("DescText", t.change.text)),
  ];
}

function itemNode(i: ALaCarteItemView, media: ReadonlyMap<string, MediaView>): XNode {
  return c(
    "OfferItem",
    taxonomies(i.taxonomy),
    i.terms ? terms(i.terms) : null,
    c(
      "Eligibility",
      i.flights ? flightAssociation(i.flights) : null,
      i.paxIds.map((p) => c("PaxRefID", p)),
      (i.priceClassIds ?? []).map((p) => c("PriceClassRefID", p)),
    ),
    c("OfferItemID", i.offerItemId),
    cOpt("OwnerCode", i.ownerCode),
    mediaFor(i.mediaIds, media).map(richMedia),
    c("Service", c("ServiceDefinitionRefID", i.serviceDefinitionId), c("ServiceID", i.serviceId)),
    price("UnitPrice", i.unitPrice),
  );
}

/**
 * ALaCarteOffer (ALaCarteOfferType). 24.4 requires at least one OfferItem, so an a-la-carte
 * offer narrowed to nothing is left out (null) rather than sent empty.
 */
export function aLaCarteOffer(o: ALaCarteOfferView, media: ReadonlyMap<string, MediaView>): XNode | null {
  if (o.items.length === 0) return null;
  return c(
    "ALaCarteOffer",
    o.description ? c("Desc", c("DescText", o.description)) : null,
    cOpt("OfferExpirationTimeLimitDateTime", o.expiresAt),
    c("OfferID", o.offerId),
    o.items.map((i) => item(i, media)),
    c("OwnerCode", o.ownerCode),
  );
}
