import { askTogether } from "@ndc/actors";
import { GatewayError } from "@ndc/errors";
import type { CommissionAgreement, LegRequest, SaleAuthorisation } from "@ndc/payments";
import type { OrdersContext } from "../../context";
import { fingerprintOf } from "../../fingerprint";
import { ids } from "../../ids";
import { writePhase, type OperationRow } from "../../operation/store";
import type { Saga } from "../../saga/declaration";
import { runSaga } from "../../saga/runner";
import type { ChangeOverride, Order, OrderJourney, PostSaleCharge, SeatHoldRef } from "../../state";
import type { FurtherDirection } from "../../actor/events";
import type { DirectionChoice } from "./quote";
import { isStaff, type AlsoInCommit, type ServicingActor } from "../actor";
import type { Allowance } from "../../conditions/flexibility";
import type { ChargePlanCore } from "../charge/operation";
import { appendOverride } from "../override/audit";
import { chargeRow, postSaleCharge } from "../charge/plan";
import { authorisedLegs, chargeCommitted, chargeOpening, chargeStart, chargeSteps, compensateCharge, type ChargeRun } from "../charge/steps";
import { ACCEPT_AT, checkFlightChangeQuote } from "./accept";
import { closeFlightChange, finishFlightChange, planChangeRefund, type ChangeRefund } from "./refund";
import { flightAlternatives, flightChangeTerms } from "./terms";
import { orderAsk } from "../../actor/joint";

/** OrderChangeRQ naming a flight-change quote (`FCQ.` id) as its SelectedPricedOffer, with the legs paying its due; or the airline's staff accepting one in process. */
export interface FlightChangeInput {
  by: ServicingActor;
  /** The request asks to use the order's Flexibility service if the fare does not allow the change (OrderChangeParameters/ReasonCode FLEXIBILITY). */
  useFlexibility?: boolean;
  orderId: string;
  quoteId: string;
  correlationId: string;
  trxId: string;
  payment: LegRequest[];
  commissionAgreement?: CommissionAgreement;
  /** A staff change's own audit row, written in the commit write (servicing/actor.ts); not part of what makes a retry the same. */
  alsoInCommit?: AlsoInCommit;
}

/** The change's recovery record: everything its phases write, decided before the open write. No personal data. */
export interface FlightChangePlan extends ChargePlanCore {
  changeRef: string;
  quoteId: string;
  /** The direction's index in the order's journeys, and the journey replacing it (the first direction the quote names). */
  direction: number;
  journey: OrderJourney;
  /** The quote's other directions, replaced in the same commit (absent in plans of one direction, as every plan before them). */
  further?: FurtherDirection[];
  /** The amount due as quoted (fee included), charged to the order; negative when the change costs less than the fare paid. */
  charge: PostSaleCharge;
  /** A negative due: paid back after the commit (refund.ts), newest leg first, keyed. */
  refund?: ChangeRefund;
  legCount: number;
  /** The new flights' seats, held in the open write (the same seat ids the order held on the flights replaced). */
  seatHolds: SeatHoldRef[];
  /** The order's holds on the flights replaced, released in the commit write. */
  released: SeatHoldRef[];
  /** How the change was allowed (SHPOR1 rules 3, 4): by the fare, a Flexibility spent in the commit write, or the staff's override (recorded in the commit write: history and audit trail). */
  allowedBy: Allowance["by"];
  flexibilityItemId?: string;
  override?: ChangeOverride & { ruleText: string };
  staffId?: string;
}

type FlightOperation = OperationRow<FlightChangePlan>;

