import { GatewayError } from "@ndc/errors";
import { ORDER_STATUS_CODES as STATUS_CODES, decodeOrderListRQ, encodeOrderListRS, orderListAugmentation, type MatchedOrderView, type MessageHandler, type OrderListRequest, type OrderListView, type RangeFilter } from "@ndc/messages";
import type { Order, OrderListFilters, OrderListResult, OrderState, OrderSummary } from "@ndc/orders";
import type { HandlerDeps } from "./deps";

/** Wire status code -> states; an unknown code is refused rather than matching nothing silently. */
const STATES_BY_CODE = new Map<string, OrderState>(Object.entries(STATUS_CODES).map(([state, code]) => [code, state as OrderState]));

function instant(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Date.parse(v);
}

function filtersOf(r: OrderListRequest): OrderListFilters {
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
 * destination, also for a return). Read from the order and the schedule: the index row holds no
 * stations. Times are the schedule's local dates.
 */
function matched(s: OrderSummary, order: Order | undefined, deps: HandlerDeps): MatchedOrderView {
  const v: MatchedOrderView = { orderId: s.orderId, statusCode: STATUS_CODES[s.state], createdAt: new Date(s.createdAt).toISOString() };
  const first = order?.journeys[0];
  const dep = first ? deps.supply.flight(first.flightKeys[0]!) : undefined;
  const arr = first ? deps.supply.flight(first.flightKeys[first.flightKeys.length - 1]!) : undefined;
  if (dep) v.departure = { station: dep.origin, date: dep.departure.local.slice(0, 10) };
  if (arr) v.arrival = { station: arr.destination, date: arr.arrival.local.slice(0, 10) };
  return v;
}

/** OrderListRQ (spec 4.7, 5.7): the caller's own orders only, newest first, filtered and paged by cursor. */
export function orderListHandler(deps: HandlerDeps): MessageHandler {
  return async ({ envelope, seller }) => {
    const request = decodeOrderListRQ(envelope);
    const { size, after } = request.page;
    const owner = { clientId: seller.clientId, agencyId: seller.agencyId };
    // Every order here is this airline's: a filter naming another carrier matches none.
    const result: OrderListResult =
      request.carrier !== undefined && request.carrier !== deps.config.airline.designator
        ? { orders: [] }
        : await deps.orders.list(owner, filtersOf(request), { limit: size, ...(after !== undefined ? { after } : {}) });
    const orders = await Promise.all(result.orders.map((s) => deps.orders.retrieve(s.orderId, owner)));
    const view: OrderListView = {
      orders: result.orders.map((s, i) => matched(s, orders[i], deps)),
      page: { size, ...(result.next ? { next: result.next } : {}) },
      warnings: [],
    };
    return { response: encodeOrderListRS(view), augmentation: orderListAugmentation(view) };
  };
}
