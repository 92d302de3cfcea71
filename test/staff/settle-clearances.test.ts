import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PspTimeoutError } from "@ndc/payments";
import { errorCode } from "../support/gateway";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { inAnyOrder, pushesOf, textOf } from "../clearance/helpers";
import { raiseReconcileFailed, staffWorld, type Session, type StaffWorld } from "./support";
import { bookSettled, raiseCaptureItem } from "./settle-support";
import { acceptCancelRQ, quote } from "../servicing/cancel-helpers";
import { releaseAsSagasDo } from "../payments/helpers";
import { refuseInserts } from "../support/triggers";

/**
 * Issue 12 item 7 over HTTP: a reconcile_failed item resolved by staff capturing or voiding its
 * authorised legs through the payments path (the PSP, the ledger, the order, the item and the
 * audit row), keyed so a retry never captures twice, and refused where the step makes no sense;
 * and the unclear-clearances queue (a settlement-plan clearance not cleared in time): listed with
 * its age and grounds, taken, cleared by hand or requested again, each audited.
 */
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;
let rx: Receiver;
let secret: string;
beforeAll(async () => {
  w = await staffWorld();
  for (const [n, r] of [["agnes", "agent"], ["sam", "senior_agent"], ["sue", "supervisor"]]) await w.addStaff(n!, r!);
  rx = startReceiver();
  const sub = await call(w.t, "POST", "/notifications/subscriptions", w.t.gw.sandbox!.api_key, { url: rx.url, events: ["payment.clearance"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
}, 60_000);
afterAll(async () => {
  rx.stop();
  await w.t.close();
});

async function logInAll(): Promise<void> {
  agent = await w.login("agnes");
  senior = await w.login("sam");
  supervisor = await w.login("sue");
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const psp = () => w.t.gw.orders.ctx.payments.psp;
const sql = async <T>(q: string) => (await w.t.gw.store.db.all(q)) as T[];

const addLegs = async (orderId: string) => (await w.t.gw.orders.ctx.payments.ledger.legs(orderId)).filter((l) => l.changeRef !== "sale");
const resolvePath = (operationId: string) => `/staff/api/queues/reconcile-failed/${operationId}/resolve`;

describe("capture or void a reconcile_failed item from the console", () => {
  test("capture: refused to an agent; a PSP still down or an answer lost leaves the item open; the retry captures once, with the order, the operation, the item and the audit in one write", async () => {
    const item = await raiseCaptureItem(w, "C1");
    try {
      await logInAll();
      const note = { resolution: "capture", note: "PSP back up, capture by hand, ticket 77" };
      expect((await json(await agent.call(resolvePath(item.operationId), { method: "POST", body: note }))).status).toBe(403);
      // The PSP still times out: nothing moves, the item stays open.
      const down = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: note }));
      expect([down.status, down.body.error]).toEqual([503, "psp_unavailable"]);
      expect((await addLegs(item.orderId)).map((l) => l.state)).toEqual(["authorised"]);
      // The PSP captures but its answer is lost: still open, the ledger unchanged; the PSP's books say captured.
      item.restore();
      const real = psp().capture.bind(psp());
      psp().capture = async (req) => {
        await real(req);
        throw new PspTimeoutError();
      };
      const lost = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: note }));
      expect([lost.status, lost.body.error]).toEqual([503, "psp_unavailable"]);
      expect((await json(await agent.call("/staff/api/queues/reconcile-failed"))).body.items.map((i: { operationId: string }) => i.operationId)).toEqual([item.operationId]);
      const [leg] = await addLegs(item.orderId);
      expect(leg!.state).toBe("authorised");
      expect((await sql<{ state: string }>(`SELECT state FROM psp_sim_payments WHERE psp_reference = '${leg!.pspReference}'`))[0]!.state).toBe("captured");
      // The retry (same key) is answered with the first capture: captured once, at the PSP and in the ledger.
      psp().capture = real;
      const ok = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: note }));
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ operationId: item.operationId, resolution: "capture", resolvedAt: new Date(w.clock.now()).toISOString(), legs: [{ legId: leg!.legId, kind: "card", state: "captured" }] });
      expect((await addLegs(item.orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", item.amountMinor]]);
      expect((await sql<{ n: number }>(`SELECT count(*) AS n FROM psp_sim_requests WHERE operation = 'capture' AND idempotency_key LIKE '${item.operationId}/%'`))[0]!.n).toBe(1);
      expect((await sql<{ n: number }>(`SELECT count(*) AS n FROM payment_ledger_entries WHERE leg_id = '${leg!.legId}' AND type = 'capture'`))[0]!.n).toBe(1);
      const op = await w.t.gw.orders.ctx.operations.load(item.operationId);
      expect(op?.status).toBe("done");
      const order = await w.t.gw.orders.ctx.orders.ask(item.orderId, { op: "get" });
      expect(order!.legs.find((l) => l.legId === leg!.legId)?.state).toBe("captured");
      const row = (await sql<{ resolution: string; resolved_by: string; note: string }>(`SELECT resolution, resolved_by, note FROM reconcile_failures WHERE operation_id = '${item.operationId}'`))[0]!;
      expect(row).toEqual({ resolution: "captured", resolved_by: "sam", note: note.note });
      // Gone from the queue; the reconciler has nothing left; the seller's retry answers the order, charging nothing more.
      expect((await json(await agent.call("/staff/api/queues/reconcile-failed"))).body.items).toEqual([]);
      expect((await w.t.gw.orders.reconcile()).finished).toEqual([]);
      expect((await w.t.ndc("OrderChangeRQ", item.rq)).status).toBe(200);
      expect((await addLegs(item.orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", item.amountMinor]]);
      const again = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { ...note, resolution: "void" } }));
      expect([again.status, again.body.error]).toEqual([404, "staff_target_not_found"]);
      const audit = (await json(await supervisor.call(`/staff/api/audit?action=reconcile_failed.resolve&orderId=${item.orderId}`))).body.entries;
      expect(audit.map((e: { username: string; outcome: string; reason: string; detail: string }) => [e.username, e.outcome, e.reason, e.detail])).toEqual([["sam", "ok", note.note, `${item.operationId} captured`]]);
    } finally {
      item.restore();
    }
  }, 90_000);

  test("void: the authorised leg is released at the PSP and in the ledger, the operation closed so the seller's same ids are refused, not charged", async () => {
    const item = await raiseCaptureItem(w, "V1");
    item.restore();
    await logInAll();
    const ok = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "void", note: "Customer disputed the extra, release it" } }));
    expect(ok.status).toBe(200);
    expect(ok.body.legs.map((l: { state: string }) => l.state)).toEqual(["voided"]);
    const [leg] = await addLegs(item.orderId);
    expect([leg!.state, leg!.captured]).toEqual(["voided", 0]);
    expect((await sql<{ state: string }>(`SELECT state FROM psp_sim_payments WHERE psp_reference = '${leg!.pspReference}'`))[0]!.state).toBe("voided");
    const op = await w.t.gw.orders.ctx.operations.load(item.operationId);
    expect([op?.status, op?.errorCode]).toEqual(["compensated", "resolved_by_staff"]);
    expect((await sql<{ resolution: string }>(`SELECT resolution FROM reconcile_failures WHERE operation_id = '${item.operationId}'`))[0]!.resolution).toBe("voided");
    expect((await w.t.gw.orders.reconcile()).finished).toEqual([]);
    expect(errorCode((await w.t.ndc("OrderChangeRQ", item.rq)).body)).toBe("payment_leg_voided");
    expect((await addLegs(item.orderId)).map((l) => l.state)).toEqual(["voided"]);
    const audit = (await json(await supervisor.call(`/staff/api/audit?action=reconcile_failed.resolve&orderId=${item.orderId}`))).body.entries;
    expect(audit.map((e: { username: string; detail: string }) => [e.username, e.detail])).toEqual([["sam", `${item.operationId} voided`]]);
  }, 90_000);

  test("capture after the order was cancelled is refused (order_state_invalid, naming resolution): the legs are voided instead", async () => {
    const item = await raiseCaptureItem(w, "X1", { cancellable: true });
    item.restore();
    const q = await quote(w.t, item.orderId);
    expect((await w.t.ndc("OrderChangeRQ", acceptCancelRQ(item.orderId, q.quoteId, { correlationId: "corr-settle-x1-cancel" }))).status).toBe(200);
    expect((await addLegs(item.orderId)).map((l) => l.state)).toEqual(["authorised"]);
    await logInAll();
    const refused = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "capture", note: "Capture it before the refund goes" } }));
    expect([refused.status, refused.body.error, refused.body.element]).toEqual([409, "order_state_invalid", "resolution"]);
    expect((await addLegs(item.orderId)).map((l) => l.state)).toEqual(["authorised"]);
    const ok = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "void", note: "Order cancelled, release the extra" } }));
    expect([ok.status, ok.body.legs.map((l: { state: string }) => l.state)]).toEqual([200, ["voided"]]);
    const audit = (await json(await supervisor.call(`/staff/api/audit?action=reconcile_failed.resolve&orderId=${item.orderId}`))).body.entries;
    expect(audit.map((e: { detail: string }) => e.detail)).toEqual([`${item.operationId} voided`]);
  }, 90_000);

  test("an item that takes no payment (a cancellation's refund) cannot be captured or voided: refused naming resolution, the item left open", async () => {
    const item = await raiseReconcileFailed(w, "SNP");
    try {
      await logInAll();
      for (const resolution of ["capture", "void"]) {
        const r = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution, note: "Try to take the money anyway" } }));
        expect([r.status, r.body.error, r.body.element]).toEqual([409, "payment_leg_state_invalid", "resolution"]);
      }
      const bad = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "refund", note: "Try to take the money anyway" } }));
      expect([bad.status, bad.body.error, bad.body.element]).toEqual([400, "request_invalid", "resolution"]);
      expect((await json(await agent.call("/staff/api/queues/reconcile-failed"))).body.items.map((i: { operationId: string }) => i.operationId)).toContain(item.operationId);
      expect((await json(await supervisor.call(`/staff/api/audit?action=reconcile_failed.resolve&orderId=${item.orderId}`))).body.entries).toEqual([]);
    } finally {
      item.restore();
      await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "close", note: "Refunded by bank transfer" } }));
    }
  }, 90_000);
});

