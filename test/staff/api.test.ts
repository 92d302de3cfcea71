import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { call } from "../notifications/helpers";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../orders-http/helpers";
import { REASON, addEveryRole, documentRefOf, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * The staff JSON API over the real HTTP stack (docs/staff-api.md): search, order detail with
 * masked documents, reveal by role, erase through the one erasure path, and the audit trail.
 */
const NUMBER = "LV8842197QZ";
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;
let admin: Session;
let orderId: string;

beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ agent, senior, supervisor, admin } = await logInEveryRole(w));
  orderId = await w.book("Lovelace", NUMBER);
  await w.book("Babbage", "BB1234567");
}, 60_000);
afterAll(() => w.t.close());

const json = async (res: Response) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any });

describe("session", () => {
  test("login answers csrfToken, role and expiresAt 30 minutes on; GET session names the caller", async () => {
    const s = await w.login("agnes");
    const me = await json(await s.call("/staff/api/session"));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ username: "agnes", role: "agent", expiresAt: new Date(w.clock.now() + 30 * 60_000).toISOString() });
    expect(me.headers.get("cache-control")).toBe("no-store");
  });
});

describe("orders", () => {
  test("search by surname, agency, flight and date, state, order id: the booked order, nothing of another", async () => {
    const detail = await json(await agent.call(`/staff/api/orders/${orderId}`));
    const flight = detail.body.flights[0] as { key: string };
    const [carrier, number, ...date] = flight.key.split("-");
    const cases = [`surname=lovelace`, `orderId=${orderId}`, `flight=${carrier}${number}&date=${date.join("-")}&surname=LOVELACE`, `date=${date.join("-")}&surname=Lovelace`, `state=booked&surname=Lovelace`, `agency=${detail.body.agencyId}&surname=Lovelace`];
    for (const q of cases) {
      const r = await json(await agent.call(`/staff/api/orders?${q}`));
      expect(r.status).toBe(200);
      expect(r.body.orders.map((o: { orderId: string }) => o.orderId)).toEqual([orderId]);
    }
    const both = await json(await agent.call(`/staff/api/orders?flight=${carrier}-${number}&state=booked`));
    expect(both.body.orders.length).toBeGreaterThanOrEqual(1);
    expect((await json(await agent.call(`/staff/api/orders?surname=Nobody`))).body.orders).toEqual([]);
    expect((await json(await agent.call(`/staff/api/orders?state=cancelled&surname=Lovelace`))).body.orders).toEqual([]);
    const refused = await json(await agent.call(`/staff/api/orders`));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("request_invalid");
    expect((await json(await agent.call(`/staff/api/orders?flight=banana`))).body.element).toBe("flight");
  });

  test("order detail: items, passengers, the document masked with a documentRef, legs, commission, history; never the number", async () => {
    const res = await agent.call(`/staff/api/orders/${orderId}`);
    const text = await res.clone().text();
    const { status, body } = await json(res);
    expect(status).toBe(200);
    expect(text).not.toContain(NUMBER);
    expect(body.state).toBe("booked");
    expect(body.items.length).toBeGreaterThan(0);
    expect(body.passengers).toEqual([{ paxId: "PAX1", ptc: "ADT", title: "MR", givenNames: ["Alex"], surname: "Lovelace" }]);
    expect(body.documents).toHaveLength(1);
    expect(Object.keys(body.documents[0]).sort()).toEqual(["citizenship", "documentRef", "expiry", "holderSurname", "issuingCountry", "paxId", "type", "typeName"]);
    expect(body.documents[0]).toMatchObject({ paxId: "PAX1", type: "PT", typeName: "Passport", citizenship: "GB", holderSurname: "Lovelace" });
    expect(body.payments[0]).toMatchObject({ kind: "card", state: "captured", cardBrand: expect.any(String), cardLast4: expect.any(String) });
    expect(body.history.map((h: { kind: string }) => h.kind)).toContain("created");
    expect(Array.isArray(body.commission)).toBe(true);
    expect((await json(await agent.call(`/staff/api/orders/ORD-NOPE`))).status).toBe(404);
  });
});

