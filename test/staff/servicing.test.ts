import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listOverrides } from "@ndc/orders";
import { auditChain, verifyAudit } from "@ndc/staff";
import { errorCode } from "../support/gateway";
import { countWrites } from "../support/count-writes";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { bookCancellable, cancelItemsRQ, cancelQuoteRQ } from "../servicing/cancel-helpers";
import { outboundOf, reshopFlightRQ } from "../servicing/flight-change-helpers";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";
import { dayAfter, T0 } from "../support/dates";

/**
 * Servicing an order as the airline over the real HTTP stack (issue 12 item 6, spec 4.7 SHPOR1
 * rule 4, decision 0035): quote then accept, never refused by the fare; the override on the quote,
 * on the change (OrderHistoryRS Carrier/SalesAgentID, the order page) and in both audit trails
 * (servicing_overrides and the staff audit, the latter in the change's own commit write); an
 * agent quotes but may not accept; a reason is required; CSRF is enforced.
 */
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;
let admin: Session;

beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ agent, senior, supervisor, admin } = await logInEveryRole(w));
}, 60_000);
afterAll(() => w.t.close());

const REASON = "Passenger hospitalised, cancelled as goodwill";
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (s: Session, orderId: string, step: string, body: unknown, csrf?: string | null) => s.call(`/staff/api/orders/${orderId}/servicing/${step}`, { method: "POST", body, ...(csrf !== undefined ? { csrf } : {}) });
const auditOf = async (orderId: string, action: string) => (await json(await supervisor.call(`/staff/api/audit?orderId=${orderId}&action=${action}`))).body.entries as any[];
const historyGroup = async (orderId: string, kind: string) => blocks((await w.t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId))).body, "ChangeGroup").filter((g) => g.includes(`<ChangeTypeCode>${kind}</ChangeTypeCode>`)).at(-1)!;
const staffIdOf = async (s: Session) => {
  const rows = (await json(await supervisor.call(`/staff/api/audit?action=staff.login`))).body.entries as any[];
  return rows.filter((r) => r.username === (s === senior ? "sam" : s === supervisor ? "sue" : "agnes")).at(-1)!.staffId as string;
};

