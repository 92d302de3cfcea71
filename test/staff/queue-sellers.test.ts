import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RECONCILE_MAX_ATTEMPTS } from "@ndc/orders";
import { MAX_ATTEMPTS } from "@ndc/notifications";
import { orderRetrieveRQ } from "../orders-http/helpers";
import { addEveryRole, logInEveryRole, raiseFailedDelivery, raiseReconcileFailed, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 12 item 5 over HTTP: the reconcile_failed work queue (list with age, mark resolved with a
 * note through the reconcile-failed domain) and a seller suspended and resumed from the console,
 * its next NDC call refused and then served again.
 */
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;
let admin: Session;
beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
}, 60_000);
afterAll(() => w.t.close());

/** Fresh sessions (a test that moves the clock hours on would find the old ones idle-expired). */
async function logInAll(): Promise<void> {
  ({ agent, senior, supervisor, admin } = await logInEveryRole(w));
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });

describe("the reconcile_failed work queue", () => {
  test("listed with its age; an agent cannot resolve (403, audited); a senior agent marks it resolved with a note and the reconciler finishes it", async () => {
    const item = await raiseReconcileFailed(w, "SQ1");
    w.clock.advance(2 * 3_600_000);
    await logInAll();
    const listed = await json(await agent.call("/staff/api/queues/reconcile-failed"));
    expect(listed.status).toBe(200);
    const mine = listed.body.items.find((i: { operationId: string }) => i.operationId === item.operationId);
    expect(mine).toMatchObject({ orderId: item.orderId, attempts: RECONCILE_MAX_ATTEMPTS });
    expect(mine.ageSeconds).toBeGreaterThanOrEqual(2 * 3600);
    expect(mine.takenBy).toBeUndefined();
    // Taking: who holds it shows on the queue; taking it from someone else names them on the audit trail.
    const take = `/staff/api/queues/reconcile-failed/${item.operationId}/take`;
    expect((await json(await agent.call(take, { method: "POST" }))).status).toBe(403);
    const took = await json(await senior.call(take, { method: "POST" }));
    expect(took.body).toEqual({ itemId: item.operationId, takenBy: "sam", takenAt: new Date(w.clock.now()).toISOString() });
    expect((await json(await agent.call("/staff/api/queues/reconcile-failed"))).body.items[0]).toMatchObject({ takenBy: "sam", takenAt: took.body.takenAt });
    w.clock.advance(60_000);
    expect((await json(await supervisor.call(take, { method: "POST" }))).body.takenBy).toBe("sue");
    expect((await json(await senior.call(take, { method: "POST" }))).body.takenBy).toBe("sam");
    const takes = (await json(await supervisor.call("/staff/api/audit?action=queue.take"))).body.entries;
    expect(takes.map((e: { username: string; outcome: string; detail: string }) => [e.username, e.outcome, e.detail])).toEqual([
      ["agnes", "refused", "role agent lacks queue.resolve"],
      ["sam", "ok", `reconcile_failed ${item.operationId}`],
      ["sue", "ok", `reconcile_failed ${item.operationId}; taken from sam`],
      ["sam", "ok", `reconcile_failed ${item.operationId}; taken from sue`],
    ]);
    expect((await json(await senior.call(`/staff/api/queues/reconcile-failed/OP-NOPE/take`, { method: "POST" }))).status).toBe(404);
    const path = `/staff/api/queues/reconcile-failed/${item.operationId}/resolve`;
    expect((await json(await agent.call(path, { method: "POST", body: { resolution: "retry", note: "PSP fixed, ticket 42" } }))).status).toBe(403);
    const noNote = await json(await senior.call(path, { method: "POST", body: { resolution: "retry", note: "ok" } }));
    expect([noNote.status, noNote.body.error, noNote.body.element]).toEqual([400, "staff_reason_invalid", "note"]);
    const badRes = await json(await senior.call(path, { method: "POST", body: { resolution: "ignore", note: "PSP fixed, ticket 42" } }));
    expect([badRes.status, badRes.body.element]).toEqual([400, "resolution"]);
    item.restore();
    const ok = await json(await senior.call(path, { method: "POST", body: { resolution: "retry", note: "PSP fixed, ticket 42" } }));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ operationId: item.operationId, resolution: "retry", resolvedAt: new Date(w.clock.now()).toISOString() });
    expect((await json(await agent.call("/staff/api/queues/reconcile-failed"))).body.items).toEqual([]);
    expect((await w.t.gw.orders.reconcile()).finished).toEqual([item.operationId]);
    const again = await json(await senior.call(path, { method: "POST", body: { resolution: "close", note: "PSP fixed, ticket 42" } }));
    expect([again.status, again.body.error]).toEqual([404, "staff_target_not_found"]);
    const audit = (await json(await supervisor.call("/staff/api/audit?action=reconcile_failed.resolve"))).body.entries;
    expect(audit.map((e: { username: string; outcome: string; orderId?: string; reason?: string; detail?: string }) => [e.username, e.outcome, e.orderId ?? "", e.reason ?? "", e.detail ?? ""])).toEqual([
      ["agnes", "refused", "", "", "role agent lacks queue.resolve"],
      ["sam", "ok", item.orderId, "PSP fixed, ticket 42", `${item.operationId} retry`],
    ]);
  }, 60_000);
});

