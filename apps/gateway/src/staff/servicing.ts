import { GatewayError, isGatewayError } from "@ndc/errors";
import type { CurrencyCode } from "@ndc/money";
import { MAX_CANCELLED_ITEMS, spendRetained, verifyFlightsChange, type AlsoInCommit, type CancelQuote, type CommitMade, type FlightChangeQuote, type Order, type Quote } from "@ndc/orders";
import type { LegRequest } from "@ndc/payments";
import { appendAudit, recordAudit, statedReason, type AuditAction } from "@ndc/staff";
import { afterCommit } from "@ndc/store";
import type { StaffDeps } from "./deps";
import { requireRight, who, type StaffCaller } from "./guard";
import { amountOf, cancelQuoteView, flightQuoteView, addQuoteView, servicedView } from "./servicing-json";
import { optionalText, requiredText } from "./fields";

/**
 * Servicing an order as the airline (issue 12 item 6, spec 4.7 SHPOR1 rule 4; decision 0035):
 * quote, then accept the quote's id, as the NDC flow does, through the order domain's staff
 * channel (`by: airline_staff`: never refused by the fare, the override recorded on the quote,
 * the change and servicing_overrides). Quoting is an agent's; accepting moves money and may
 * override the fare, so it is a senior agent's or a supervisor's (roles.ts). Every acceptance
 * needs a stated reason and writes its staff audit row inside the change's own commit write
 * (AlsoInCommit); a refusal or failure short of the commit is audited in a write of its own.
 */

/** What a quote's JSON says of the rule the airline overrides (none: the fare allows it, or nothing the fare rules). */
export type Override = { ruleCode: string; ruleText: string } | null;

/** The card the customer pays an addition or a dearer flight change with: a PSP token, never card data. */
function cardLeg(body: Record<string, unknown>, dueMinor: number, currency: string): LegRequest[] {
  if (dueMinor <= 0) return [];
  const token = optionalText(body, "cardToken", 64);
  if (!token || !/^tok_[A-Za-z0-9_]{1,60}$/.test(token)) throw new GatewayError("request_invalid", { detail: "cardToken is the PSP token of the card paying the amount due (tok_...).", element: "cardToken" });
  return [{ kind: "card", token, amount: { amount: dueMinor, currency: currency as CurrencyCode } }];
}

/** The audit of a quote: who asked what, no reason needed (nothing changes). */
async function auditQuote(deps: StaffDeps, caller: StaffCaller, orderId: string, detail: string): Promise<void> {
  await recordAudit(deps.store, deps.auditChain, { ...who(caller), at: deps.clock.now(), action: "order.quote", outcome: "ok", orderId, detail });
}

const overrideText = (o: Override) => (o ? `override ${o.ruleCode}` : "no override");

/** How the commit says the change was allowed, in the audit's words. */
export function madeText(m: CommitMade): string {
  const how = m.allowedBy === "override" && m.override ? `override ${m.override.ruleCode} (${m.override.ruleText})` : m.allowedBy === "flexibility" ? `Flexibility ${m.flexibilityItemId} spent` : "allowed by the fare, no override";
  return `operation ${m.operationId}; ${how}`;
}

/** What an acceptance does once the caller may: its audit detail and the domain's commit. */
interface Acceptance {
  detail: string;
  run: (alsoInCommit: AlsoInCommit) => Promise<Order>;
}

/**
 * An acceptance: the right first (an agent's request is refused and audited before anything is
 * read), the reason, then `prepare` (reading the quote: a forged or expired one fails here) and
 * the domain's commit with the audit row in it (what the commit recorded: its operation, the
 * override or the Flexibility spent). When the commit was made by an earlier call (a repeat),
 * the domain writes nothing new: one row of its own says so. A refusal short of the commit is
 * audited as failed, naming the error.
 */
