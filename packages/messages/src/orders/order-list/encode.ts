import { c, cOpt, el, type XNode } from "@ndc/xml";
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

/** OrderListRS has no paging element: the page is stated in a Warning (English, gateway-composed). */
function pageWarning(p: OrderListView["page"]): XNode {
  const pages = Math.max(1, Math.ceil(p.totalOrders / p.size));
  const more = p.number < pages ? ` Ask for page ${p.number + 1} for more.` : " This is the last page.";
  return warning({ code: "order_list_page", text: `Page ${p.number} of ${pages}: ${p.totalOrders} orders match, ${p.size} per page.${more}` });
}

/** The Response element of IATA_OrderListRS (OrderListResponseType), children in schema order. */
export function encodeOrderListRS(v: OrderListView): XNode {
  return el("Response", null, v.orders.map(matchedOrder), processing(v.processing), pageWarning(v.page), v.warnings.map(warning));
}
