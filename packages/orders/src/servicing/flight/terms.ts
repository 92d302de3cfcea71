import { GatewayError, isGatewayError } from "@ndc/errors";
import type { CurrencyCode } from "@ndc/money";
import type { Journey, PaxCounts, PaxType, PricedPax, Supply } from "@ndc/supply";
import { bandAt, bandFeeMinor, departureReadAsUtc, type FeeBand } from "@ndc/supply";
import { flexibilityOf, judgeChange, type Allowance } from "../../conditions/flexibility";
import { conditionsOfOrder } from "../../conditions/frozen";
import { refuseUnlessMove, type Order, type OrderJourney } from "../../state";

/** What a flight change of one direction of a booked order costs, before choosing an alternative. */
export interface FlightChangeTerms {
  /** The direction (journey) replaced. */
  direction: OrderJourney;
  basis: "frozen" | "current_policy";
  conditionsSource: "brand" | "supplier";
  /** How the change is allowed (conditions/flexibility.ts judgeChange): by the fare, a Flexibility service, or the airline's override (SHPOR1 rule 4). */
  allowance: Allowance;
  /** The band of the changed direction's first departure read as UTC (fee-bands.ts, the one table). */
  band: FeeBand;
  /** The band's fee times the order's passengers, minor units of the order's currency. */
  feeMinor: number;
  /** The journey held for it, as the schedule knows it. */
  heldJourney: Journey;
  /** The direction as paid: its fare with its share of the flight items' adjustments. */
  paidMinor: number;
  /** Surcharges carried on those items (spec 4.5 rule 6: refunded in the change quote). */
  surchargeRefundMinor: number;
  /** Discounts on those items (spec 4.5 rule 6: clawed back). */
  discountClawbackMinor: number;
  /** The direction's fare without adjustments (the engine's price of the held journey). */
  fareMinor: number;
}

/**
 * The terms of changing one direction's flights (spec 4.7 SHPOR1; issue 9 item 3): judged per
 * direction under the conditions frozen onto the order (rule 1): a direction whose fare does not
 * allow change is fare_not_changeable for a seller's machine channel, unless the order's unspent
 * Flexibility service covers it and the request asks to use it (`useFlexibility`; a quote,
 * `quoting`, spends nothing and is given when one is held); the airline's own staff (`airline`)
 * are never refused by the fare: the change is allowed `by: "override"`, naming the rule, for the
 * acceptance to record (rule 4; judgeChange, the one judgement servicing uses). The fee is the band's (fee-bands.ts: 25 / 50 / 75, edges at 72 h
 * and 24 h, a bare integer in every currency) per passenger, measured from the changed direction's
 * own first departure read as UTC, as OrderRulesRS states each direction's band. The old flights
 * are valued without their promotion adjustments, so the surcharge paid on them comes back and a
 * discount on them is clawed back (spec 4.5 rule 6).
 */