describe("notifications sent", () => {
  test("the order lists what was pushed about it: event, message, subscription, status, attempts; never the body", async () => {
    const key = w.t.gw.sandbox!.api_key;
    const sub = await call(w.t, "POST", "/notifications/subscriptions", key, { url: "http://127.0.0.1:9/hook", events: ["order.payment_expired"] });
    expect(sub.status).toBe(201);
    const shopped = await shopOffer(w.t, { pax: 1 });
    const held = await w.t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "Franklin" }], correlationId: "STAFF-HELD", trxId: "TRX-1" }));
    const heldId = orderIdOf(held.body);
    expect((await json(await agent.call(`/staff/api/orders/${heldId}`))).body.notifications).toEqual([]);
    w.clock.advance(25 * 3_600_000);
    expect(await w.t.gw.orders.expireUnpaid()).toEqual([heldId]);
    const expiredAt = new Date(w.clock.now()).toISOString();
    // A day on, every session is idle-expired: log in again.
    agent = await w.login("agnes");
    senior = await w.login("sam");
    supervisor = await w.login("sue");
    admin = await w.login("adam");
    const { body } = await json(await agent.call(`/staff/api/orders/${heldId}`));
    expect(body.state).toBe("cancelled");
    expect(body.notifications).toEqual([
      { deliveryId: expect.any(String), subscriptionId: sub.json.id, event: "order.payment_expired", message: "OrderChangeNotifRQ", status: "pending", attempts: 0, createdAt: expiredAt, updatedAt: expiredAt },
    ]);
  });
});

describe("reveal (spec 2.4 rule 5)", () => {
  test("a senior agent reveals one document with a reason: the number, no-store, and an audit row naming the document only", async () => {
    const ref = await documentRefOf(senior, orderId);
    const res = await senior.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: REASON });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(await res.json()).toEqual({ number: NUMBER });
    const audit = await json(await supervisor.call(`/staff/api/audit?action=pii.reveal&orderId=${orderId}`));
    const row = audit.body.entries.find((e: { outcome: string; username: string }) => e.outcome === "ok" && e.username === "sam");
    expect(row).toMatchObject({ action: "pii.reveal", role: "senior_agent", orderId, documentRef: ref, reasonCategory: "passenger_request", reason: REASON.reason, remote: "unknown" });
    expect(JSON.stringify(audit.body)).not.toContain(NUMBER);
  });

  test("a supervisor may reveal; an agent's and an admin's requests are 403 and audited as refused", async () => {
    const ref = await documentRefOf(supervisor, orderId);
    expect((await supervisor.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: REASON })).status).toBe(200);
    for (const s of [agent, admin]) {
      const r = await json(await s.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: REASON }));
      expect(r.status).toBe(403);
      expect(r.body.error).toBe("staff_forbidden");
      expect(JSON.stringify(r.body)).not.toContain(NUMBER);
    }
    const refused = (await json(await supervisor.call(`/staff/api/audit?action=pii.reveal`))).body.entries.filter((e: { outcome: string }) => e.outcome === "refused");
    expect(refused.map((e: { username: string; documentRef: string; orderId: string }) => [e.username, e.orderId, e.documentRef])).toEqual([
      ["agnes", orderId, ref],
      ["adam", orderId, ref],
    ]);
  });

  test("the reason: at least 10 characters and a category from the list; another order's document is not found", async () => {
    const ref = await documentRefOf(senior, orderId);
    const short = await json(await senior.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: { reason: "because", category: "passenger_request" } }));
    expect([short.status, short.body.error, short.body.element]).toEqual([400, "staff_reason_invalid", "reason"]);
    const cat = await json(await senior.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: { reason: REASON.reason, category: "curiosity" } }));
    expect([cat.status, cat.body.element]).toEqual([400, "category"]);
    const other = (await json(await senior.call(`/staff/api/orders?surname=Babbage`))).body.orders[0].orderId;
    const wrong = await json(await senior.call(`/staff/api/orders/${other}/documents/${ref}/reveal`, { method: "POST", body: REASON }));
    expect([wrong.status, wrong.body.error]).toEqual([404, "identity_document_not_found"]);
  });
});

