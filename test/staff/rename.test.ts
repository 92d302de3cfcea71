import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listOverrides } from "@ndc/orders";
import { auditChain, verifyAudit } from "@ndc/staff";
import { errorCode } from "../support/gateway";
import { countWrites } from "../support/count-writes";
import { blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { bookCancellable } from "../servicing/cancel-helpers";
import { updatePaxRQ } from "../servicing/rename-helpers";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 19 item 17 over the real HTTP stack: a passenger's name corrected by the airline's staff
 * (spec 4.7 SHPOR1 rule 4) through the order domain's rename saga. Where a seller is refused
 * fare_not_renameable, a senior agent is not: the override is on the change (OrderHistoryRS names
 * the agent), in servicing_overrides and in the staff audit row `order.rename`, all in the rename's
 * one write. An agent may not; a reason is required; the name is checked as 24.4 types it.
 */
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;

beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ agent, senior, supervisor } = await logInEveryRole(w));
}, 60_000);
afterAll(() => w.t.close());

const REASON = "Name misspelt at booking, passport shown at the desk";
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const rename = (s: Session, orderId: string, body: unknown) => s.call(`/staff/api/orders/${orderId}/servicing/rename`, { method: "POST", body }).then(json);
const auditOf = async (orderId: string) => (await json(await supervisor.call(`/staff/api/audit?orderId=${orderId}&action=order.rename`))).body.entries as any[];

