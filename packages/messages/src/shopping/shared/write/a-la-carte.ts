import { fragmentBytes, type ByteWriter } from "@ndc/xml";
import type { MediaView } from "../view/common";
import type { ALaCarteItemView, ALaCarteOfferView } from "../view/offers";
import { mediaFor } from "../encode/common";
import { flightAssociation, leaves, richMediaFor, taxonomies } from "./common";
import { price } from "./price";

// The streaming twin of ../encode/a-la-carte.ts (same elements, order and bytes).

/**
 * The ALaCarteOffer stays per flight offer (spec 4.7), but the same item view is listed in several
 * of them (same product, flights and passengers): its bytes are written once per answer (per media
 * index) and copied into every offer that lists it.
 */
const written = new WeakMap<ReadonlyMap<string, MediaView>, WeakMap<ALaCarteItemView, Uint8Array>>();

/**
 * Bytes of frozen items (shopping keeps a-la-carte items across requests), with the media views
 * they were written with: an item that shows pictures is reused only with the same (frozen) views.
 */
const kept = new WeakMap<ALaCarteItemView, { media: readonly MediaView[]; bytes: Uint8Array }>();

function item(w: ByteWriter, i: ALaCarteItemView, media: ReadonlyMap<string, MediaView>): void {
  if (Object.isFrozen(i)) {
    const shown = mediaFor(i.mediaIds, media);
    if (shown.every((m) => Object.isFrozen(m))) {
      const k = kept.get(i);
      if (k && k.media.length === shown.length && k.media.every((m, n) => m === shown[n])) {
        w.raw(k.bytes);
        return;
      }
      const bytes = fragmentBytes((x) => writeItem(x, i, media));
      kept.set(i, { media: shown, bytes });
      w.raw(bytes);
      return;
    }
  }
  let byView = written.get(media);
  if (!byView) written.set(media, (byView = new WeakMap()));
  let bytes = byView.get(i);
  if (bytes === undefined) byView.set(i, (bytes = fragmentBytes((x) => writeItem(x, i, media))));
  w.raw(bytes);
}

/**
 * Offers of one set of flights in several brands list the same items (one array, shopping's
 * per-request list): the whole run of items is written once and copied as one piece.
 */
const writtenLists = new WeakMap<ReadonlyMap<string, MediaView>, WeakMap<readonly ALaCarteItemView[], Uint8Array>>();

function items(w: ByteWriter, list: readonly ALaCarteItemView[], media: ReadonlyMap<string, MediaView>): void {
  let byList = writtenLists.get(media);
  if (!byList) writtenLists.set(media, (byList = new WeakMap()));
  let bytes = byList.get(list);
  if (bytes === undefined) byList.set(list, (bytes = fragmentBytes((x) => list.forEach((i) => item(x, i, media)))));
  w.raw(bytes);
}

function writeItem(w: ByteWriter, i: ALaCarteItemView, media: ReadonlyMap<string, MediaView>): void {
  w.start("cns:OfferItem");
  taxonomies(w, i.taxonomy);
  if (i.terms) {
    w.start("cns:CancelRestrictions");
    w.leaf("cns:DescText", i.terms.cancel.text);
    w.start("cns:Refund");
    w.leaf("cns:LevelTypeCode", "Full");
    w.end("cns:Refund");
    w.end("cns:CancelRestrictions");
    w.start("cns:ChangeRestrictions");
    w.leaf("cns:AllowedModificationInd", String(i.terms.change.allowed));
    w.leaf("cns:DescText", i.terms.change.text);
    w.end("cns:ChangeRestrictions");
  }
  w.start("cns:Eligibility");
  if (i.flights) flightAssociation(w, i.flights);
  leaves(w, "cns:PaxRefID", i.paxIds);
  leaves(w, "cns:PriceClassRefID", i.priceClassIds);
  w.end("cns:Eligibility");
  w.leaf("cns:OfferItemID", i.offerItemId);
  w.opt("cns:OwnerCode", i.ownerCode);
  richMediaFor(w, i.mediaIds, media);
  w.start("cns:Service");
  w.leaf("cns:ServiceDefinitionRefID", i.serviceDefinitionId);
  w.leaf("cns:ServiceID", i.serviceId);
  w.end("cns:Service");
  price(w, "cns:UnitPrice", i.unitPrice);
  w.end("cns:OfferItem");
}

/** ALaCarteOffer (ALaCarteOfferType); an offer narrowed to no item is left out (24.4 needs one). */
export function aLaCarteOffer(w: ByteWriter, o: ALaCarteOfferView, media: ReadonlyMap<string, MediaView>): void {
  if (o.items.length === 0) return;
  w.start("cns:ALaCarteOffer");
  if (o.description) {
    w.start("cns:Desc");
    w.leaf("cns:DescText", o.description);
    w.end("cns:Desc");
  }
  w.opt("cns:OfferExpirationTimeLimitDateTime", o.expiresAt);
  w.leaf("cns:OfferID", o.offerId);
  items(w, o.items, media);
  w.leaf("cns:OwnerCode", o.ownerCode);
  w.end("cns:ALaCarteOffer");
}
