import { GatewayError } from "@ndc/errors";
import type { ListedOrder, OrderListDetails, OrderListFilters, OrderState } from "@ndc/orders";
import { ORDER_STATUS_CODES } from "../shared/view/status-codes";
import type { OrderListRequest, RangeFilter } from "./request";
import type { MatchedOrderView, OrderListView } from "./view";

/** Wire status code -> states; an unknown code is refused rather than matching nothing silently. */
const STATES_BY_CODE = new Map<string, OrderState>(Object.entries(ORDER_STATUS_CODES).map(([state, code]) => [code, state as OrderState]));

function instant(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Date.parse(v);
}

/** OrderListRQ's filters as the domain takes them; an unknown status code is refused, naming it. */
export function orderListFilters(r: OrderListRequest): OrderListFilters {
  const f: OrderListFilters = {};
  const set = (range: RangeFilter | undefined, from: "createdFrom" | "modifiedFrom", to: "createdTo" | "modifiedTo") => {
    const a = instant(range?.from);
    const b = instant(range?.to);
    if (a !== undefined) f[from] = a;
    if (b !== undefined) f[to] = b;
  };
  set(r.created, "createdFrom", "createdTo");
  set(r.lastModified, "modifiedFrom", "modifiedTo");
  if (r.travelDates?.from) f.travelFrom = r.travelDates.from;
  if (r.travelDates?.to) f.travelTo = r.travelDates.to;
  if (r.statusCodes.length) {
    f.states = r.statusCodes.map((code, i) => {
      const state = STATES_BY_CODE.get(code);
      if (!state) throw new GatewayError("request_invalid", { detail: `Unknown order status code; use ${[...STATES_BY_CODE.keys()].join(", ")}.`, element: `AugmentationPoint/StatusCode[${i + 1}]` });
      return state;
    });
  }
  return f;
}

/**
 * MatchedOrder's Dep is the order's first flight; Arrival ends the first journey (the trip's
 * destination, also for a return), as the domain read them (OrdersService.listDetails). Times
 * are the schedule's local dates.
 */
function matched({ summary: s, departure: dep, arrival: arr }: ListedOrder): MatchedOrderView {
  const v: MatchedOrderView = { orderId: s.orderId, statusCode: ORDER_STATUS_CODES[s.state], createdAt: new Date(s.createdAt).toISOString() };
  if (dep) v.departure = { station: dep.origin, date: dep.departure.local.slice(0, 10) };
  if (arr) v.arrival = { station: arr.destination, date: arr.arrival.local.slice(0, 10) };
  return v;
}

/** OrderListRS of one page of listed orders. Pure. */
export function orderListViewOf(page: OrderListDetails, size: number): OrderListView {
  return {
    orders: page.orders.map(matched),
    page: { size, ...(page.next ? { next: page.next } : {}) },
    warnings: [],
  };
}
