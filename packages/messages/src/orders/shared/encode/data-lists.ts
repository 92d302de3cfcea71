import { c, type XNode } from "@ndc/xml";
import { dataLists } from "../../../shopping/shared/encode/data-lists";
import type { OrderDataListsView } from "../view/order";
import { contactInfoList, paxList } from "./pax";

function localName(n: XNode): string {
  return n.name.slice(n.name.indexOf(":") + 1);
}

/**
 * DataLists of an order: shopping's lists (flights, services, seat profiles, price classes)
 * plus the full passengers and contacts. DataListsType's children are in alphabetical order,
 * so merging ours in is a sort by local name.
 */
export function orderDataLists(d: OrderDataListsView): XNode | null {
  const shopping = dataLists({ ...d, passengers: [] });
  const lists = [...((shopping?.children ?? []) as XNode[]), contactInfoList(d.contacts), paxList(d.passengers)].filter((n): n is XNode => n !== null);
  lists.sort((a, b) => (localName(a) < localName(b) ? -1 : localName(a) > localName(b) ? 1 : 0));
  return lists.length > 0 ? c("DataLists", lists) : null;
}
