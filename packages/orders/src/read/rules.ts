import { GatewayError } from "@ndc/errors";
import type { FlightOfferPayload, OfferPayload } from "@ndc/shopping";
import type { OrdersContext } from "../context";
import { bandAt, CHANGE_FEE_BANDS, departureReadAsUtc, type BandAt, type FeeBand } from "@ndc/supply";
import { conditionsOfOrder, directionConditions, type DirectionConditions } from "../conditions/frozen";
import type { OrderState, Seller } from "../state";
import { flexibilityOf, type FlexibilityHeld } from "../conditions/flexibility";
import { retrieve } from "./read";

/**
 * OrderRules (spec 4.7, SHPOR1): the terms of a booked order or of an offer, per direction,
 * with the change fee by time-to-departure band. Everything is decided here; the message layer
 * only places it in IATA_OrderRulesRS.
 */
export interface DirectionTerms {
  conditions: DirectionConditions;
  origin: string;
  destination: string;
  /** The first flight's departure, local wall-clock time at the origin (YYYY-MM-DDTHH:MM). */
  departureLocal: string;
  /** That time read as UTC (fee-bands.ts): the change cutoff and the band edges are measured from it. */
  departureAsUtcMs: number;
  /** The band now falls in, or departed. */
  now: BandAt;
  /** A booked order's live eligibility for changing this direction (judged per direction, SHPOR1 rule 2). */
  eligibility?: { changeAllowedNow: boolean; reason: string };
}

export interface OrderRules {
  form: "order" | "offer";
  currency: string;
  /** frozen: the order's own; current_policy: an order booked before freezing; offer: the brand policy now. */
  basis: "frozen" | "current_policy" | "offer";
  frozenBy?: "booking" | "migration";
  changeFeeBands: FeeBand[];
  /** Outbound first. */
  directions: DirectionTerms[];
  at: number;
}

/** Form 1: a booked order by OrderStructureKey (ownership first: another seller's order is order_not_found). */
export async function orderRules(ctx: OrdersContext, orderId: string, seller: Seller): Promise<OrderRules> {
  const order = await retrieve(ctx, orderId, seller);
  const { conditions, basis } = conditionsOfOrder(order);
  const at = ctx.clock.now();
  const flex = flexibilityOf(order);
  const directions = termsOf(ctx, conditions.directions, order.journeys, conditions.changeFeeBands, at).map((d) => ({
    ...d,
    eligibility: eligibility(order.state, d, flex.find((f) => !f.usedBy && f.paxJourneyIds.includes(d.conditions.paxJourneyId))),
  }));
  return {
    form: "order",
    currency: order.currency,
    basis,
    ...(order.fareConditions ? { frozenBy: order.fareConditions.frozenBy } : {}),
    changeFeeBands: conditions.changeFeeBands,
    directions,
    at,
  };
}

/** Form 2: an offer issued to this seller, by its OfferID (FareRefText), under the brand policy now. */
export async function offerRules(ctx: OrdersContext, offerId: string, seller: Seller): Promise<OrderRules> {
  const bands = CHANGE_FEE_BANDS;
  const offer = await ctx.offers.resolve<OfferPayload>(offerId, seller, "Request/RulesCoreRequest/FareRef/FareRefText");
  if (offer.payload.kind !== "flight") {
    throw new GatewayError("request_invalid", { detail: "FareRefText names an offer of services; fare rules are those of a flight offer.", element: "Request/RulesCoreRequest/FareRef/FareRefText" });
  }
  const payload: FlightOfferPayload = offer.payload;
  const at = ctx.clock.now();
  return {
    form: "offer",
    currency: payload.currency,
    basis: "offer",
    changeFeeBands: [...bands],
    directions: termsOf(ctx, directionConditions(payload.journeys), payload.journeys, bands, at),
    at,
  };
}

function termsOf(
  ctx: OrdersContext,
  conditions: readonly DirectionConditions[],
  journeys: readonly { paxJourneyId: string; flightKeys: string[] }[],
  bands: readonly FeeBand[],
  at: number,
): DirectionTerms[] {
  return conditions.flatMap((c) => {
    const keys = journeys.find((j) => j.paxJourneyId === c.paxJourneyId)?.flightKeys ?? [];
    const first = keys[0] ? ctx.supply.flight(keys[0]) : undefined;
    const last = keys.length ? ctx.supply.flight(keys[keys.length - 1]!) : undefined;
    // A flight the schedule no longer knows has no departure to measure from: the direction is left out.
    if (!first || !last) return [];
    const departureAsUtcMs = departureReadAsUtc(first.departure.local);
    return [{ conditions: c, origin: first.origin, destination: last.destination, departureLocal: first.departure.local.slice(0, 16), departureAsUtcMs, now: bandAt(bands, departureAsUtcMs, at) }];
  });
}

/** `flex`: an unspent Flexibility service covering the direction, which allows what the fare does not (conditions/flexibility.ts). */
function eligibility(state: OrderState, d: DirectionTerms, flex?: FlexibilityHeld): NonNullable<DirectionTerms["eligibility"]> {
  if (state !== "booked") return { changeAllowedNow: false, reason: `the order is not booked (${state.replace(/_/g, " ")})` };
  if (d.now.departed) return { changeAllowedNow: false, reason: "its first flight has departed (changes close at departure, read as UTC)" };
  if (!d.conditions.changeable && flex) {
    return { changeAllowedNow: true, reason: `the ${d.conditions.brandCode} fare does not allow changes, but the order's unused Flexibility service (${flex.code}) does, spent once when a change asks for it (OrderChangeParameters/ReasonCode FLEXIBILITY); change fee band ${d.now.band.id}` };
  }
  if (!d.conditions.changeable) return { changeAllowedNow: false, reason: `the ${d.conditions.brandCode} fare does not allow changes` };
  return { changeAllowedNow: true, reason: `change fee band ${d.now.band.id}` };
}
