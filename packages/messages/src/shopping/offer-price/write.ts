import { writtenBytes, ByteWriter, type XNode } from "@ndc/xml";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import { aLaCarteOffer } from "../shared/write/a-la-carte";
import { processing, warning } from "../shared/write/common";
import { offer } from "../shared/write/offer";
import { paymentFunctions } from "./payment-methods";
import type { OfferPriceView } from "./view";

/**
 * The Response element of IATA_OfferPriceRS written straight to bytes in schema order: the same
 * bytes as the tree encoder `offerPriceResponseTree` (./encode.ts), checked by
 * test/shopping/response-writer.test.ts. DataLists comes from the shared tree encoder, walked
 * into the same buffer.
 */
export function writeOfferPriceRS(v: OfferPriceView): XNode {
  const media = mediaIndex(v.dataLists);
  const w = new ByteWriter();
  w.start("Response");
  const lists = dataLists(v.dataLists);
  if (lists) w.node(lists);
  const others = (v.otherALaCarteOffers ?? []).filter((a) => a.items.length > 0);
  if (others.length > 0) {
    w.start("cns:OtherOffers");
    for (const a of others) aLaCarteOffer(w, a, media);
    w.end("cns:OtherOffers");
  }
  for (const pf of paymentFunctions(v.pricedOffer, v.paymentMethods)) w.node(pf);
  offer(w, "cns:PricedOffer", v.pricedOffer, media);
  processing(w, v.processing);
  for (const x of v.warnings) warning(w, x);
  w.end("Response");
  return writtenBytes("Response", w.bytes());
}
