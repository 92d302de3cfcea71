import { afterAll, beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { SANDBOX_AGENCY_ID, setSigningPolicy } from "@ndc/auth";
import { addSigningKey } from "@ndc/signatures";
import { auditChain, totpAt } from "@ndc/staff";
import { orderCommand } from "../../apps/cli/src/commands/order-evidence";
import { assertSchemaValid } from "../support/xsd";
import { DOC_NUMBER, orderCreateRQ, orderIdOf, shopOffer } from "../orders-http/helpers";
import { makeKey, sellerSign, type TestKey } from "../signatures/support";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Signature evidence in the staff console (issue 12 item 3, docs/signatures.md): a signed
 * OrderCreateRQ's order shows its evidence (digests, key fingerprint, whether the original is
 * held) to anyone who reads orders; the signed original, which carries the passengers' documents
 * in clear, is a supervisor's download only, with a stated reason, audited; after erasure it is gone.
 * By default (issue 19 item 11) the download and `ndc-gateway order evidence` give a copy with the
 * document numbers masked; the original in clear is asked for, and audited as a reveal of each
 * document. The command writes into the data directory unless told otherwise (item 26).
 */
let w: StaffWorld;
let agent: Session;
let senior: Session;
let supervisor: Session;
let key: TestKey;
let orderId: string;
let body: string;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  key = makeKey("staff-evidence", "rsa");
  // The certificate's window starts at the second openssl made it: the world starts just after,
  // and sells (and shopOffer books) from that day, whatever the real date.
  w = await staffWorld({}, { startAt: Date.now() + 2_000 });
  for (const [name, role] of [["agnes", "agent"], ["sam", "senior_agent"], ["sue", "supervisor"]]) secrets[name!] = (await w.addStaff(name!, role!)).totpSecret;
  agent = await w.login("agnes");
  senior = await w.login("sam");
  supervisor = await w.login("sue");
  await addSigningKey(w.t.gw.store, SANDBOX_AGENCY_ID, key.cert, {}, w.clock.now());
  await setSigningPolicy(w.t.gw.store, SANDBOX_AGENCY_ID, "required");
  const shopped = await shopOffer(w.t, { n: 1 });
  const rq = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "CURIE", given: "Marie", doc: { number: DOC_NUMBER } }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "STAFF-SIG-1", trxId: "T1" });
  body = sellerSign(rq, key);
  const r = await w.t.ndc("OrderCreateRQ", body);
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

test("an agent or a senior agent cannot download the original (403, audited); a supervisor does with a reason: the masked copy by default, the original in clear when asked (a reveal of each document), audited, no-store", async () => {
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
  // By default the copy with the numbers masked: said so in its header, its name and its first comment; no reveal.
  const m = await download(supervisor, e.seq, REASON);
  expect(m.status).toBe(200);
  expect([m.headers.get("cache-control"), m.headers.get("x-evidence-form")]).toEqual(["no-store", "masked"]);
  expect(m.headers.get("content-disposition")).toBe(`attachment; filename="${orderId}-OrderCreateRQ-${e.seq}-masked.xml"`);
  const masked = await m.text();
  expect(masked).not.toContain(DOC_NUMBER);
  expect(masked).toMatch(/<cns:IdentityDocID>MASKED<\/cns:IdentityDocID>/);
  expect(masked).toContain(`1 document number(s) replaced by MASKED, so its signature does not verify. The signed original's SHA-256 is ${e.originalSha256}`);
  expect(masked.replace(/<!--[^]*?-->/, "")).not.toBe(body);
  // Still the 24.4 message it was, the numbers aside: the XSD takes it.
  assertSchemaValid(masked);
  expect((await audit("signature.original")).filter((x) => x.outcome === "ok").at(-1)).toMatchObject({ username: "sue", documentRef: `evidence:${e.seq}`, detail: `OrderCreateRQ signed original, 1 document number(s) masked, sha256 ${e.originalSha256}` });
  expect(await audit("pii.reveal")).toEqual([]);
  // In clear when asked: the bytes as received, and a reveal of the order's document on the audit.
  const r = await download(supervisor, e.seq, { ...REASON, clear: true });
  expect(r.status).toBe(200);
  expect([r.headers.get("cache-control"), r.headers.get("x-evidence-form")]).toEqual(["no-store", "signed-original"]);
  expect(r.headers.get("content-disposition")).toStartWith("attachment;");
  const xml = await r.text();
  expect(xml).toBe(body);
  expect(createHash("sha256").update(xml, "utf8").digest("hex")).toBe(e.originalSha256);
  const rows = (await audit("signature.original")).filter((x) => x.outcome === "ok");
  expect(rows.at(-1)).toMatchObject({ username: "sue", reason: REASON.reason, reasonCategory: REASON.category, documentRef: `evidence:${e.seq}`, detail: `OrderCreateRQ signed original in clear, sha256 ${e.originalSha256}` });
  const reveals = await audit("pii.reveal");
  const detail = (await (await supervisor.call(`/staff/api/orders/${orderId}`)).json()) as { documents: { documentRef: string }[] };
  expect(reveals.map((x) => [x.username, x.outcome, x.documentRef, x.reason, x.reasonCategory])).toEqual(detail.documents.map((d) => ["sue", "ok", d.documentRef, REASON.reason, REASON.category]));
  expect(JSON.stringify([...rows, ...reveals])).not.toContain(DOC_NUMBER);
  // The page's form: masked unless its "In clear" box is ticked.
  const form = (clear: boolean) =>
    w.t.fetch(`/staff/orders/${orderId}/signatures/${e.seq}/original`, { method: "POST", headers: { cookie: supervisor.cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ ...REASON, csrf_token: supervisor.csrf, ...(clear ? { clear: "on" } : {}) }).toString() });
  for (const [clear, kind] of [[false, "masked"], [true, "signed-original"]] as const) {
    const page = await form(clear);
    expect([page.status, page.headers.get("x-evidence-form"), (await page.text()).includes(DOC_NUMBER)]).toEqual([200, kind, clear]);
  }
  const html = await (await w.t.fetch(`/staff/orders/${orderId}`, { headers: { cookie: supervisor.cookie } })).text();
  expect(html).toContain(`name="clear" value="on"`);
  // CSRF: a forged download is refused before anything is read.
  expect((await supervisor.call(`/staff/api/orders/${orderId}/signatures/${e.seq}/original`, { method: "POST", body: REASON, csrf: null })).status).toBe(403);
}, 60_000);