export async function accept(
  deps: StaffDeps,
  caller: StaffCaller,
  action: AuditAction,
  orderId: string,
  body: Record<string, unknown>,
  prepare: () => Promise<Acceptance>,
): Promise<{ order: Order; made?: CommitMade }> {
  await requireRight(deps, caller, "orders.service", { action, orderId });
  const { reason } = statedReason(body, false);
  let made: CommitMade | undefined;
  // Set by the store once the commit carrying the audit row is durable: a write that rolled back
  // (or a retried attempt) never sets it, so a failure after it knows its row stands.
  let audited = false;
  let detail = "the quote could not be read";
  const entry = () => ({ ...who(caller), at: deps.clock.now(), action, orderId, reason });
  try {
    const a = await prepare();
    detail = a.detail;
    const order = await a.run(async (tx, m) => {
      await appendAudit(tx, deps.auditChain, { ...entry(), outcome: "ok", detail: `${detail}; ${madeText(m)}` });
      made = m;
      afterCommit(tx, () => (audited = true));
    });
    if (!made) await recordAudit(deps.store, deps.auditChain, { ...entry(), outcome: "ok", detail: `${detail}; made by an earlier call, nothing new` });
    return { order, ...(made ? { made } : {}) };
  } catch (e) {
    // The row written in the commit stands if the commit did (a later step failed: capture, refund); else say it failed.
    if (!audited) await recordAudit(deps.store, deps.auditChain, { ...entry(), outcome: "failed", detail: `${detail}; ${isGatewayError(e) ? e.code : "internal_error"}` });
    throw e;
  }
}

/** POST cancel/quote: the whole order (no orderItemIds) or those items. */
export async function quoteCancellation(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "orders.service.quote", { action: "order.quote", orderId });
  const by = { channel: "airline_staff" as const, staffId: caller.session.staffId };
  const ids = body.orderItemIds;
  let quote: CancelQuote & { items?: Order["items"] };
  if (ids === undefined || (Array.isArray(ids) && ids.length === 0)) {
    quote = (await deps.orders.quoteCancel(orderId, by)).quote;
  } else {
    if (!Array.isArray(ids) || ids.length > MAX_CANCELLED_ITEMS || !ids.every((i) => typeof i === "string" && i.length <= 64)) {
      throw new GatewayError("request_invalid", { detail: `orderItemIds is a list of at most ${MAX_CANCELLED_ITEMS} order item ids.`, element: "orderItemIds" });
    }
    quote = (await deps.orders.quoteCancelItems(orderId, by, ids as string[])).quote;
  }
  const view = cancelQuoteView(quote);
  await auditQuote(deps, caller, orderId, `${view.kind} ${quote.quoteId}; refund ${view.refund.amount} ${view.currency}; ${overrideText(view.override)}`);
  return view;
}

/** POST cancel: accept a cancel quote (`CXQ.` whole order, `CIQ.` items) with a reason. */
export async function acceptCancellation(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  const quoteId = requiredText(body, "quoteId", 256);
  const action: AuditAction = quoteId.startsWith("CIQ.") ? "order.cancel_items" : "order.cancel";
  const r = await accept(deps, caller, action, orderId, body, async () => ({
    detail: `quote ${quoteId}`,
    run: (alsoInCommit) => deps.orders.cancel(orderId, { channel: "airline_staff", staffId: caller.session.staffId }, quoteId, alsoInCommit),
  }));
  return servicedView(r.order, r.made);
}