// Oldest first; a sale and its refund requested at the same instant: the sale first.
const clearanceOf = (orderId: string) =>
  sql<{ clearance_id: string; status: string; cleared_by: string | null; amount: number }>(`SELECT clearance_id, status, cleared_by, amount FROM payment_clearances WHERE order_id = '${orderId}' ORDER BY requested_at, direction DESC`);

/** What was pushed about these clearances so far: [StatusCode, ClearanceID]. */
async function pushed(ids: string[]): Promise<[string, string][]> {
  while ((await call(w.t, "POST", "/sandbox/scheduler/run", w.t.gw.sandbox!.api_key, { job: "notifications.dispatch" })).json.result.started > 0);
  return pushesOf(rx, "PaymentClearanceNotif", secret)
    .filter((b) => ids.includes(textOf(b, "ClearanceID")!))
    .map((b) => [textOf(b, "StatusCode")!, textOf(b, "ClearanceID")!]);
}

describe("one write", () => {
  /** A trigger that refuses the audit row of `action`: the change must then be refused with it. */
  let allowAudit = async () => {};
  const failAudit = async (action: string) => {
    allowAudit = await refuseInserts(w.t.gw.store, "staff_audit", { name: "fail_audit", message: "audit refused", when: `NEW.action = '${action}' AND NEW.outcome = 'ok'` });
  };

  test("a capture whose audit row cannot be written leaves the ledger, the order, the operation and the item as they were; the retry then captures once", async () => {
    const item = await raiseCaptureItem(w, "A1");
    item.restore();
    await logInAll();
    await failAudit("reconcile_failed.resolve");
    try {
      const r = await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "capture", note: "PSP back up, capture by hand" } });
      expect(r.status).toBe(500);
    } finally {
      await allowAudit();
    }
    expect((await addLegs(item.orderId)).map((l) => l.state)).toEqual(["authorised"]);
    expect((await w.t.gw.orders.ctx.operations.load(item.operationId))?.status).toBe("running");
    expect((await sql<{ resolved_at: number | null }>(`SELECT resolved_at FROM reconcile_failures WHERE operation_id = '${item.operationId}'`))[0]!.resolved_at).toBeNull();
    const order = await w.t.gw.orders.ctx.orders.ask(item.orderId, { op: "get" });
    expect(order!.legs.filter((l) => l.changeRef !== "sale").map((l) => l.state)).toEqual(["authorised"]);
    const ok = await json(await senior.call(resolvePath(item.operationId), { method: "POST", body: { resolution: "capture", note: "PSP back up, capture by hand" } }));
    expect(ok.status).toBe(200);
    expect((await addLegs(item.orderId)).map((l) => [l.state, l.captured])).toEqual([["captured", item.amountMinor]]);
    expect((await sql<{ n: number }>(`SELECT count(*) AS n FROM psp_sim_requests WHERE operation = 'capture' AND idempotency_key LIKE '${item.operationId}/%'`))[0]!.n).toBe(1);
  }, 90_000);

  test("a clearance cleared by hand whose audit row cannot be written stays requested", async () => {
    const orderId = await bookSettled(w, "A2");
    const [c] = await clearanceOf(orderId);
    w.clock.advance(2 * 3_600_000);
    await logInAll();
    await failAudit("clearance.clear");
    try {
      const r = await senior.call(`/staff/api/queues/unclear-clearances/${c!.clearance_id}/clear`, { method: "POST", body: { note: "Seen on the bank statement" } });
      expect(r.status).toBe(500);
    } finally {
      await allowAudit();
    }
    expect((await clearanceOf(orderId)).map((r) => [r.status, r.cleared_by])).toEqual([["requested", null]]);
    const ok = await json(await senior.call(`/staff/api/queues/unclear-clearances/${c!.clearance_id}/clear`, { method: "POST", body: { note: "Seen on the bank statement" } }));
    expect(ok.status).toBe(200);
    expect((await clearanceOf(orderId)).map((r) => [r.status, r.cleared_by])).toEqual([["cleared", "staff"]]);
  }, 90_000);
});