async function evidenceCli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const fieldKey = w.t.gw.orders.ctx.fieldKey;
  const code = await orderCommand(["evidence", orderId, ...args], { out: (l) => out.push(l), err: (l) => err.push(l), env: { GATEWAY_DATA_DIR: w.t.dataDir, GATEWAY_MODE: "local" } }, { store: w.t.gw.store, clock: w.clock, fieldKey, auditChain: auditChain(fieldKey, w.t.gw.config.staffAuditAnchorFile) });
  return { code, out, err };
}

test("`order evidence` writes a masked copy by default, into a 0700 folder of the data directory, nothing where it runs; no reveal", async () => {
  const here = readdirSync(process.cwd());
  const reveals = (await audit("pii.reveal")).length;
  const r = await evidenceCli();
  expect([r.code, r.err]).toEqual([0, []]);
  const dir = join(w.t.dataDir, "evidence", orderId);
  expect(statSync(dir).mode & 0o777).toBe(0o700);
  const files = readdirSync(dir).sort();
  expect(files).toEqual([`${orderId}-1-masked.xml`, `${orderId}-verification.json`]);
  for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  const masked = readFileSync(join(dir, files[0]!), "utf8");
  expect(masked).not.toContain(DOC_NUMBER);
  expect(masked).toMatch(/<cns:IdentityDocID>MASKED<\/cns:IdentityDocID>/);
  expect(r.out[0]).toContain("masked copy: 1 document number(s) masked, so its signature does not verify");
  const report = JSON.parse(readFileSync(join(dir, files[1]!), "utf8"));
  expect(report.entries[0].original).toEqual({ file: files[0], masked: true, sha256Matches: true });
  expect(report.chain).toEqual({ holds: true });
  expect(readdirSync(process.cwd())).toEqual(here);
  expect((await audit("pii.reveal")).length).toBe(reveals);
}, 60_000);

test("`order evidence --clear`: a supervisor present with a TOTP code and a reason; audited as signature.original and a reveal of the document; the code serves once", async () => {
  const out = join(w.t.dataDir, "clear-out");
  await expect(evidenceCli("--clear", "--out", out)).rejects.toThrow("order evidence --clear needs --supervisor USERNAME, --totp CODE, --reason TEXT and --category CATEGORY");
  await expect(evidenceCli("--supervisor", "sue")).rejects.toThrow("order evidence: --supervisor go with --clear");
  await expect(evidenceCli("--clear", "--out", out, "--supervisor", "sue", "--totp", "123456", "--reason", "\u200b".repeat(12), "--category", "legal_obligation")).rejects.toThrow("order evidence: --reason:");
  w.clock.advance(30_000);
  const senior = await evidenceCli("--clear", "--out", out, "--supervisor", "sam", "--totp", totpAt(secrets.sam!, w.clock.now()), "--reason", REASON.reason, "--category", REASON.category);
  expect([senior.code, senior.err]).toEqual([1, ["order evidence: staff sam is senior_agent: signature.original is for supervisor only"]]);
  expect(existsSync(out)).toBe(false);
  const reveals = (await audit("pii.reveal")).length;
  w.clock.advance(30_000);
  const code = totpAt(secrets.sue!, w.clock.now());
  const ok = await evidenceCli("--clear", "--out", out, "--supervisor", "sue", "--totp", code, "--reason", REASON.reason, "--category", REASON.category);
  expect([ok.code, ok.err]).toEqual([0, []]);
  expect(readFileSync(join(out, `${orderId}-1-signed.xml`), "utf8")).toBe(body);
  expect([statSync(out).mode & 0o777, statSync(join(out, `${orderId}-1-signed.xml`)).mode & 0o777]).toEqual([0o700, 0o600]);
  expect(ok.out.join("\n")).not.toContain(DOC_NUMBER);
  const rows = (await audit("pii.reveal")).slice(reveals);
  expect(rows.map((x) => [x.username, x.outcome, x.remote, x.reason, x.reasonCategory, x.detail])).toEqual([["sue", "ok", "cli", REASON.reason, REASON.category, "in the signed original evidence:1"]]);
  expect((await audit("signature.original")).at(-1)).toMatchObject({ username: "sue", remote: "cli", outcome: "ok", documentRef: "evidence:1" });
  const again = await evidenceCli("--clear", "--out", join(w.t.dataDir, "again"), "--supervisor", "sue", "--totp", code, "--reason", REASON.reason, "--category", REASON.category);
  expect([again.code, again.err]).toEqual([1, ["order evidence: TOTP code already used for staff sue"]]);
  expect(existsSync(join(w.t.dataDir, "again"))).toBe(false);
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