describe("cancel", () => {
  test("a SAVER order: the seller is refused; staff quote it (override named), an agent may not accept, a senior agent cancels it with a reason, recorded everywhere", async () => {
    const { orderId } = await bookCancellable(w.t, "SSV1", { brand: "SAVER" });
    expect(errorCode((await w.t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId))).body)).toBe("fare_not_cancellable");

    const q = await json(await post(agent, orderId, "cancel/quote", {}));
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ kind: "cancel", orderId, refundable: false, override: { ruleCode: "fare_not_cancellable" } });
    expect(q.body.quoteId).toStartWith("CXQ.");
    expect(q.body.override.ruleText.length).toBeGreaterThan(10);
    // The quote is on the audit trail, naming the override.
    expect((await auditOf(orderId, "order.quote")).at(-1)).toMatchObject({ username: "agnes", outcome: "ok" });
    expect((await auditOf(orderId, "order.quote")).at(-1).detail).toContain("override fare_not_cancellable");

    // An agent's acceptance: 403, audited as refused, nothing changed.
    const refused = await json(await post(agent, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }));
    expect([refused.status, refused.body.error]).toEqual([403, "staff_forbidden"]);
    expect((await auditOf(orderId, "order.cancel")).at(-1)).toMatchObject({ username: "agnes", outcome: "refused" });
    // An admin runs the console, not the orders: not even a quote.
    expect((await json(await post(admin, orderId, "cancel/quote", {}))).status).toBe(403);
    // No reason, no cancellation.
    const noReason = await json(await post(senior, orderId, "cancel", { quoteId: q.body.quoteId, reason: "because" }));
    expect([noReason.status, noReason.body.error]).toEqual([400, "staff_reason_invalid"]);
    // CSRF token missing or wrong: refused before anything is read.
    for (const csrf of [null, "forged-token"]) {
      const r = await json(await post(senior, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }, csrf));
      expect([r.status, r.body.error]).toEqual([403, "staff_csrf_invalid"]);
    }
    // The page's accept form: a wrong csrf_token field is refused the same way; an agent's form post is 403.
    const formPost = (session: Session, csrf: string) =>
      w.t.fetch(`/staff/orders/${orderId}/servicing/cancel`, { method: "POST", headers: { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ quoteId: q.body.quoteId, reason: REASON, csrf_token: csrf }).toString() });
    expect((await formPost(senior, "forged-token")).status).toBe(403);
    expect((await formPost(agent, agent.csrf)).status).toBe(403);
    expect((await w.t.gw.orders.airlineDetails(orderId)).order.state).toBe("booked");

    const overridesBefore = (await listOverrides(w.t.gw.store)).length;
    const done = await countWrites(w.t.gw.store, w.t.gw.orders.ctx.payments.psp, () => post(senior, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }).then(json));
    expect(done.result.status).toBe(200);
    expect(done.result.body).toMatchObject({ orderId, state: "cancelled", allowedBy: "override", override: { ruleCode: "fare_not_cancellable" } });
    // The staff audit row is in the commit write: the session's touch, the commit, the refund's close (an audit write of its own would be a 4th).
    expect(done.gateway).toBe(3);
    const row = (await auditOf(orderId, "order.cancel")).at(-1);
    expect(row).toMatchObject({ username: "sam", role: "senior_agent", outcome: "ok", reason: REASON });
    expect(row.detail).toContain(q.body.quoteId);
    expect(row.detail).toContain("override fare_not_cancellable");
    expect(row.detail).toContain(done.result.body.operationId);
    expect(done.result.body.change).toMatchObject({ kind: "cancelled" });
    // The fare-rule audit trail too, in the same commit.
    const overrides = await listOverrides(w.t.gw.store);
    expect(overrides.length).toBe(overridesBefore + 1);
    const samId = await staffIdOf(senior);
    expect(done.result.body.change.staffId).toBe(samId);
    expect(overrides.at(-1)).toMatchObject({ staffId: samId, channel: "airline_staff", orderId, ruleCode: "fare_not_cancellable", operationId: done.result.body.operationId });
    // OrderHistoryRS (the seller's view): the carrier's agent made it.
    const g = await historyGroup(orderId, "ORDER_CANCELLED");
    expect(all(g, "OrgRole")).toEqual(["Carrier"]);
    expect(all(g, "SalesAgentID")).toEqual([samId]);
    // The order page and the staff API's detail show the override on the change and who made it.
    const detail = await json(await agent.call(`/staff/api/orders/${orderId}`));
    expect(detail.body.history.find((h: any) => h.kind === "cancelled")).toMatchObject({ staffId: samId, changed: expect.arrayContaining(["override:fare_not_cancellable"]) });
    const html = await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: agent.cookie } })).text();
    expect(html).toContain("override:fare_not_cancellable");
    expect(html).toContain(samId);
    // A second acceptance of the same quote is the same operation: no second change, one more audit row saying so.
    const again = await json(await post(senior, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }));
    expect(again.body).toMatchObject({ state: "cancelled", repeated: true });
    expect((await listOverrides(w.t.gw.store)).length).toBe(overridesBefore + 1);
    expect((await verifyAudit(w.t.gw.store.db, auditChain(w.t.gw.orders.ctx.fieldKey, w.t.gw.config.staffAuditAnchorFile))).ok).toBe(true);
  }, 90_000);

  test("items: a SAVER order's seat cancelled by a supervisor, the override on the items quote and in the audit", async () => {
    const { orderId, order } = await bookCancellable(w.t, "SSV2", { brand: "SAVER" });
    const seat = order.items.find((i) => i.kind === "seat")!;
    expect(errorCode((await w.t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [seat.orderItemId]))).body)).toBe("fare_not_cancellable");
    const q = await json(await post(agent, orderId, "cancel/quote", { orderItemIds: [seat.orderItemId] }));
    expect(q.body).toMatchObject({ kind: "cancel_items", override: { ruleCode: "fare_not_cancellable" }, items: [{ orderItemId: seat.orderItemId, kind: "seat" }] });
    const done = await json(await post(supervisor, orderId, "cancel", { quoteId: q.body.quoteId, reason: REASON }));
    expect(done.body).toMatchObject({ state: "booked", override: { ruleCode: "fare_not_cancellable" } });
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    expect(after.items.some((i) => i.orderItemId === seat.orderItemId)).toBe(false);
    const row = (await auditOf(orderId, "order.cancel_items")).at(-1);
    expect(row).toMatchObject({ username: "sue", outcome: "ok", reason: REASON });
    expect(row.detail).toContain("override fare_not_cancellable");
  }, 90_000);
});