describe("erase (spec 8)", () => {
  test("only a supervisor erases; the order then says erased on <date>, a reveal is 410, the audit row is there", async () => {
    const target = await w.book("Hopper", "GH5550001");
    const ref = await documentRefOf(supervisor, target);
    const [{ sealed }] = (await w.t.gw.store.db.all(`SELECT number_ciphertext AS sealed FROM identity_documents WHERE document_id = '${ref}'` as never)) as { sealed: string }[];
    expect(sealed.length).toBeGreaterThan(10);
    expect((await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(target))).body).toContain("IdentityDoc>");
    const refused = await json(await senior.call(`/staff/api/orders/${target}/documents/erase`, { method: "POST", body: { reason: "Guest asked for erasure by email" } }));
    expect([refused.status, refused.body.error]).toEqual([403, "staff_forbidden"]);
    const noReason = await json(await supervisor.call(`/staff/api/orders/${target}/documents/erase`, { method: "POST", body: { reason: "pls" } }));
    expect(noReason.status).toBe(400);
    const done = await json(await supervisor.call(`/staff/api/orders/${target}/documents/erase`, { method: "POST", body: { reason: "Guest asked for erasure by email" } }));
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ erased: 1, erasedAt: new Date(w.clock.now()).toISOString() });
    const detail = (await json(await agent.call(`/staff/api/orders/${target}`))).body;
    expect(detail.documents).toEqual([{ documentRef: ref, paxId: "PAX1", erasedAt: done.body.erasedAt }]);
    expect(detail.documentsErasedAt).toBe(done.body.erasedAt);
    const reveal = await json(await supervisor.call(`/staff/api/orders/${target}/documents/${ref}/reveal`, { method: "POST", body: REASON }));
    expect([reveal.status, reveal.body.error]).toEqual([410, "identity_document_erased"]);
    // The seller's OrderViewRS (XSD-checked) holds no document any more.
    const view = await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(target));
    expect(view.status).toBe(200);
    expect(view.body).toContain("Hopper");
    expect(view.body).not.toContain("IdentityDoc");
    const rows = (await json(await admin.call(`/staff/api/audit?action=pii.erase&orderId=${target}`))).body.entries;
    expect(rows.map((e: { username: string; outcome: string; detail?: string }) => [e.username, e.outcome, e.detail ?? ""])).toEqual([
      ["sam", "refused", "role senior_agent lacks pii.erase"],
      ["sue", "ok", "1 documents erased"],
    ]);
    // The sealed number is gone from the database file and its WAL (the one erasure path's secure_delete and checkpoint).
    // SQLite only: PostgreSQL has no such file (its dead tuples go with the erasure's VACUUM, decision 0041).
    if (w.t.gw.store.dialect === "sqlite") {
      const { readFileSync, existsSync } = await import("node:fs");
      const file = w.t.gw.config.databaseUrl.replace(/^file:/, "");
      expect(existsSync(file)).toBe(true);
      for (const f of [file, `${file}-wal`]) if (existsSync(f)) expect(readFileSync(f).includes(Buffer.from(sealed))).toBe(false);
    }
  });
});

describe("audit", () => {
  test("supervisors and admins read it; agents and senior agents are refused; each read is itself audited", async () => {
    for (const s of [agent, senior]) expect((await json(await s.call(`/staff/api/audit`))).status).toBe(403);
    const r = await json(await admin.call(`/staff/api/audit?limit=1000`));
    expect(r.status).toBe(200);
    const actions = new Set(r.body.entries.map((e: { action: string }) => e.action));
    for (const a of ["staff.login", "orders.search", "order.view", "pii.reveal", "pii.erase", "audit.view"]) expect(actions.has(a)).toBe(true);
    const search = r.body.entries.find((e: { action: string; detail: string }) => e.action === "orders.search" && e.detail.startsWith("filters: surname"));
    expect(search.detail).not.toContain("Lovelace");
  });
});
