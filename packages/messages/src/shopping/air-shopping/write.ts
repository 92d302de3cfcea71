import { writtenBytes, ByteWriter, type XNode } from "@ndc/xml";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import { aLaCarteOffer } from "../shared/write/a-la-carte";
import { processing, warning } from "../shared/write/common";
import { offer } from "../shared/write/offer";
import { carrierGroups } from "./groups";
import type { AirShoppingView } from "./view";

/**
 * The Response element of IATA_AirShoppingRS written straight to bytes in schema order (the
 * byte writer): the same bytes as the tree encoder `airShoppingResponseTree` (./encode.ts),
 * which test/shopping/response-writer.test.ts checks on real answers. DataLists, a small part of
 * the answer, is still built by the shared tree encoder (ServiceList, SeatAvailability and orders
 * use it) and walked into the same buffer. The envelope is written around the bytes (responseBody).
 */
export function writeAirShoppingRS(v: AirShoppingView): XNode {
  const media = mediaIndex(v.dataLists);
  const w = new ByteWriter();
  w.start("Response");
  const lists = dataLists(v.dataLists);
  if (lists) w.node(lists);
  w.start("cns:OffersGroup");
  w.start("cns:AllOffersSummary");
  w.leaf("cns:MatchedOfferQty", v.offers.length);
  w.end("cns:AllOffersSummary");
  for (const g of carrierGroups(v).values()) {
    w.start("cns:CarrierOffers");
    for (const a of g.aLaCarte) aLaCarteOffer(w, a, media);
    for (const o of g.offers) offer(w, "cns:Offer", o, media);
    w.end("cns:CarrierOffers");
  }
  w.end("cns:OffersGroup");
  processing(w, v.processing);
  for (const x of v.warnings) warning(w, x);
  w.end("Response");
  return writtenBytes("Response", w.bytes());
}