describe("change a flight", () => {
  test("a LIGHT fare: the seller is refused; staff quote the alternatives (override on the quote) and a senior agent changes it, the card paying the due", async () => {
    const { orderId, order } = await bookCancellable(w.t, "SSV3", { brand: "LIGHT", seat: false });
    const out = outboundOf(w.t, order);
    expect(errorCode((await w.t.ndc("OrderReshopRQ", reshopFlightRQ(orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }))).body)).toBe("fare_not_changeable");
    const q = await json(await post(agent, orderId, "change/quote", { direction: 0, date: dayAfter(T0, 53) }));
    expect(q.status).toBe(200);
    expect(q.body.allowance).toMatchObject({ by: "override", override: { ruleCode: "fare_not_changeable" } });
    const alt = q.body.alternatives[0];
    expect(Number(alt.due.amount)).toBeGreaterThan(0);
    // The right is checked before the quote is read: an agent with a forged id is refused, not told the id is bad.
    expect((await json(await post(agent, orderId, "change", { quoteId: "FCQ.forged", reason: REASON }))).status).toBe(403);
    const forged = await json(await post(senior, orderId, "change", { quoteId: "FCQ.forged", reason: REASON }));
    expect(forged.body.error).toBe("offer_not_found");
    expect((await auditOf(orderId, "order.change")).map((r) => [r.username, r.outcome])).toEqual([["agnes", "refused"], ["sam", "failed"]]);
    // Costs more: no card, no change.
    const noCard = await json(await post(senior, orderId, "change", { quoteId: alt.quoteId, reason: REASON }));
    expect([noCard.status, noCard.body.element]).toEqual([400, "cardToken"]);
    const done = await json(await post(senior, orderId, "change", { quoteId: alt.quoteId, reason: REASON, cardToken: "tok_approve_visa" }));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: "booked", allowedBy: "override", override: { ruleCode: "fare_not_changeable" } });
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    expect(after.journeys[0]!.flightKeys).toEqual(alt.flights.map((f: { key: string }) => f.key));
    const samId = await staffIdOf(senior);
    expect(after.history.find((h) => h.kind === "flights_changed")).toMatchObject({ staffId: samId, changed: expect.arrayContaining(["override:fare_not_changeable"]) });
    // The card paid exactly the due, captured.
    const charge = after.charges!.at(-1)!;
    expect(charge.amountMinor).toBe(Math.round(Number(alt.due.amount) * 100));
    expect(charge.commission).toBeUndefined();
    const row = (await auditOf(orderId, "order.change")).at(-1);
    expect(row).toMatchObject({ username: "sam", outcome: "ok", reason: REASON });
    expect(row.detail).toContain("override fare_not_changeable");
    expect(row.detail).not.toContain("tok_");
    expect(all(await historyGroup(orderId, "FLIGHTS_CHANGED"), "SalesAgentID")).toEqual([samId]);
  }, 90_000);
});

describe("add a seat or an extra", () => {
  test("a seat added by a senior agent from the order's own seat map, paid by the customer's card, the staff member on the change", async () => {
    const { orderId } = await bookCancellable(w.t, "SSV4", { brand: "LIGHT", seat: false });
    const options = await json(await agent.call(`/staff/api/orders/${orderId}/servicing/options`));
    expect(options.status).toBe(200);
    expect(options.body.extras.items.length).toBeGreaterThan(0);
    const seat = options.body.seats.items.find((s: any) => Number(s.price) > 0)!;
    const q = await json(await post(agent, orderId, "add/quote", { form: "seat", offerId: options.body.seats.offerId, offerItemId: seat.offerItemId, paxId: seat.paxIds[0] }));
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ kind: "add", override: null, charge: { amount: seat.price } });
    expect(q.body.quoteId).toStartWith("QTE-");
    expect((await json(await post(agent, orderId, "add", { quoteId: q.body.quoteId, reason: REASON, cardToken: "tok_approve_visa" }))).status).toBe(403);
    const done = await json(await post(senior, orderId, "add", { quoteId: q.body.quoteId, reason: REASON, cardToken: "tok_approve_visa" }));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ state: "booked", allowedBy: "fare", override: null });
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    const added = after.items.find((i) => i.kind === "seat" && i.ref === seat.seatId)!;
    expect(added.paxIds).toEqual([seat.paxIds[0]]);
    const samId = await staffIdOf(senior);
    expect(after.history.find((h) => h.kind === "items_added")?.staffId).toBe(samId);
    const charge = after.charges!.at(-1)!;
    expect(charge.amountMinor).toBe(added.totalMinor);
    expect(charge.commission).toBeUndefined();
    expect(after.legs.filter((l) => l.changeRef === charge.changeRef).map((l) => [l.state, l.amountMinor])).toEqual([["captured", added.totalMinor]]);
    const row = (await auditOf(orderId, "order.add")).at(-1);
    expect(row).toMatchObject({ username: "sam", outcome: "ok", reason: REASON });
    expect(row.detail).toContain(q.body.quoteId);
    // The seat is no longer for sale, to anyone.
    const again = await json(await agent.call(`/staff/api/orders/${orderId}/servicing/options`));
    expect(again.body.seats.items.some((s: any) => s.seatId === seat.seatId && s.flightKey === seat.flightKey)).toBe(false);
    // A declined card: no change, the failure audited.
    const extra = again.body.extras.items.find((i: any) => Number(i.unitPrice) > 0)!;
    const q2 = await json(await post(agent, orderId, "add/quote", { form: "services", offerId: again.body.extras.offerId, items: [{ offerItemId: extra.offerItemId, paxIds: [extra.paxIds[0]] }] }));
    expect(q2.status).toBe(200);
    const declined = await json(await post(senior, orderId, "add", { quoteId: q2.body.quoteId, reason: REASON, cardToken: "tok_decline_insufficient_funds" }));
    expect(declined.status).toBeGreaterThanOrEqual(400);
    expect((await w.t.gw.orders.airlineDetails(orderId)).order.version).toBe(after.version);
    expect((await auditOf(orderId, "order.add")).at(-1)).toMatchObject({ outcome: "failed" });
  }, 90_000);
});