describe("name correction by staff", () => {
  test("a CLASSIC order: the seller is refused fare_not_renameable; an agent is refused 403; a senior agent corrects it in one write, the override recorded everywhere; a repeat makes nothing new", async () => {
    const { orderId, order } = await bookCancellable(w.t, "STAFF-RN1", { brand: "CLASSIC", seat: false });
    expect(errorCode((await w.t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "seller-try" }))).body)).toBe("fare_not_renameable");

    const body = { paxId: "PAX1", title: "MS", givenNames: ["Alexandra", "Jane"], surname: "TRAVELER", reason: REASON, version: order.version };
    const refused = await rename(agent, orderId, body);
    expect([refused.status, refused.body.error]).toEqual([403, "staff_forbidden"]);
    expect((await auditOf(orderId)).at(-1)).toMatchObject({ username: "agnes", outcome: "refused" });
    const noReason = await rename(senior, orderId, { ...body, reason: "typo" });
    expect([noReason.status, noReason.body.error, noReason.body.element]).toEqual([400, "staff_reason_invalid", "reason"]);

    const overridesBefore = (await listOverrides(w.t.gw.store)).length;
    const done = await countWrites(w.t.gw.store, w.t.gw.orders.ctx.payments.psp, () => rename(senior, orderId, body));
    expect(done.result.status).toBe(200);
    expect(done.result.body).toMatchObject({ orderId, state: "booked", version: order.version + 1, allowedBy: "override", override: { ruleCode: "fare_not_renameable" }, change: { kind: "pax_updated" } });
    // The session's touch and the rename's one write (the audit row inside it; a write of its own would be a third). No money moves.
    expect(done.gateway).toBe(2);
    expect(done.psp).toBe(0);

    const detail = (await json(await supervisor.call(`/staff/api/orders/${orderId}`))).body;
    expect(detail.passengers[0]).toMatchObject({ paxId: "PAX1", title: "MS", givenNames: ["Alexandra", "Jane"], surname: "TRAVELER" });
    const overrides = await listOverrides(w.t.gw.store);
    expect(overrides.length).toBe(overridesBefore + 1);
    expect(overrides.at(-1)).toMatchObject({ orderId, ruleCode: "fare_not_renameable", channel: "airline_staff", operationId: done.result.body.operationId });
    const [row] = (await auditOf(orderId)).filter((r) => r.outcome === "ok");
    expect(row).toMatchObject({ username: "sam", role: "senior_agent", reason: REASON });
    expect(row.detail).toBe(`passenger PAX1; operation ${done.result.body.operationId}; override fare_not_renameable (${done.result.body.override.ruleText})`);
    // The trail names the passenger, never the name.
    expect(JSON.stringify(await auditOf(orderId))).not.toContain("TRAVELER");
    expect((await verifyAudit(w.t.gw.store.db, auditChain(w.t.gw.orders.ctx.fieldKey, w.t.gw.config.staffAuditAnchorFile))).ok).toBe(true);

    // OrderHistoryRS: PAX_UPDATED by the airline's agent.
    const history = await w.t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
    const group = blocks(history.body, "ChangeGroup").filter((g) => g.includes("PAX_UPDATED")).at(-1)!;
    expect(group).toContain("SalesAgentID");

    // The same correction sent again (a form posted twice): the same operation, nothing new.
    const again = await countWrites(w.t.gw.store, w.t.gw.orders.ctx.payments.psp, () => rename(senior, orderId, body));
    expect(again.result.body).toMatchObject({ repeated: true, version: order.version + 1 });
    expect(again.psp).toBe(0);
    expect((await auditOf(orderId)).at(-1).detail).toBe("passenger PAX1; made by an earlier call, nothing new");
  }, 90_000);

  test("a FLEX order is allowed by the fare: no override recorded; the name is checked against its 24.4 types, naming the field", async () => {
    const { orderId } = await bookCancellable(w.t, "STAFF-RN2", { brand: "FLEX", seat: false });
    const overridesBefore = (await listOverrides(w.t.gw.store)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ surname: "" }, "surname"],
      [{ surname: "X".repeat(65) }, "surname"],
      [{ surname: "OK", givenNames: ["A", "B", "C", "D", "E", "F"] }, "givenNames"],
      [{ surname: "OK", title: "THE RIGHT HONOURABLE" }, "title"],
      [{ surname: "BAD\u0007BELL" }, "surname"],
    ];
    for (const [fields, element] of cases) {
      const r = await rename(supervisor, orderId, { paxId: "PAX1", givenNames: ["Alex"], reason: REASON, ...fields });
      expect([r.status, r.body.error, r.body.element]).toEqual([400, "request_invalid", element]);
    }
    const nobody = await rename(supervisor, orderId, { paxId: "PAX9", surname: "OK", reason: REASON });
    expect([nobody.status, nobody.body.error]).toEqual([400, "request_invalid"]);
    const ok = await rename(supervisor, orderId, { paxId: "PAX1", givenNames: ["Alex"], surname: "  Lovelace   King ", reason: REASON });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ allowedBy: "fare", override: null });
    expect((await json(await supervisor.call(`/staff/api/orders/${orderId}`))).body.passengers[0].surname).toBe("Lovelace King");
    expect((await listOverrides(w.t.gw.store)).length).toBe(overridesBefore);
  }, 60_000);

  test("the console: the order page's form corrects the name and says so", async () => {
    const { orderId } = await bookCancellable(w.t, "STAFF-RN3", { brand: "CLASSIC", seat: false });
    const page = await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: senior.cookie } })).text();
    expect(page).toContain(`action="/staff/orders/${orderId}/servicing/rename"`);
    expect(await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: agent.cookie } })).text()).not.toContain("servicing/rename");
    const res = await w.t.fetch(`/staff/orders/${orderId}/servicing/rename`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: senior.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf_token: senior.csrf, paxId: "PAX1", title: "DR", givenNames: "Ada  Augusta", surname: "BYRON", reason: REASON }).toString(),
    });
    expect([res.status, res.headers.get("location")]).toEqual([303, `/staff/orders/${orderId}?serviced=rename`]);
    const after = (await json(await supervisor.call(`/staff/api/orders/${orderId}`))).body.passengers[0];
    expect(after).toMatchObject({ title: "DR", givenNames: ["Ada", "Augusta"], surname: "BYRON" });
    const shown = await (await w.t.fetch(`/staff/orders/${orderId}?serviced=rename`, { headers: { cookie: senior.cookie } })).text();
    expect(shown).toContain("the name was corrected");
  }, 60_000);
});
