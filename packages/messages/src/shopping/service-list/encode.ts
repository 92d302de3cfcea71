import { el, type XNode } from "@ndc/xml";
import { aLaCarteOffer } from "../shared/encode/a-la-carte";
import { processing, warning } from "../shared/encode/common";
import { dataLists, mediaIndex } from "../shared/encode/data-lists";
import type { ServiceListView } from "./view";

/** The Response element of IATA_ServiceListRS (ServiceListResponseType), children in schema order. */
export function encodeServiceListRS(v: ServiceListView): XNode {
  const media = mediaIndex(v.dataLists);
  return el(
    "Response",
    null,
    v.aLaCarteOffer ? aLaCarteOffer(v.aLaCarteOffer, media) : null,
    dataLists(v.dataLists),
    processing(v.processing),
    v.warnings.map(warning),
  );
}