/**
 * Accepting a flight-change quote (decision 0016) as a saga in the phases of `order_add`
 * (servicing/add/saga.ts), each one write, the PSP called between them under keys written before:
 *   1. open: the new flights' seats held, the operation row (kind `order_change_flight`, keyed by the quote: a quote is spent
 *      once) and the planned card legs; -> the amount due authorised;
 *   2. commit: the order's `flights_changed` (the direction's journey replaced, or every direction
 *      of a combination's quote: combinations.ts; the legs, the one charge), the legs' answers,
 *      `committed`; -> the PSP captures under `<op>/capture`;
 *   3. close (finishCharge): the captures and `done`.
 * A change costing less than the fare paid takes nothing: no legs are sent, the commit records the
 * negative charge, then the PSP pays the difference back under `<op>/refund/<legId>` (newest leg
 * first) and the close write records the refund and `done` (refund.ts: the cancellation's phased
 * refund). A decline or a refusal short of the commit voids what was authorised (compensateCharge).
 * The reconciler finishes (finishFlightChange) or compensates the kind as it does `order_add`.
 * Seats held on the flights replaced move to the new ones (same seat ids: held in the open write,
 * sold in the commit with the old ones released).
 */
export function changeFlights(ctx: OrdersContext, input: FlightChangeInput): Promise<Order> {
  return runSaga(ctx, flightChangeSaga, input);
}

type FlightRun = ChargeRun<FlightChangePlan> & { alsoInCommit?: AlsoInCommit };

export const flightChangeSaga: Saga<FlightChangeInput, FlightChangePlan, FlightRun> = {
  kind: "order_change_flight",
  key: (input) => {
    const { commissionAgreement: _agreement, alsoInCommit: _also, ...asked } = input;
    return { operationId: ids.flightChangeSaga(input.quoteId), fingerprint: fingerprintOf(asked) };
  },
  opening: chargeOpening<FlightChangeInput, FlightChangePlan>({
    quoteSpent: () => new GatewayError("quote_already_used", { detail: "This flight-change quote was accepted by another request; ask OrderReshopRQ for a new one.", element: ACCEPT_AT }),
    // A change that took nothing (refunded, or free) had no payment to void: the text says only that it was not made.
    compensated: (seen) => `This change was not made (${seen.errorCode ?? "compensated"})${seen.plan.legCount > 0 ? " and its payment was voided" : ""}; ask OrderReshopRQ for a new quote.`,
  }),
  start: chargeStart(planOf),
  steps: chargeSteps<FlightChangePlan, FlightRun>({ opened: "flight_after_open", authorised: "flight_after_authorise", committed: "flight_after_commit" }, (ctx, run, auth) => commitPhase(ctx, run.op, auth, run.alsoInCommit)),
  committed: chargeCommitted,
  // The request's close leaves a refund the PSP refuses to the reconciler; the reconciler's own pass raises it (refund.ts).
  finish: closeFlightChange,
  forward: finishFlightChange,
  compensate: (ctx, op, errorCode) => compensateCharge(ctx, op, errorCode),
};

/** One direction of the change as the acceptance decides it: its journey, how it is allowed, its seats moved. */
interface DirectionDecided {
  direction: number;
  journey: OrderJourney;
  allowance: Allowance;
  released: SeatHoldRef[];
  seatHolds: SeatHoldRef[];
}

/**
 * A direction of the quote checked against the order as it is (decision 0016, judged per
 * direction): the terms again (still changeable, not departed; allowed by the fare, a Flexibility
 * or the staff's override), the quoted journey still offered, and its seats moved with it.
 */
