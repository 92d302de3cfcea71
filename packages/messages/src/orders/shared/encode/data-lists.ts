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
  // c() keeps its children as given (here one nested array), so flatten before merging.
  const theirs = ((shopping?.children ?? []) as unknown[]).flat(Infinity) as (XNode | null)[];
  const lists = [...theirs, contactInfoList(d.contacts), paxList(d.passengers)].filter((n): n is XNode => n !== null && typeof n === "object");
  lists.sort((a, b) => (localName(a) < localName(b) ? -1 : localName(a) > localName(b) ? 1 : 0));
  return lists.length > 0 ? c("DataLists", lists) : null;
}