export function flightChangeTerms(
  supply: Supply,
  order: Order,
  ask: { orderItemIds: readonly string[]; origin: string; destination: string },
  now: number,
  at: string,
  o: { useFlexibility?: boolean; airline?: boolean; quoting?: boolean } = {},
): FlightChangeTerms {
  refuseUnlessMove(order.state, "flights_changed");
  // A flight item is priced per passenger type over every direction of its offer: the items named
  // must be the order's flight items, and the direction is the one whose ends the request names.
  const flightItems = order.items.filter((i) => i.kind === "flight");
  const named = new Set(ask.orderItemIds);
  if (named.size !== ask.orderItemIds.length || flightItems.length !== named.size || flightItems.some((i) => !named.has(i.orderItemId))) {
    throw new GatewayError("request_invalid", { detail: "DeleteOrderItem must name every flight item of the order (each covers all its directions), and nothing else.", element: at });
  }
  const held = order.journeys.map((j) => heldJourney(supply, j));
  const index = held.findIndex((h) => h?.origin === ask.origin && h.destination === ask.destination);
  const direction = order.journeys[index];
  if (!direction) throw new GatewayError("request_invalid", { detail: `The order has no direction ${ask.origin}-${ask.destination}.`, element: at.replace(/DeleteOrderItem$/, "AddOfferItems/FlightRequest") });
  const { conditions, basis } = conditionsOfOrder(order);
  const c = conditions.directions.find((d) => d.paxJourneyId === direction.paxJourneyId);
  const judge = (useFlexibility: boolean) => judgeChange(order, "change", { paxJourneyId: direction.paxJourneyId, useFlexibility, ...(o.airline ? { airline: true } : {}) });
  let allowance: Allowance;
  try {
    allowance = judge(o.useFlexibility ?? false);
  } catch (e) {
    // A quote spends nothing: with an unspent Flexibility covering the direction it is given, and the acceptance must ask to use it.
    const held = flexibilityOf(order).some((f) => !f.usedBy && f.paxJourneyIds.includes(direction.paxJourneyId));
    if (!(o.quoting && held && isGatewayError(e) && e.code === "fare_not_changeable")) throw e;
    allowance = judge(true);
  }
  const first = supply.flight(direction.flightKeys[0]!);
  const band = first ? bandAt(conditions.changeFeeBands, departureReadAsUtc(first.departure.local), now) : undefined;
  if (!band || band.departed) throw new GatewayError("order_state_invalid", { detail: "The direction's first flight has departed." });
  // The fare of each direction without adjustments: the engine's price is a function of the
  // journey, brand, party and currency, so repricing the held journey gives what was sold.
  const pax = paxCounts(order);
  const fares = order.journeys.map((j, i) => (held[i] ? supply.priceJourney(held[i]!, j.brandCode, pax, order.currency as CurrencyCode).total.amount : 0));
  const fareMinor = fares[index]!;
  const allFares = fares.reduce((s, f) => s + f, 0);
  const offerItems = new Set(flightItems.map((i) => `${i.offerId}/${i.offerItemId}`));
  const adjusted = order.adjustments.filter((a) => offerItems.has(`${a.offerId}/${a.offerItemId}`));
  // An adjustment on a flight item covers all its directions: the direction's share by fare.
  const share = (effect: "surcharge" | "discount") => Math.round((adjusted.filter((a) => a.effect === effect).reduce((s, a) => s + a.minor, 0) * fareMinor) / Math.max(1, allFares));
  const surchargeRefundMinor = share("surcharge");
  const discountClawbackMinor = share("discount");
  return {
    direction,
    heldJourney: held[index]!,
    basis,
    conditionsSource: c?.source ?? "brand",
    allowance,
    band: band.band,
    feeMinor: bandFeeMinor(band.band, order.currency) * Math.max(1, order.passengers.length),
    paidMinor: fareMinor + surchargeRefundMinor - discountClawbackMinor,
    surchargeRefundMinor,
    discountClawbackMinor,
    fareMinor,
  };
}

/** The journey the schedule knows for a direction held (same flights), or undefined when it no longer does. */
function heldJourney(supply: Supply, j: OrderJourney): Journey | undefined {
  const first = supply.flight(j.flightKeys[0]!);
  const last = supply.flight(j.flightKeys[j.flightKeys.length - 1]!);
  if (!first || !last) return undefined;
  const keys = j.flightKeys.join(" ");
  return supply.journeys(first.origin, last.destination, first.date).find((x) => x.segments.map((s) => s.key).join(" ") === keys);
}

function paxCounts(order: Order): PaxCounts {
  const pax: PaxCounts = {};
  for (const p of order.passengers) pax[p.ptc as PaxType] = (pax[p.ptc as PaxType] ?? 0) + 1;
  return pax;
}

/** An alternative for the direction: a journey in the same brand, priced WITHOUT promotion adjustments (spec 4.5 rule 6). */
export interface FlightAlternative {
  journey: Journey;
  brandCode: string;
  /** Every passenger, every tax. */
  priceMinor: number;
  /** price - the direction as paid + fee = price - fare - surcharge + discount + fee: > 0 due, < 0 refunded. */
  dueMinor: number;
  /** The new fare per passenger type (base, taxes): what OrderReshopRS's AddedOfferItem prices. */
  pax: PricedPax[];
}

/** The journeys of that day between the direction's ends, other than the one held, in the direction's brand. */
export function flightAlternatives(supply: Supply, order: Order, terms: FlightChangeTerms, ask: { origin: string; destination: string; date: string }): FlightAlternative[] {
  const pax = paxCounts(order);
  const held = terms.direction.flightKeys.join(" ");
  return supply
    .journeys(ask.origin, ask.destination, ask.date)
    .filter((j) => j.segments.map((s) => s.key).join(" ") !== held)
    .flatMap((journey) => {
      try {
        const priced = supply.priceJourney(journey, terms.direction.brandCode, pax, order.currency as CurrencyCode);
        const priceMinor = priced.total.amount;
        return [{ journey, brandCode: terms.direction.brandCode, priceMinor, dueMinor: priceMinor - terms.paidMinor + terms.feeMinor, pax: priced.pax }];
      } catch {
        return []; // the brand is not sold on that journey's cabins
      }
    });
}