/** POST change/quote: `{ direction, date }` (the direction's index in the order's journeys, a YYYY-MM-DD day). */
export async function quoteFlightChange(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "orders.service.quote", { action: "order.quote", orderId });
  const date = requiredText(body, "date", 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new GatewayError("request_invalid", { detail: "date is YYYY-MM-DD.", element: "date" });
  const direction = body.direction === undefined ? 0 : body.direction;
  if (typeof direction !== "number" || !Number.isInteger(direction) || direction < 0 || direction > 8) throw new GatewayError("request_invalid", { detail: "direction is the journey's index: 0 outbound, 1 return.", element: "direction" });
  const { order } = await deps.orders.airlineDetails(orderId);
  const journey = order.journeys[direction];
  if (!journey) throw new GatewayError("request_invalid", { detail: `The order has ${order.journeys.length} directions.`, element: "direction" });
  const supply = deps.orders.ctx.supply;
  const first = supply.flight(journey.flightKeys[0]!);
  const last = supply.flight(journey.flightKeys[journey.flightKeys.length - 1]!);
  if (!first || !last) throw new GatewayError("flight_not_found", { detail: "A flight of the order is no longer in the schedule." });
  const ask = { orderItemIds: order.items.filter((i) => i.kind === "flight").map((i) => i.orderItemId), origin: first.origin, destination: last.destination, date, at: "direction" };
  const { quote } = await deps.orders.quoteFlightChangeAsStaff(orderId, caller.session.staffId, ask);
  const view = flightQuoteView(order.currency, quote as FlightChangeQuote, order);
  await auditQuote(deps, caller, orderId, `change direction ${direction} to ${date}: ${view.alternatives.length} alternatives; allowed by ${view.allowance.by}; ${overrideText(view.allowance.override)}`);
  return view;
}

/** POST change: accept one alternative's quote id; `cardToken` when it costs more; `useFlexibility` to spend the customer's Flexibility instead of overriding. */
export async function acceptFlightChange(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  const quoteId = requiredText(body, "quoteId", 256);
  const useFlexibility = body.useFlexibility === true || body.useFlexibility === "on";
  const staffId = caller.session.staffId;
  const r = await accept(deps, caller, "order.change", orderId, body, async () => {
    const { order: before } = await deps.orders.airlineDetails(orderId);
    // The signed id carries the amount due; a value the order retains (RespendInd) pays first, the card
    // the rest, as the saga checks (servicing/flight/saga.ts); a cheaper change is refunded to the legs that paid.
    const signed = verifyFlightsChange(deps.orders.ctx.fieldKey, quoteId, orderId, "quoteId");
    const { spentMinor, dueMinor } = spendRetained(before, signed.dueMinor);
    const payment = cardLeg(body, dueMinor, before.currency);
    const retained = spentMinor ? `; ${amountOf(spentMinor, before.currency)} ${before.currency} of it from the retained value` : "";
    return {
      detail: `quote ${quoteId}; due ${amountOf(signed.dueMinor, before.currency)} ${before.currency}${retained}${useFlexibility ? "; Flexibility asked" : ""}`,
      // The operation is keyed by the quote: the same staff member's repeat resumes it, anyone else's is quote_already_used.
      run: (alsoInCommit) => deps.orders.changeFlightsAsStaff({ staffId, orderId, quoteId, correlationId: `staff:${staffId}`, trxId: "console", payment, ...(useFlexibility ? { useFlexibility } : {}), alsoInCommit }),
    };
  });
  return servicedView(r.order, r.made);
}

