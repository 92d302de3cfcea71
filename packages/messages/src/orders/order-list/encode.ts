import { c, cOpt, el, NS, type XNode } from "@ndc/xml";
import { processing, warning } from "../../shopping/shared/encode/common";
import type { MatchedOrderView, OrderListView } from "./view";

function matchedOrder(o: MatchedOrderView): XNode {
  return c(
    "MatchedOrder",
    o.arrival ? c("Arrival", c("ArrivalDate", o.arrival.date), c("StationCode", o.arrival.station)) : null,
    cOpt("CreationDateTime", o.createdAt),
    o.departure ? c("Dep", c("DepDate", o.departure.date), c("StationCode", o.departure.station)) : null,
    c("OrderRefID", o.orderId),
    c("OrderStatusCode", o.statusCode),
  );
}

/** OrderListRS has no paging element: the page is also stated in a Warning (English, gateway-composed). */
function pageWarning(v: OrderListView): XNode {
  const more = v.page.next
    ? " More orders match: send the same request with the gw:NextPage cursor of this answer's AugmentationPoint as gw:Page/@after."
    : " This is the last page.";
  return warning({ code: "order_list_page", text: `${v.orders.length} orders on this page, at most ${v.page.size} per page.${more}` });
}

/** <gw:NextPage after="cursor" size="n"/> for the root's AugmentationPoint, when another page follows. */
export function orderListAugmentation(v: OrderListView): XNode[] {
  return v.page.next ? [el("gw:NextPage", { "xmlns:gw": NS.gateway, after: v.page.next, size: v.page.size })] : [];
}

/** The Response element of IATA_OrderListRS (OrderListResponseType), children in schema order. */
export function encodeOrderListRS(v: OrderListView): XNode {
  return el("Response", null, v.orders.map(matchedOrder), processing(v.processing), pageWarning(v), v.warnings.map(warning));
}