describe("the unclear-clearances queue", () => {
  test("a clearance requested and not cleared an hour on is listed (stalled) with its age; taken; cleared by hand with a note: cleared by staff, FLSTL pushed, audited in the same write", async () => {
    const orderId = await bookSettled(w, "U1");
    const [c] = await clearanceOf(orderId);
    expect(c!.status).toBe("requested");
    await logInAll();
    // Just requested: the Clearance Manager is still expected to clear it.
    expect((await json(await agent.call("/staff/api/queues/unclear-clearances"))).body.items).toEqual([]);
    const early = await json(await senior.call(`/staff/api/queues/unclear-clearances/${c!.clearance_id}/take`, { method: "POST" }));
    expect([early.status, early.body.error]).toEqual([404, "staff_target_not_found"]);
    w.clock.advance(2 * 3_600_000);
    await logInAll();
    const listed = await json(await agent.call("/staff/api/queues/unclear-clearances"));
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    const item = listed.body.items[0];
    expect(item).toMatchObject({ clearanceId: c!.clearance_id, orderId, agencyId: w.t.gw.sandbox!.agency_id, grounds: ["stalled"], currency: "EUR", settlementMethod: "CA" });
    expect(item.ageSeconds).toBeGreaterThanOrEqual(2 * 3600);
    expect(item.takenBy).toBeUndefined();
    const take = `/staff/api/queues/unclear-clearances/${c!.clearance_id}/take`;
    expect((await json(await agent.call(take, { method: "POST" }))).status).toBe(403);
    expect((await json(await senior.call(take, { method: "POST" }))).body.takenBy).toBe("sam");
    expect((await json(await agent.call("/staff/api/queues/unclear-clearances"))).body.items[0].takenBy).toBe("sam");
    const clear = `/staff/api/queues/unclear-clearances/${c!.clearance_id}/clear`;
    expect((await json(await agent.call(clear, { method: "POST", body: { note: "Seen on the bank statement" } }))).status).toBe(403);
    const short = await json(await senior.call(clear, { method: "POST", body: { note: "ok" } }));
    expect([short.status, short.body.error, short.body.element]).toEqual([400, "staff_reason_invalid", "note"]);
    const ok = await json(await senior.call(clear, { method: "POST", body: { note: "Seen on the bank statement of 3 Dec" } }));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ clearanceId: c!.clearance_id, status: "cleared", clearedBy: "staff", clearedAt: new Date(w.clock.now()).toISOString() });
    expect((await clearanceOf(orderId)).map((r) => [r.status, r.cleared_by])).toEqual([["cleared", "staff"]]);
    expect(inAnyOrder(await pushed([c!.clearance_id]))).toEqual(inAnyOrder([["ACCPT", c!.clearance_id], ["FLSTL", c!.clearance_id]]));
    expect((await json(await agent.call("/staff/api/queues/unclear-clearances"))).body.items).toEqual([]);
    const again = await json(await senior.call(clear, { method: "POST", body: { note: "Seen on the bank statement of 3 Dec" } }));
    expect([again.status, again.body.error, again.body.element]).toEqual([409, "clearance_already_cleared", "clearanceId"]);
    const audit = (await json(await supervisor.call(`/staff/api/audit?orderId=${orderId}`))).body.entries.filter((e: { action: string }) => e.action.startsWith("clearance.") || e.action === "queue.take");
    expect(audit.map((e: { action: string; username: string; outcome: string; reason?: string; detail: string }) => [e.action, e.username, e.outcome, e.reason ?? "", e.detail])).toEqual([
      ["queue.take", "sam", "ok", "", `unclear_clearances ${c!.clearance_id}`],
      ["clearance.clear", "sam", "ok", "Seen on the bank statement of 3 Dec", `clearance ${c!.clearance_id} cleared`],
    ]);
  }, 90_000);

  test("re-requested: the clearance is cancelled and a new one requested for exactly its amount (CNCLD, ACCPT pushed); the new one is unclear again once overdue", async () => {
    const orderId = await bookSettled(w, "U2");
    const [c] = await clearanceOf(orderId);
    w.clock.advance(90 * 60_000);
    await logInAll();
    const ok = await json(await supervisor.call(`/staff/api/queues/unclear-clearances/${c!.clearance_id}/rerequest`, { method: "POST", body: { note: "Clearance Manager lost it, ticket CM-12" } }));
    expect(ok.status).toBe(200);
    const next = ok.body.requested.clearanceId as string;
    expect(next).not.toBe(c!.clearance_id);
    expect(ok.body).toEqual({ clearanceId: c!.clearance_id, status: "cancelled", requested: { clearanceId: next, status: "requested", requestedAt: new Date(w.clock.now()).toISOString() } });
    expect((await clearanceOf(orderId)).map((r) => [r.clearance_id, r.status, r.amount])).toEqual([
      [c!.clearance_id, "cancelled", c!.amount],
      [next, "requested", c!.amount],
    ]);
    expect(inAnyOrder(await pushed([c!.clearance_id, next]))).toEqual(inAnyOrder([["ACCPT", c!.clearance_id], ["CNCLD", c!.clearance_id], ["ACCPT", next]]));
    // The new request is not unclear yet; three weeks on it is past its settlement date too.
    expect((await json(await agent.call("/staff/api/queues/unclear-clearances"))).body.items).toEqual([]);
    const cancelled = await json(await supervisor.call(`/staff/api/queues/unclear-clearances/${c!.clearance_id}/clear`, { method: "POST", body: { note: "Clear the old one by mistake" } }));
    expect([cancelled.status, cancelled.body.error]).toEqual([409, "clearance_cancelled"]);
    w.clock.advance(21 * 86_400_000);
    await logInAll();
    const listed = (await json(await agent.call("/staff/api/queues/unclear-clearances"))).body.items;
    expect(listed.map((i: { clearanceId: string; grounds: string[] }) => [i.clearanceId, i.grounds])).toEqual([[next, ["stalled", "overdue"]]]);
    const audit = (await json(await supervisor.call(`/staff/api/audit?action=clearance.rerequest`))).body.entries;
    expect(audit.map((e: { username: string; orderId: string; detail: string }) => [e.username, e.orderId, e.detail])).toEqual([["sue", orderId, `clearance ${c!.clearance_id} cancelled; requested again as ${next}`]]);
  }, 90_000);
});