/** POST add/quote: `{ form: "seat", offerId, offerItemId, paxId }` or `{ form: "services", offerId, items: [{ offerItemId, paxIds, qty }] }`. */
export async function quoteAddition(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  await requireRight(deps, caller, "orders.service.quote", { action: "order.quote", orderId });
  const form = body.form === "seat" ? "seat" : body.form === "services" ? "services" : undefined;
  if (!form) throw new GatewayError("request_invalid", { detail: "form is seat or services.", element: "form" });
  const offerId = requiredText(body, "offerId", 128);
  let items: { offerItemId: string; paxIds: string[]; qty?: number }[];
  if (form === "seat") {
    items = [{ offerItemId: requiredText(body, "offerItemId", 128), paxIds: [requiredText(body, "paxId", 200)] }];
  } else {
    const given = body.items;
    // No count of its own: an addition has no limit in the domain (NDC has none), only its offer's items.
    if (!Array.isArray(given) || given.length === 0) throw new GatewayError("request_invalid", { detail: "items is a list of { offerItemId, paxIds, qty }.", element: "items" });
    items = given.map((g: Record<string, unknown>, i) => {
      const paxIds = g?.paxIds;
      const qty = g?.qty;
      if (typeof g?.offerItemId !== "string" || !Array.isArray(paxIds) || !paxIds.every((p) => typeof p === "string") || (qty !== undefined && (!Number.isInteger(qty) || (qty as number) < 1 || (qty as number) > 9))) {
        throw new GatewayError("request_invalid", { detail: "Each item is { offerItemId, paxIds, qty? }.", element: `items[${i}]` });
      }
      return { offerItemId: g.offerItemId, paxIds: paxIds as string[], ...(qty ? { qty: qty as number } : {}) };
    });
  }
  const ownerCode = deps.orders.ctx.ownerCode;
  const quote = await deps.orders.quoteAddAsStaff({
    staffId: caller.session.staffId, orderId, correlationId: `staff:${caller.session.staffId}`, trxId: `${deps.clock.now()}`, form,
    selections: [{ offerId, ownerCode, items: items.map((i, n) => ({ ...i, at: `items[${n}]` })) }],
  });
  const view = addQuoteView(quote as Quote);
  await auditQuote(deps, caller, orderId, `add ${form} ${quote.quoteId}; charge ${view.charge.amount} ${view.currency}; no override`);
  return view;
}

/** POST add: accept an extras or seat quote (`QTE-`), paid by the card given when it costs anything. */
export async function acceptAddition(deps: StaffDeps, caller: StaffCaller, orderId: string, body: Record<string, unknown>) {
  const quoteId = requiredText(body, "quoteId", 64);
  const staffId = caller.session.staffId;
  const ownerCode = deps.orders.ctx.ownerCode;
  const r = await accept(deps, caller, "order.add", orderId, body, async () => {
    if (!quoteId.startsWith("QTE-")) throw new GatewayError("request_invalid", { detail: "quoteId is the QTE- id of an extras or seat quote.", element: "quoteId" });
    const owner = await deps.orders.staffOfferOwner(orderId, staffId);
    const quoted = await deps.orders.ctx.offers.resolve<{ currency: string; items: { offerItemId: string; kind: string; paxIds: string[]; totalMinor: number; qty?: number }[] }>(quoteId, owner, "quoteId");
    const cur = quoted.payload.currency;
    const chargeMinor = quoted.payload.items.reduce((sum, i) => sum + i.totalMinor, 0);
    const form = quoted.payload.items.some((i) => i.kind === "seat") ? "seat" : "services";
    // A value the order retains (RespendInd) pays first, the card the rest, as the saga checks (servicing/add/saga.ts).
    const { order } = await deps.orders.airlineDetails(orderId);
    const { spentMinor, dueMinor } = spendRetained(order, chargeMinor);
    const payment = cardLeg(body, dueMinor, cur);
    const retained = spentMinor ? `; ${amountOf(spentMinor, cur)} ${cur} from the retained value` : "";
    return {
      detail: `quote ${quoteId}; ${form}; charge ${amountOf(chargeMinor, cur)} ${cur}${retained}${payment.length ? `; ${amountOf(dueMinor, cur)} ${cur} to the card given` : ", nothing to pay"}`,
      run: (alsoInCommit) =>
        deps.orders.addToOrderAsStaff({
          staffId, orderId, correlationId: `staff:${staffId}`, trxId: quoteId, form, payment, alsoInCommit,
          selections: [{ offerId: quoteId, ownerCode, items: quoted.payload.items.map((i) => ({ offerItemId: i.offerItemId, paxIds: i.paxIds, ...(i.qty ? { qty: i.qty } : {}) })) }],
        }),
    };
  });
  return servicedView(r.order, r.made);
}