describe("failed notification deliveries", () => {
  test("a push whose retries ran out is listed; taken and redelivered with a note by a senior agent, it is sent again with the same webhook-id", async () => {
    const { rx, orderId, subscriptionId } = await raiseFailedDelivery(w);
    try {
      await logInAll();
      const listed = await json(await agent.call("/staff/api/queues/failed-deliveries"));
      expect(listed.status).toBe(200);
      expect(listed.body.items).toHaveLength(1);
      const item = listed.body.items[0];
      expect(item).toMatchObject({ subscriptionId, agencyId: w.t.gw.sandbox!.agency_id, url: rx.url, event: "order.payment_expired", message: "OrderChangeNotifRQ", orderId, attempts: MAX_ATTEMPTS, lastHttpStatus: 500 });
      expect(item.ageSeconds).toBeGreaterThanOrEqual(11 * 3600);
      const redeliver = `/staff/api/queues/failed-deliveries/${item.deliveryId}/redeliver`;
      expect((await json(await agent.call(redeliver, { method: "POST", body: { note: "Seller fixed their endpoint" } }))).status).toBe(403);
      expect((await json(await senior.call(`/staff/api/queues/failed-deliveries/${item.deliveryId}/take`, { method: "POST" }))).body.takenBy).toBe("sam");
      expect((await json(await agent.call("/staff/api/queues/failed-deliveries"))).body.items[0].takenBy).toBe("sam");
      rx.answer = () => new Response(null, { status: 204 });
      const done = await json(await senior.call(redeliver, { method: "POST", body: { note: "Seller fixed their endpoint" } }));
      expect(done.body).toEqual({ deliveryId: item.deliveryId, status: "pending", nextAttemptAt: new Date(w.clock.now()).toISOString() });
      await w.t.gw.notifications.dispatcher.tick();
      expect(rx.requests.length).toBe(MAX_ATTEMPTS + 1);
      expect(rx.requests.at(-1)!.headers.get("webhook-id")).toBe(rx.requests[0]!.headers.get("webhook-id"));
      expect(rx.requests.at(-1)!.body).toBe(rx.requests[0]!.body);
      expect((await json(await agent.call("/staff/api/queues/failed-deliveries"))).body.items).toEqual([]);
      const again = await json(await senior.call(redeliver, { method: "POST", body: { note: "Seller fixed their endpoint" } }));
      expect([again.status, again.body.error]).toEqual([404, "staff_target_not_found"]);
      const audit = (await json(await supervisor.call("/staff/api/audit?action=delivery.redeliver"))).body.entries;
      expect(audit.map((e: { username: string; outcome: string; orderId?: string; reason?: string }) => [e.username, e.outcome, e.orderId ?? "", e.reason ?? ""])).toEqual([
        ["agnes", "refused", "", ""],
        ["sam", "ok", orderId, "Seller fixed their endpoint"],
      ]);
    } finally {
      rx.stop();
    }
  }, 60_000);
});

