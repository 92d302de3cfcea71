import { GatewayError } from "@ndc/errors";
import type { OrdersContext } from "../../context";
import type { Order } from "../../state";
import { isStaff, orderFor, type ServicingActor } from "../actor";
import { FLIGHT_CHANGE_QUOTE_TTL_MS, signFlightsChange, type FlightChangeAsk } from "./quote";
import { flightAlternatives, flightChangeTerms, type FlightAlternative, type FlightChangeTerms } from "./terms";

/**
 * At most this many combinations are offered for a change of several directions: the product of
 * each direction's alternatives grows fast (ten a day each make a hundred), and an answer of a
 * dozen firm offers is what a seller's screen shows (docs/servicing.md, "Several directions").
 */
export const MAX_FLIGHT_CHANGE_COMBINATIONS = 12;

/** One alternative per direction, priced and charged as one change under one signed id. */
export interface FlightChangeCombination {
  /** In the order the request named the directions. */
  alternatives: FlightAlternative[];
  /** The sum of each direction's due (its new fare less the direction as paid plus its fee): > 0 charged once, < 0 refunded once. */
  dueMinor: number;
  quoteId: string;
}

/** OrderReshopRQ replacing several directions at once: each direction's terms, and the combinations offered. */
export interface FlightsChangeQuote {
  /** Each direction's terms (fee band, allowance, the direction as paid), in the order asked. */
  terms: FlightChangeTerms[];
  combinations: FlightChangeCombination[];
  expiresAt: number;
}

/** The seller's own booked order (any order for the airline's staff) and its combinations as firm quotes; spends nothing. */
export async function quoteFlightsChange(ctx: OrdersContext, orderId: string, by: ServicingActor, asks: FlightChangeAsk[]): Promise<{ order: Order; quote: FlightsChangeQuote }> {
  const order = orderFor(await ctx.orders.ask(orderId, { op: "get" }), by);
  return { order, quote: flightsChangeQuote(ctx, order, asks, ctx.clock.now(), isStaff(by)) };
}

/**
 * Each direction is judged and priced exactly as a one-direction change (terms.ts: its own fee
 * band and passengers, its own allowance); the combinations are every choice of one alternative
 * per direction, cheapest first (the seller's usual question), equal dues in schedule order
 * (the first direction's departure, then the next), capped at MAX_FLIGHT_CHANGE_COMBINATIONS.
 */
export function flightsChangeQuote(ctx: Pick<OrdersContext, "supply" | "fieldKey">, order: Order, asks: FlightChangeAsk[], now: number, airline = false): FlightsChangeQuote {
  const terms = asks.map((ask) => flightChangeTerms(ctx.supply, order, ask, now, ask.at, { quoting: true, airline }));
  const directions = terms.map((t) => order.journeys.indexOf(t.direction));
  if (new Set(directions).size !== directions.length) {
    throw new GatewayError("request_invalid", { detail: "Each OriginDestCriteria must name another direction of the order.", element: asks[0]!.at.replace(/DeleteOrderItem$/, "AddOfferItems/FlightRequest") });
  }
  const options = terms.map((t, i) => flightAlternatives(ctx.supply, order, t, asks[i]!));
  const expiresAt = Math.floor((now + FLIGHT_CHANGE_QUOTE_TTL_MS) / 1000) * 1000;
  const combinations = product(options)
    .map((alternatives) => ({ alternatives, dueMinor: alternatives.reduce((s, a) => s + a.dueMinor, 0) }))
    .sort((a, b) => a.dueMinor - b.dueMinor || scheduleOrder(a.alternatives, b.alternatives))
    .slice(0, MAX_FLIGHT_CHANGE_COMBINATIONS)
    .map((c) => ({
      ...c,
      quoteId: signFlightsChange(ctx.fieldKey, {
        orderId: order.orderId,
        version: order.version,
        directions: c.alternatives.map((a, i) => ({ direction: directions[i]!, flightKeys: a.journey.segments.map((s) => s.key), brandCode: a.brandCode })),
        dueMinor: c.dueMinor,
        expiresAt,
      }),
    }));
  return { terms, combinations, expiresAt };
}

/** Every choice of one element per list (none when a list is empty: that direction has no alternative that day). */
function product<T>(lists: readonly T[][]): T[][] {
  return lists.reduce<T[][]>((acc, list) => acc.flatMap((prefix) => list.map((x) => [...prefix, x])), [[]]);
}

function scheduleOrder(a: readonly FlightAlternative[], b: readonly FlightAlternative[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!.journey.segments[0]!.departure.local;
    const y = b[i]!.journey.segments[0]!.departure.local;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
