import { GatewayError } from "@ndc/errors";
import type { FieldKey } from "@ndc/pii";
import { mac, sameMac } from "../../cancel/quote";
import type { OrdersContext } from "../../context";
import type { Order } from "../../state";
import { isStaff, orderFor, type ServicingActor } from "../actor";
import { flightAlternatives, flightChangeTerms, type FlightAlternative, type FlightChangeTerms } from "./terms";

/** How long a flight-change quote is firm (as the other servicing quotes). */
export const FLIGHT_CHANGE_QUOTE_TTL_MS = 15 * 60_000;
const PURPOSE = "ndc-gateway flight change quote v1";
const PREFIX = "FCQ";

/** What OrderReshopRQ asks: replace these flight items (one direction) by a journey on that day. */
export interface FlightChangeAsk {
  orderItemIds: string[];
  origin: string;
  destination: string;
  date: string;
  /** The request path of DeleteOrderItem, for refusals. */
  at: string;
}

/** One alternative as a firm offer: its id (signed) carries what the accept must match. */
export interface QuotedAlternative extends FlightAlternative {
  quoteId: string;
}

export interface FlightChangeQuote {
  terms: FlightChangeTerms;
  alternatives: QuotedAlternative[];
  expiresAt: number;
}

/** What a flight-change quote id carries, MAC'd: the order at its version, the direction, the journey chosen, the amount due and the expiry. */
export interface SignedFlightChange {
  orderId: string;
  version: number;
  /** The direction's index in the order's journeys. */
  direction: number;
  flightKeys: string[];
  brandCode: string;
  dueMinor: number;
  expiresAt: number;
}

/**
 * `FCQ.<version>.<direction>.<flight keys joined by +>.<brand>.<due>.<expiry s>.<mac>`: nothing is
 * stored, the id is the quote (as the cancel quote, decision 0015). The order is MAC'd but not
 * written out (the accepting request names it), so the id stays within the 128 characters an ID
 * may have (24.4 ID_Type, the gateway's limit): about 90 for a two-flight journey.
 */
export function signFlightChange(key: FieldKey, s: SignedFlightChange): string {
  const body = [PREFIX, s.version, s.direction, s.flightKeys.join("+"), s.brandCode, s.dueMinor, Math.floor(s.expiresAt / 1000)].join(".");
  return `${body}.${mac(key, `${s.orderId}|${body}`, PURPOSE)}`;
}

/** The signed contents, or offer_not_found when the id was not issued here for `orderId`. */
export function verifyFlightChange(key: FieldKey, quoteId: string, orderId: string, element: string): SignedFlightChange {
  const parts = quoteId.split(".");
  const refuse = () => new GatewayError("offer_not_found", { detail: "Not a flight-change quote issued for this order.", element });
  if (parts.length !== 8 || parts[0] !== PREFIX) throw refuse();
  const body = parts.slice(0, 7).join(".");
  // As text (sameMac): another spelling of the same MAC bytes would be another saga key for one quote.
  if (!sameMac(parts[7]!, mac(key, `${orderId}|${body}`, PURPOSE))) throw refuse();
  const [, version, direction, keys, brandCode, due, expiresS] = parts as [string, string, string, string, string, string, string];
  return { orderId, version: Number(version), direction: Number(direction), flightKeys: keys.split("+"), brandCode, dueMinor: Number(due), expiresAt: Number(expiresS) * 1000 };
}

/** One direction's part of a quote: the direction's index in the order's journeys and the journey chosen for it. */
export interface DirectionChoice {
  direction: number;
  flightKeys: string[];
  brandCode: string;
}

/** What any flight-change quote id carries: one direction (the form above) or several replaced together (decision 0016, addendum). */
export interface SignedFlightsChange {
  orderId: string;
  version: number;
  /** In the order the request named them; one entry for a one-direction id. */
  directions: DirectionChoice[];
  /** The whole change's amount due (every direction's fee and difference): one charge, or one refund when negative. */
  dueMinor: number;
  expiresAt: number;
}

const DIRECTIONS_PURPOSE = "ndc-gateway flight change quote v2 directions";

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** A flight of the direction's first day written as `XB-100`; a later day's (an overnight connection) as `XB-100-1`, days after it. */
function flightToken(key: string, day: string): string {
  const [carrier, number, ...date] = key.split("-");
  const after = dayNumber(date.join("-")) - dayNumber(day);
  return after === 0 ? `${carrier}-${number}` : `${carrier}-${number}-${after}`;
}

function flightKeyOf(token: string, day: string): string {
  const [carrier, number, after] = token.split("-");
  return `${carrier}-${number}-${new Date((dayNumber(day) + Number(after ?? 0)) * DAY_MS).toISOString().slice(0, 10)}`;
}