describe("sellers", () => {
  test("a supervisor suspends the sandbox client: its next NDC call is refused; resumed, it is served again; both audited", async () => {
    await logInAll();
    const orderId = await w.book("Curie", "MC1867110");
    const clientId = w.t.gw.sandbox!.client_id;
    expect((await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId))).status).toBe(200);
    const list = await json(await supervisor.call("/staff/api/sellers"));
    expect(list.body.clients.find((c: { clientId: string }) => c.clientId === clientId)).toMatchObject({ suspended: false, agencyId: w.t.gw.sandbox!.agency_id });
    expect((await json(await agent.call("/staff/api/sellers"))).status).toBe(403);
    expect((await json(await senior.call(`/staff/api/sellers/${clientId}/suspend`, { method: "POST", body: { reason: "Suspected fraud on this client" } }))).status).toBe(403);
    const s = await json(await supervisor.call(`/staff/api/sellers/${clientId}/suspend`, { method: "POST", body: { reason: "Suspected fraud on this client" } }));
    expect([s.status, s.body]).toEqual([200, { clientId, suspended: true }]);
    const refused = await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("The client is suspended.");
    const r = await json(await supervisor.call(`/staff/api/sellers/${clientId}/resume`, { method: "POST", body: { reason: "Cleared by the fraud team" } }));
    expect([r.status, r.body]).toEqual([200, { clientId, suspended: false }]);
    expect((await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId))).status).toBe(200);
    const unknown = await json(await supervisor.call(`/staff/api/sellers/ndc_nobody/suspend`, { method: "POST", body: { reason: "Suspected fraud on this client" } }));
    expect([unknown.status, unknown.body.error]).toEqual([404, "staff_target_not_found"]);
    const audit = (await json(await supervisor.call("/staff/api/audit?limit=1000"))).body.entries.filter((e: { action: string; outcome: string }) => e.action.startsWith("seller.") && e.outcome === "ok");
    expect(audit.map((e: { action: string; username: string; reason: string; detail: string }) => [e.action, e.username, e.reason, e.detail])).toEqual([
      ["seller.suspend", "sue", "Suspected fraud on this client", `client ${clientId}`],
      ["seller.resume", "sue", "Cleared by the fraud team", `client ${clientId}`],
    ]);
  }, 60_000);

  test("a supervisor gives the sandbox client a new secret: shown once (no-store), the old one refused, never in the audit or a log line", async () => {
    await logInAll();
    const sb = w.t.gw.sandbox!;
    const token = (secret: string) => w.t.fetch("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${sb.client_id}:${secret}`)}` }, body: "grant_type=client_credentials" });
    expect((await token(sb.client_secret)).status).toBe(200);
    const path = `/staff/api/sellers/${sb.client_id}/rotate-secret`;
    expect((await json(await senior.call(path, { method: "POST", body: { reason: "Secret leaked in a ticket" } }))).status).toBe(403);
    const res = await supervisor.call(path, { method: "POST", body: { reason: "Secret leaked in a ticket" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as { clientId: string; clientSecret: string; secretGeneration: number };
    expect(body.clientId).toBe(sb.client_id);
    expect(body.clientSecret.length).toBeGreaterThanOrEqual(43);
    expect((await token(sb.client_secret)).status).toBe(401);
    expect((await token(body.clientSecret)).status).toBe(200);
    const audit = await json(await supervisor.call("/staff/api/audit?action=seller.rotate"));
    expect(audit.body.entries.map((e: { username: string; outcome: string; detail?: string }) => [e.username, e.outcome, e.detail ?? ""])).toEqual([
      ["sam", "refused", "role senior_agent lacks sellers.rotate"],
      ["sue", "ok", `client ${sb.client_id} secret generation ${body.secretGeneration}`],
    ]);
    expect(JSON.stringify((await w.cli(["audit", "export"])).out)).not.toContain(body.clientSecret);
    expect(w.t.logs.filter((l) => l.includes(body.clientSecret))).toEqual([]);
  }, 60_000);

  test("an admin registers a client (its secret shown once) and grants and revokes its scopes; a supervisor may not", async () => {
    await logInAll();
    const agencyId = w.t.gw.sandbox!.agency_id;
    const body = { agencyId, name: "Console-made client", scopes: ["ndc:shop"], reason: "New channel for the agency" };
    expect((await json(await supervisor.call("/staff/api/sellers", { method: "POST", body }))).status).toBe(403);
    const bad = await json(await admin.call("/staff/api/sellers", { method: "POST", body: { ...body, scopes: ["ndc:everything"] } }));
    expect([bad.status, bad.body.element]).toEqual([400, "scopes"]);
    const noAgency = await json(await admin.call("/staff/api/sellers", { method: "POST", body: { ...body, agencyId: "AGY-NOPE" } }));
    expect([noAgency.status, noAgency.body.element]).toEqual([400, "agencyId"]);
    const res = await admin.call("/staff/api/sellers", { method: "POST", body });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const made = (await res.json()) as { clientId: string; clientSecret: string; agencyId: string; scopes: string[] };
    expect([made.agencyId, made.scopes]).toEqual([agencyId, ["ndc:shop"]]);
    const token = (scope: string) => w.t.fetch("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${made.clientId}:${made.clientSecret}`)}` }, body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}` });
    expect((await token("ndc:shop")).status).toBe(200);
    expect((await token("ndc:order")).status).toBe(400);
    const granted = await json(await admin.call(`/staff/api/sellers/${made.clientId}/scopes/grant`, { method: "POST", body: { scopes: ["ndc:order"], reason: "Agency signed the order terms" } }));
    expect(granted.body).toEqual({ clientId: made.clientId, scopes: ["ndc:shop", "ndc:order"] });
    expect((await token("ndc:order")).status).toBe(200);
    const revoked = await json(await admin.call(`/staff/api/sellers/${made.clientId}/scopes/revoke`, { method: "POST", body: { scopes: ["ndc:order"], reason: "Agency terms ended today" } }));
    expect(revoked.body.scopes).toEqual(["ndc:shop"]);
    expect((await token("ndc:order")).status).toBe(400);
    expect((await json(await supervisor.call(`/staff/api/sellers/${made.clientId}/scopes/grant`, { method: "POST", body: { scopes: ["ndc:order"], reason: "Agency signed the order terms" } }))).status).toBe(403);
    const audit = (await json(await admin.call("/staff/api/audit?limit=1000"))).body.entries.filter((e: { action: string; outcome: string }) => (e.action === "seller.register" || e.action === "seller.scopes") && e.outcome === "ok");
    expect(audit.map((e: { action: string; detail: string }) => [e.action, e.detail])).toEqual([
      ["seller.register", `client ${made.clientId} for agency ${agencyId}`],
      ["seller.scopes", `client ${made.clientId} grant ndc:order; now ndc:shop ndc:order`],
      ["seller.scopes", `client ${made.clientId} revoke ndc:order; now ndc:shop`],
    ]);
    expect(JSON.stringify(audit)).not.toContain(made.clientSecret);
    expect(w.t.logs.filter((l) => l.includes(made.clientSecret))).toEqual([]);
  }, 60_000);

  test("agencies: an admin registers one; a supervisor deactivates it and its client's next token request is refused; activated, it is served again", async () => {
    await logInAll();
    const body = { agencyId: "AGY-CONSOLE", iataNumber: "12345678", name: "Console Travel", reason: "Signed up at the trade fair" };
    expect((await json(await supervisor.call("/staff/api/agencies", { method: "POST", body }))).status).toBe(403);
    const made = await json(await admin.call("/staff/api/agencies", { method: "POST", body }));
    expect([made.status, made.body]).toEqual([201, { agencyId: "AGY-CONSOLE", iataNumber: "12345678", name: "Console Travel", active: true }]);
    const twice = await json(await admin.call("/staff/api/agencies", { method: "POST", body }));
    expect([twice.status, twice.body.error, twice.body.element]).toEqual([400, "request_invalid", "agencyId"]);
    const client = (await (await admin.call("/staff/api/sellers", { method: "POST", body: { agencyId: "AGY-CONSOLE", scopes: ["ndc:shop"], reason: "First client of the agency" } })).json()) as { clientId: string; clientSecret: string };
    const token = () => w.t.fetch("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}` }, body: "grant_type=client_credentials" });
    expect((await token()).status).toBe(200);
    const off = await json(await supervisor.call("/staff/api/agencies/AGY-CONSOLE/deactivate", { method: "POST", body: { reason: "Agency stopped paying its BSP bills" } }));
    expect([off.status, off.body.active]).toEqual([200, false]);
    expect((await token()).status).toBe(401);
    expect((await json(await supervisor.call("/staff/api/agencies/AGY-CONSOLE/activate", { method: "POST", body: { reason: "The bills are paid again" } }))).body.active).toBe(true);
    expect((await token()).status).toBe(200);
    expect((await json(await supervisor.call("/staff/api/agencies/AGY-NOPE/activate", { method: "POST", body: { reason: "The bills are paid again" } }))).status).toBe(404);
    const listed = (await json(await supervisor.call("/staff/api/sellers"))).body;
    expect(listed.agencies.find((a: { agencyId: string }) => a.agencyId === "AGY-CONSOLE")).toEqual({ agencyId: "AGY-CONSOLE", iataNumber: "12345678", name: "Console Travel", active: true });
    const audit = (await json(await admin.call("/staff/api/audit?limit=1000"))).body.entries.filter((e: { action: string; outcome: string }) => e.action.startsWith("agency.") && e.outcome === "ok");
    expect(audit.map((e: { action: string; username: string; detail: string }) => [e.action, e.username, e.detail])).toEqual([
      ["agency.register", "adam", "agency AGY-CONSOLE IATA 12345678"],
      ["agency.deactivate", "sue", "agency AGY-CONSOLE"],
      ["agency.activate", "sue", "agency AGY-CONSOLE"],
    ]);
  }, 60_000);

  test("an aggregator client is granted an agency to sell as, then refused it; a client without ndc:aggregator cannot be", async () => {
    await logInAll();
    const agencyId = w.t.gw.sandbox!.agency_id;
    await admin.call("/staff/api/agencies", { method: "POST", body: { agencyId: "AGY-AGG", iataNumber: "87654321", name: "Aggregator Ltd", reason: "An aggregator signs up" } });
    const agg = (await (await admin.call("/staff/api/sellers", { method: "POST", body: { agencyId: "AGY-AGG", scopes: ["ndc:shop", "ndc:aggregator"], reason: "The aggregator's client" } })).json()) as { clientId: string };
    const plain = (await (await admin.call("/staff/api/sellers", { method: "POST", body: { agencyId: "AGY-AGG", scopes: ["ndc:shop"], reason: "A plain client of it" } })).json()) as { clientId: string };
    const refused = await json(await admin.call(`/staff/api/sellers/${plain.clientId}/agencies/grant`, { method: "POST", body: { agencies: [agencyId], reason: "Sells for the sandbox agency" } }));
    expect([refused.status, refused.body.element]).toEqual([400, "agencyId"]);
    expect((await json(await supervisor.call(`/staff/api/sellers/${agg.clientId}/agencies/grant`, { method: "POST", body: { agencies: [agencyId], reason: "Sells for the sandbox agency" } }))).status).toBe(403);
    const granted = await json(await admin.call(`/staff/api/sellers/${agg.clientId}/agencies/grant`, { method: "POST", body: { agencies: [agencyId], reason: "Sells for the sandbox agency" } }));
    expect(granted.body).toEqual({ clientId: agg.clientId, granted: [agencyId] });
    const listed = (await json(await supervisor.call("/staff/api/sellers"))).body.clients.find((c: { clientId: string }) => c.clientId === agg.clientId);
    expect(listed.aggregatorAgencies).toEqual([agencyId]);
    const revoked = await json(await admin.call(`/staff/api/sellers/${agg.clientId}/agencies/revoke`, { method: "POST", body: { agencies: [agencyId], reason: "Agreement with the agency ended" } }));
    expect(revoked.body).toEqual({ clientId: agg.clientId, revoked: [agencyId] });
    expect((await json(await supervisor.call("/staff/api/sellers"))).body.clients.find((c: { clientId: string }) => c.clientId === agg.clientId).aggregatorAgencies).toEqual([]);
    const audit = (await json(await admin.call("/staff/api/audit?action=seller.agencies"))).body.entries.filter((e: { outcome: string }) => e.outcome === "ok");
    expect(audit.map((e: { detail: string }) => e.detail)).toEqual([`client ${agg.clientId} grant ${agencyId}`, `client ${agg.clientId} revoke ${agencyId}`]);
  }, 60_000);
});
