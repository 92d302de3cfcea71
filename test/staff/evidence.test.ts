import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { SANDBOX_AGENCY_ID, setSigningPolicy } from "@ndc/auth";
import { addSigningKey } from "@ndc/signatures";
import { DOC_NUMBER, orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { makeKey, sellerSign, type TestKey } from "../signatures/support";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Signature evidence in the staff console (issue 12 item 3, docs/signatures.md): a signed
 * OrderCreateRQ's order shows its evidence (digests, key fingerprint, whether the original is
 * held) to anyone who reads orders; the signed original, which carries the passengers' documents
 * in clear, is a supervisor's download only, with a stated reason, audited; after erasure it is gone.
 */
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;
let key: TestKey;
let orderId: string;

beforeAll(async () => {
  key = makeKey("staff-evidence", "rsa");
  // The certificate's window starts at the second openssl made it: the world starts just after,
  // and sells (and shopOffer books) from that day, whatever the real date.
  w = await staffWorld({}, { startAt: Date.now() + 2_000 });
  for (const [name, role] of [["agnes", "agent"], ["sam", "senior_agent"], ["sue", "supervisor"]]) await w.addStaff(name!, role!);
  agent = await w.login("agnes");
  senior = await w.login("sam");
  supervisor = await w.login("sue");
  await addSigningKey(w.t.gw.store, SANDBOX_AGENCY_ID, key.cert, {}, w.clock.now());
  await setSigningPolicy(w.t.gw.store, SANDBOX_AGENCY_ID, "required");
  const shopped = await shopOffer(w.t, { n: 1 });
  const rq = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "CURIE", given: "Marie", doc: { number: DOC_NUMBER } }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "STAFF-SIG-1", trxId: "T1" });
  const r = await w.t.ndc("OrderCreateRQ", sellerSign(rq, key));
  expect(r.status).toBe(200);
  orderId = orderIdOf(r.body);
}, 60_000);
afterAll(() => w.t.close());

const REASON = { reason: "Seller disputes the booking; legal asked for the original", category: "legal_obligation" };
const download = (s: Session, seq: number, body: unknown) => s.call(`/staff/api/orders/${orderId}/signatures/${seq}/original`, { method: "POST", body });
const audit = async (action: string) => ((await (await supervisor.call(`/staff/api/audit?orderId=${orderId}&action=${action}`)).json()) as { entries: any[] }).entries;

test("the order shows its signature evidence to staff, never the original; the page says who may download it", async () => {
  const detail = (await (await agent.call(`/staff/api/orders/${orderId}`)).json()) as any;
  expect(detail.signatures).toHaveLength(1);
  const e = detail.signatures[0];
  expect(e).toMatchObject({ message: "OrderCreateRQ", agencyId: SANDBOX_AGENCY_ID, original: "held" });
  expect(e.fingerprint).toMatch(/^[0-9a-f:]{20,}/i);
  expect(e.originalSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(JSON.stringify(detail)).not.toContain(DOC_NUMBER);
  const html = await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: agent.cookie } })).text();
  expect(html).toContain("Signature evidence");
  expect(html).toContain(e.originalSha256);
  expect(html).toContain("Supervisors only");
  expect(html).not.toContain(DOC_NUMBER);
  const sup = await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: supervisor.cookie } })).text();
  expect(sup).toContain("Download the signed original");
}, 60_000);

test("an agent or a senior agent cannot download the original (403, audited); a supervisor does with a reason, audited, no-store, the bytes matching the chained digest", async () => {
  const e = ((await (await agent.call(`/staff/api/orders/${orderId}`)).json()) as any).signatures[0];
  for (const s of [agent, senior]) {
    const r = await download(s, e.seq, REASON);
    expect(r.status).toBe(403);
    const text = await r.text();
    expect(text).toContain("staff_forbidden");
    expect(text).not.toContain(DOC_NUMBER);
  }
  expect((await audit("signature.original")).map((r) => [r.username, r.outcome])).toEqual([["agnes", "refused"], ["sam", "refused"]]);
  expect((await download(supervisor, e.seq, { reason: "short" })).status).toBe(400);
  const r = await download(supervisor, e.seq, REASON);
  expect(r.status).toBe(200);
  expect(r.headers.get("cache-control")).toBe("no-store");
  expect(r.headers.get("content-disposition")).toStartWith("attachment;");
  const xml = await r.text();
  expect(xml).toContain(DOC_NUMBER);
  expect(createHash("sha256").update(xml, "utf8").digest("hex")).toBe(e.originalSha256);
  const rows = (await audit("signature.original")).filter((x) => x.outcome === "ok");
  expect(rows.at(-1)).toMatchObject({ username: "sue", reason: REASON.reason, reasonCategory: REASON.category, documentRef: `evidence:${e.seq}` });
  expect(JSON.stringify(rows)).not.toContain(DOC_NUMBER);
  // CSRF: a forged download is refused before anything is read.
  expect((await supervisor.call(`/staff/api/orders/${orderId}/signatures/${e.seq}/original`, { method: "POST", body: REASON, csrf: null })).status).toBe(403);
}, 60_000);

test("after the supervisor erases the order's documents the original is gone: the page says when, the download is refused", async () => {
  expect((await supervisor.call(`/staff/api/orders/${orderId}/documents/erase`, { method: "POST", body: { reason: "Guest asked for erasure of their documents" } })).status).toBe(200);
  const e = ((await (await agent.call(`/staff/api/orders/${orderId}`)).json()) as any).signatures[0];
  expect(e.original.erasedAt).toBeString();
  const html = await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: supervisor.cookie } })).text();
  expect(html).toContain(`Erased on ${e.original.erasedAt.slice(0, 10)}`);
  expect(html).not.toContain("Download the signed original");
  const r = await download(supervisor, e.seq, REASON);
  expect(r.status).toBe(410);
  expect(await r.text()).not.toContain(DOC_NUMBER);
}, 60_000);