async function decideDirection(ctx: OrdersContext, order: Order, d: DirectionChoice, now: number, o: { operationId: string; flightItemIds: string[]; useFlexibility: boolean; staff?: string }): Promise<DirectionDecided> {
  const direction = order.journeys[d.direction]!;
  const first = ctx.supply.flight(d.flightKeys[0]!);
  const last = ctx.supply.flight(d.flightKeys[d.flightKeys.length - 1]!);
  if (!first || !last) throw new GatewayError("offer_expired", { detail: "The quoted flights are no longer scheduled; ask OrderReshopRQ for a new quote.", element: ACCEPT_AT });
  const ask = { orderItemIds: o.flightItemIds, origin: first.origin, destination: last.destination, date: first.date };
  const terms = flightChangeTerms(ctx.supply, order, ask, now, ACCEPT_AT, { useFlexibility: o.useFlexibility, airline: o.staff !== undefined });
  if (terms.direction !== direction) throw new GatewayError("offer_not_found", { detail: "The quote's flights do not replace the direction it names.", element: ACCEPT_AT });
  const keys = d.flightKeys.join(" ");
  if (!flightAlternatives(ctx.supply, order, terms, ask).some((a) => a.brandCode === d.brandCode && a.journey.segments.map((x) => x.key).join(" ") === keys)) {
    throw new GatewayError("offer_expired", { detail: "The quoted journey is no longer offered; ask OrderReshopRQ for a new quote.", element: ACCEPT_AT });
  }
  // Seats move with their flights: the n-th old flight's seats to the n-th new one (seatsOnNewFlight).
  const released = order.seatHolds.filter((h) => direction.flightKeys.includes(h.flightKey));
  const seatHolds: SeatHoldRef[] = [];
  for (const h of released) {
    const to = d.flightKeys[direction.flightKeys.indexOf(h.flightKey)];
    if (!to) throw new GatewayError("change_not_supported", { detail: "The order holds seats on a flight the new journey has no counterpart for; moving those seats is not offered yet.", element: ACCEPT_AT });
    seatHolds.push({ flightKey: to, holdId: ids.seatHold(o.operationId, to), seatIds: seatsOnNewFlight(h.seatIds, (await ctx.inventory.seatAvailability(to)).seats) });
  }
  return { direction: d.direction, journey: { ...direction, flightKeys: d.flightKeys, brandCode: d.brandCode }, allowance: terms.allowance, released, seatHolds };
}

/** The quote checked against the order as it is, and the change decided, every direction of it: a refusal here leaves nothing. */
async function planOf(ctx: OrdersContext, order: Order, input: FlightChangeInput, operationId: string, fingerprint: string): Promise<FlightOperation> {
  const now = ctx.clock.now();
  const s = checkFlightChangeQuote(ctx, order, input.quoteId, now);
  const flightItemIds = order.items.filter((i) => i.kind === "flight").map((i) => i.orderItemId);
  const staff = isStaff(input.by) ? input.by.staffId : undefined;
  const decided: DirectionDecided[] = [];
  for (const d of s.directions) decided.push(await decideDirection(ctx, order, d, now, { operationId, flightItemIds, useFlexibility: input.useFlexibility ?? false, ...(staff ? { staff } : {}) }));
  const [main, ...rest] = decided as [DirectionDecided, ...DirectionDecided[]];
  // A Flexibility is spent once per change, by the first direction that needs it (one covering both directions covers both).
  const spent = new Set<string>();
  const spend = (a: Allowance) => (a.flexibilityItemId && !spent.has(a.flexibilityItemId) ? (spent.add(a.flexibilityItemId), a.flexibilityItemId) : undefined);
  const flexibilityItemId = spend(main.allowance);
  const further = rest.map((x) => {
    const f = spend(x.allowance);
    return { direction: x.direction, journey: x.journey, ...(f ? { flexibilityItemId: f } : {}) };
  });
  const overridden = decided.find((x) => x.allowance.overridden)?.allowance.overridden;
  const allowedBy: Allowance["by"] = decided.some((x) => x.allowance.by === "override") ? "override" : spent.size ? "flexibility" : main.allowance.by;
  const changeRef = ids.changeRef("flightChange", operationId);
  // A value the order retained (RespendInd) pays first, down to zero, once for the whole change (every direction's due together); a change refunded leaves it as it is (cancel/retained.ts).
  // SHPOR1 rule 6: commission on the charge's own amount, as for extras (the airline's own staff sell through no agency).
  const charge = postSaleCharge(order, { changeRef, at: now, amountMinor: s.dueMinor, orderItemIds: flightItemIds, payment: input.payment, commissionAgreement: input.commissionAgreement });
  const refund = s.dueMinor < 0 ? await planChangeRefund(ctx, order.orderId, order.currency, -s.dueMinor, operationId) : undefined;
  const plan: FlightChangePlan = {
    fingerprint, changeRef, quoteId: input.quoteId, direction: main.direction,
    journey: main.journey,
    ...(further.length ? { further } : {}),
    charge,
    legCount: input.payment.length,
    ...(refund ? { refund } : {}),
    seatHolds: decided.flatMap((x) => x.seatHolds),
    released: decided.flatMap((x) => x.released),
    allowedBy,
    ...(flexibilityItemId ? { flexibilityItemId } : {}),
    ...(overridden && staff ? { override: { staffId: staff, ruleCode: overridden.ruleCode, ruleText: overridden.ruleText } } : {}),
    ...(staff ? { staffId: staff } : {}),
  };
  const clientId = isStaff(input.by) ? `staff:${input.by.staffId}` : input.by.seller.clientId;
  return chargeRow(ctx, { operationId, kind: "order_change_flight", request: { clientId, correlationId: input.correlationId, trxId: input.trxId }, fingerprint }, order, plan, now);
}