describe("a refund clearance in the unclear-clearances queue (issue 19 item 13)", () => {
  test("a payment refunded after its clearance cleared: the refund clearance, stalled, is listed with direction refund and its amount negative; requested again it stays a refund clearance of the same sale", async () => {
    const orderId = await bookSettled(w, "R1");
    expect((await w.t.gw.clearances.clearDue()).cleared).toBeGreaterThanOrEqual(1);
    const [sale] = await clearanceOf(orderId);
    expect(sale!.status).toBe("cleared");
    const ledger = w.t.gw.orders.ctx.payments.ledger;
    const leg = (await ledger.legs(orderId)).find((l) => l.kind === "settlement")!;
    await releaseAsSagasDo(w.t.gw.orders.ctx.payments, `${orderId}/staff-refund`, async () => [{ legId: leg.legId, amount: 1_250 }])();
    const refund = await sql<{ clearance_id: string; direction: string; reverses: string; status: string }>(`SELECT clearance_id, direction, reverses, status FROM payment_clearances WHERE order_id = '${orderId}' AND direction = 'refund'`);
    expect(refund.map((r) => [r.status, r.reverses])).toEqual([["requested", sale!.clearance_id]]);
    w.clock.advance(2 * 3_600_000);
    await logInAll();
    const listed = (await json(await senior.call("/staff/api/queues/unclear-clearances"))).body.items.find((i: { clearanceId: string }) => i.clearanceId === refund[0]!.clearance_id);
    expect(listed).toMatchObject({ orderId, direction: "refund", amount: "-12.50", currency: "EUR", grounds: ["stalled"] });
    const again = await json(await supervisor.call(`/staff/api/queues/unclear-clearances/${refund[0]!.clearance_id}/rerequest`, { method: "POST", body: { note: "Clearance Manager lost the refund, ticket CM-19" } }));
    expect(again.status).toBe(200);
    const rows = await sql<{ clearance_id: string; direction: string; reverses: string | null; status: string; amount: number }>(`SELECT clearance_id, direction, reverses, status, amount FROM payment_clearances WHERE order_id = '${orderId}' ORDER BY requested_at, direction DESC`);
    expect(rows.map((r) => [r.direction, r.status, r.amount, r.reverses])).toEqual([
      ["sale", "cleared", sale!.amount, null],
      ["refund", "cancelled", 1_250, sale!.clearance_id],
      ["refund", "requested", 1_250, sale!.clearance_id],
    ]);
  }, 90_000);
});