/**
 * Several directions in one id: `FCQ.<version>.<dir>_<brand>_<yyyymmdd>_<flights>~<dir>_....<due>.<expiry s>.<mac>`,
 * each direction's day written once and its flights as carrier-number (joined by +; a flight on
 * a later day as carrier-number-days after), so two directions of two flights each stay within
 * the 128 characters of an ID (about 96 in the sandbox, 124 at worst: version 999, four-digit
 * flight numbers, an eight-letter brand, a seven-character due). Six parts
 * where the one-direction form has eight: the two never read as each other, and the MAC is under
 * its own purpose.
 */
export function signFlightsChange(key: FieldKey, s: SignedFlightsChange): string {
  if (s.directions.length === 1) {
    const [d] = s.directions as [DirectionChoice];
    return signFlightChange(key, { orderId: s.orderId, version: s.version, direction: d.direction, flightKeys: d.flightKeys, brandCode: d.brandCode, dueMinor: s.dueMinor, expiresAt: s.expiresAt });
  }
  const dirs = s.directions
    .map((d) => {
      const day = d.flightKeys[0]!.slice(-10);
      return [d.direction, d.brandCode, day.replaceAll("-", ""), d.flightKeys.map((k) => flightToken(k, day)).join("+")].join("_");
    })
    .join("~");
  const body = [PREFIX, s.version, dirs, s.dueMinor, Math.floor(s.expiresAt / 1000)].join(".");
  return `${body}.${mac(key, `${s.orderId}|${body}`, DIRECTIONS_PURPOSE)}`;
}

/** Either form of id, read as directions (OrderChangeRQ's acceptance); offer_not_found when not issued here for `orderId`. */
export function verifyFlightsChange(key: FieldKey, quoteId: string, orderId: string, element: string): SignedFlightsChange {
  const parts = quoteId.split(".");
  if (parts.length !== 6) {
    const s = verifyFlightChange(key, quoteId, orderId, element);
    return { orderId, version: s.version, directions: [{ direction: s.direction, flightKeys: s.flightKeys, brandCode: s.brandCode }], dueMinor: s.dueMinor, expiresAt: s.expiresAt };
  }
  const refuse = () => new GatewayError("offer_not_found", { detail: "Not a flight-change quote issued for this order.", element });
  if (parts[0] !== PREFIX) throw refuse();
  const body = parts.slice(0, 5).join(".");
  if (!sameMac(parts[5]!, mac(key, `${orderId}|${body}`, DIRECTIONS_PURPOSE))) throw refuse();
  const [, version, dirs, due, expiresS] = parts as [string, string, string, string, string];
  const directions = dirs.split("~").map((d) => {
    const [direction, brandCode, ymd, flights] = d.split("_") as [string, string, string, string];
    const day = `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
    return { direction: Number(direction), brandCode, flightKeys: flights.split("+").map((t) => flightKeyOf(t, day)) };
  });
  return { orderId, version: Number(version), directions, dueMinor: Number(due), expiresAt: Number(expiresS) * 1000 };
}

/**
 * OrderReshopRQ replacing a direction: the seller's own booked order (any order for the airline's
 * staff), its terms, and each alternative as a firm quote. The quote states how the change is
 * allowed (terms.allowance: the fare, the order's Flexibility to be spent on acceptance, or the
 * staff's override of the fare rule), and spends nothing.
 */
export async function quoteFlightChange(ctx: OrdersContext, orderId: string, by: ServicingActor, ask: FlightChangeAsk): Promise<{ order: Order; quote: FlightChangeQuote }> {
  const order = orderFor(await ctx.orders.ask(orderId, { op: "get" }), by);
  const now = ctx.clock.now();
  return { order, quote: flightChangeQuote(ctx, order, ask, now, isStaff(by)) };
}

export function flightChangeQuote(ctx: Pick<OrdersContext, "supply" | "fieldKey">, order: Order, ask: FlightChangeAsk, now: number, airline = false): FlightChangeQuote {
  const terms = flightChangeTerms(ctx.supply, order, ask, now, ask.at, { quoting: true, airline });
  const expiresAt = Math.floor((now + FLIGHT_CHANGE_QUOTE_TTL_MS) / 1000) * 1000;
  const alternatives = flightAlternatives(ctx.supply, order, terms, ask).map((a) => ({
    ...a,
    quoteId: signFlightChange(ctx.fieldKey, {
      orderId: order.orderId,
      version: order.version,
      direction: order.journeys.indexOf(terms.direction),
      flightKeys: a.journey.segments.map((s) => s.key),
      brandCode: a.brandCode,
      dueMinor: a.dueMinor,
      expiresAt,
    }),
  }));
  return { terms, alternatives, expiresAt };
}