/**
 * Phase 2, one write: the order's journey for the direction replaced with the legs and the charge,
 * the new seats sold and the old ones released to every channel (the seat actors decide in the
 * same write), the legs' answers, `committed`.
 */
async function commitPhase(ctx: OrdersContext, op: FlightOperation, auth: SaleAuthorisation, alsoInCommit?: AlsoInCommit): Promise<void> {
  const { plan } = op;
  const legs = authorisedLegs(auth, plan.changeRef);
  const now = ctx.clock.now();
  const seats = [...plan.seatHolds.map((h) => ctx.inventory.joint.confirmSeats(h.flightKey, h.holdId)), ...plan.released.map((h) => ctx.inventory.joint.releaseSeats(h.flightKey, h.holdId))];
  const moved = plan.released.length ? { seats: { released: plan.released, sold: plan.seatHolds } } : {};
  const change = {
    direction: plan.direction, journey: plan.journey, ...(plan.further?.length ? { further: plan.further } : {}), legs, charge: plan.charge, ...moved,
    ...(plan.flexibilityItemId ? { flexibilityItemId: plan.flexibilityItemId } : {}),
    ...(plan.override ? { override: { staffId: plan.override.staffId, ruleCode: plan.override.ruleCode } } : {}),
    ...(plan.staffId ? { staffId: plan.staffId } : {}),
  };
  await askTogether(ctx.store, ctx.clock, [orderAsk(ctx, op.orderId, { op: "changeFlights", change }), ...seats], async (tx) => {
    await ctx.payments.sale.record(tx, op.orderId, auth, now);
    await writePhase(tx, op.operationId, "committed", now);
    // The override is recorded exactly when the change is made: in its own write (SHPOR1 rule 4).
    if (plan.override) await appendOverride(tx, { at: now, staffId: plan.override.staffId, channel: "airline_staff", orderId: op.orderId, operationId: op.operationId, ruleCode: plan.override.ruleCode, ruleText: plan.override.ruleText });
    if (alsoInCommit) {
      await alsoInCommit(tx, {
        operationId: op.operationId, allowedBy: plan.allowedBy,
        ...(plan.override ? { override: { ruleCode: plan.override.ruleCode, ruleText: plan.override.ruleText } } : {}),
        ...(plan.flexibilityItemId ? { flexibilityItemId: plan.flexibilityItemId } : {}),
      });
    }
  });
}

/**
 * The seats taken on the new flight for the seats held on the old one: the same seat when it is
 * free, else the free seat nearest it in map order (the sandbox's maps are the aircraft's, so the
 * nearest seat is in the same cabin area; the seat item keeps its price). None free: seat_unavailable.
 */
export function seatsOnNewFlight(old: readonly string[], map: readonly { seatId: string; status: string }[]): string[] {
  const taken = new Set<string>();
  const at = new Map(map.map((x, i) => [x.seatId, i]));
  return old.map((seatId) => {
    const i = at.get(seatId) ?? 0;
    const free = map
      .map((x, j) => ({ x, d: Math.abs(j - i) }))
      .filter(({ x }) => x.status === "available" && !taken.has(x.seatId))
      .sort((a, b) => a.d - b.d)[0];
    if (!free) throw new GatewayError("seat_unavailable", { detail: "No seat is free on the new flight for a seat the order holds." });
    taken.add(free.x.seatId);
    return free.x.seatId;
  });
}
