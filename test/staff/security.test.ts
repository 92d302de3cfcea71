import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { dropTriggerSql } from "../support/triggers";
import { REASON, documentRefOf, sessionOf, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 12's security proofs over the real HTTP stack: cookie flags, CSRF, replay after logout
 * and idle or absolute expiry, lockout and per-source throttling, seller credentials and staff
 * sessions kept apart, the number in no page, log line or storable answer, and the audit chain
 * catching an edited row.
 */
const NUMBER = "ZX9081726354";
let w: StaffWorld;
let orderId: string;
let ref: string;
let senior: Session;

beforeAll(async () => {
  w = await staffWorld({ RATE_LIMIT_TOKEN_FAILURES_PER_MINUTE: "8" });
  for (const [n, r] of [["sam", "senior_agent"], ["sue", "supervisor"], ["lou", "agent"], ["kim", "agent"]]) await w.addStaff(n!, r!);
  orderId = await w.book("Turing", NUMBER);
  senior = await w.login("sam");
  ref = await documentRefOf(senior, orderId);
}, 60_000);
afterAll(() => w.t.close());

const reveal = (s: Session, csrf?: string | null) => s.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: REASON, csrf });
const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: string }).error];

describe("the session cookie", () => {
  test("local mode: HttpOnly, SameSite=Strict, Path=/staff, 12 h Max-Age, no Secure", () => {
    expect(senior.setCookie).toMatch(/^ndc_staff=[A-Za-z0-9_-]{43}; Path=\/staff; HttpOnly; SameSite=Strict; Max-Age=43200$/);
  });

  test("sandbox mode adds Secure", async () => {
    const other = await staffWorld({ GATEWAY_MODE: "sandbox" });
    try {
      await other.addStaff("ana", "agent");
      expect((await other.login("ana")).setCookie).toEndWith("; Max-Age=43200; Secure");
    } finally {
      await other.t.close();
    }
  }, 30_000);
});

describe("CSRF", () => {
  test("a state-changing call without X-CSRF-Token, or with another session's, is 403 and changes nothing", async () => {
    const other = await w.login("sue");
    expect(await errorOf(await reveal(senior, null))).toEqual([403, "staff_csrf_invalid"]);
    expect(await errorOf(await reveal(senior, other.csrf))).toEqual([403, "staff_csrf_invalid"]);
    expect(await errorOf(await reveal(senior, "x".repeat(43)))).toEqual([403, "staff_csrf_invalid"]);
    expect(await errorOf(await senior.call("/staff/api/session", { method: "DELETE", csrf: null }))).toEqual([403, "staff_csrf_invalid"]);
    expect((await senior.call("/staff/api/session")).status).toBe(200); // still logged in
    expect((await reveal(senior)).status).toBe(200);
  });

  test("a login posted from another site's page is refused before any credential is checked", async () => {
    const res = await w.t.fetch("/staff/api/session", { method: "POST", headers: { "content-type": "text/plain", origin: "https://evil.example" }, body: JSON.stringify({ username: "sam", password: "x", totp: "1" }) });
    expect(await errorOf(res)).toEqual([403, "staff_csrf_invalid"]);
    const page = await w.t.fetch("/staff/login", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" }, body: "username=sam&password=x&totp=1" });
    expect(page.status).toBe(403);
  });

  test("a page form posted without its csrf_token, or from another origin, is refused", async () => {
    const post = (body: string, origin?: string) =>
      w.t.fetch(`/staff/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", headers: { cookie: senior.cookie, "content-type": "application/x-www-form-urlencoded", host: "localhost", ...(origin ? { origin } : {}) }, body });
    const form = new URLSearchParams({ ...REASON });
    expect((await post(form.toString())).status).toBe(403);
    form.set("csrf_token", senior.csrf);
    expect((await post(form.toString(), "https://evil.example")).status).toBe(403);
    const ok = await post(form.toString(), "http://localhost");
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });
});

describe("expiry and replay", () => {
  test("after logout the same cookie is refused", async () => {
    const s = await w.login("lou");
    expect((await s.call("/staff/api/session", { method: "DELETE" })).status).toBe(204);
    expect(await errorOf(await s.call("/staff/api/session"))).toEqual([401, "staff_session_required"]);
    expect(await errorOf(await s.call(`/staff/api/orders/${orderId}`))).toEqual([401, "staff_session_required"]);
  });

  test("30 minutes idle ends a session; a use within 30 minutes restarts the idle clock", async () => {
    const s = await w.login("lou");
    w.clock.advance(29 * 60_000);
    expect((await s.call("/staff/api/session")).status).toBe(200);
    w.clock.advance(29 * 60_000);
    expect((await s.call("/staff/api/session")).status).toBe(200);
    w.clock.advance(30 * 60_000);
    expect(await errorOf(await s.call("/staff/api/session"))).toEqual([401, "staff_session_required"]);
    w.clock.advance(-60 * 60_000); // even back within the idle window, an ended session stays ended
    expect((await s.call("/staff/api/session")).status).toBe(401);
    w.clock.advance(60 * 60_000);
  });

  test("12 hours after login a session ends however busy it was", async () => {
    const s = await w.login("lou");
    for (let h = 0; h < 11 * 3 + 2; h++) {
      w.clock.advance(20 * 60_000);
      expect((await s.call("/staff/api/session")).status).toBe(200);
    }
    w.clock.advance(20 * 60_000); // 12 h since login
    expect(await errorOf(await s.call("/staff/api/session"))).toEqual([401, "staff_session_required"]);
  });
});

describe("login throttling", () => {
  test("five failures lock the account for 15 minutes, right credentials included; the lock is audited", async () => {
    const { password } = await w.addStaff("mia", "agent");
    for (let i = 0; i < 5; i++) expect(await errorOf(await w.attempt("mia", "wrong password!!"))).toEqual([401, "staff_login_failed"]);
    expect(await errorOf(await w.attempt("mia", password))).toEqual([401, "staff_login_failed"]);
    w.clock.advance(15 * 60_000);
    expect((await w.attempt("mia", password)).status).toBe(200);
    const sue = await w.login("sue");
    const rows = ((await (await sue.call("/staff/api/audit?action=staff.login&limit=1000")).json()) as { entries: { username: string; outcome: string; detail?: string }[] }).entries.filter((e) => e.username === "mia");
    expect(rows.map((e) => e.outcome)).toEqual(["failed", "failed", "failed", "failed", "locked", "locked", "ok"]);
    expect(rows[4]!.detail).toBe("wrong password; locked after 5 failures");
  });

  test("failures sent at once are each counted: six concurrent wrong passwords lock the account", async () => {
    const { password } = await w.addStaff("ola", "agent");
    w.clock.advance(120_000); // a full per-source budget
    const wrong = () => w.t.fetch("/staff/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "ola", password: "not the password", totp: "123456" }) });
    expect((await Promise.all(Array.from({ length: 6 }, wrong))).map((r) => r.status)).toEqual(Array(6).fill(401));
    expect(await errorOf(await w.attempt("ola", password))).toEqual([401, "staff_login_failed"]);
    const locked = (await w.cli(["list"])).out.find((l) => l.startsWith("ola "));
    expect(locked).toContain("locked until");
    w.clock.advance(15 * 60_000);
  });

  test("a wrong TOTP code and a code used twice fail like a wrong password", async () => {
    const { password, totpSecret } = await w.addStaff("ned", "agent");
    expect(await errorOf(await w.attempt("ned", password, "000000"))).toEqual([401, "staff_login_failed"]);
    const { totpAt } = await import("@ndc/staff");
    w.clock.advance(30_000);
    const code = totpAt(totpSecret, w.clock.now() + 30_000);
    expect((await w.attempt("ned", password, code)).status).toBe(200);
    expect(await errorOf(await w.attempt("ned", password, code))).toEqual([401, "staff_login_failed"]); // within the drift window, but used
  });

  test("failures per source address are limited (the token endpoint's budget): then 429 with Retry-After, for every name", async () => {
    w.clock.advance(120_000); // a full budget
    // Back to back, the clock still: nothing refills the budget in between.
    const tryLogin = (username: string) => w.t.fetch("/staff/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password: "whatever-password", totp: "123456" }) });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await tryLogin(`nobody${i}`)).status);
    expect(statuses).toEqual(Array(8).fill(401));
    const res = await tryLogin("kim");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: string }).error).toBe("rate_limited");
    w.clock.advance(120_000);
  });
});

describe("seller credentials and staff sessions stay apart", () => {
  test("/staff/ never accepts a seller's API key or bearer token; NDC never accepts a staff session", async () => {
    const sb = w.t.gw.sandbox!;
    const tok = await w.t.fetch("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${sb.client_id}:${sb.client_secret}`)}` }, body: "grant_type=client_credentials" });
    expect(tok.status).toBe(200);
    const bearer = ((await tok.json()) as { access_token: string }).access_token;
    const sellerHeaders: Record<string, string>[] = [{ authorization: `Bearer ${bearer}` }, { "x-api-key": sb.api_key }];
    for (const headers of sellerHeaders) {
      expect(await errorOf(await w.t.fetch(`/staff/api/orders/${orderId}`, { headers }))).toEqual([401, "staff_session_required"]);
      expect(await errorOf(await w.t.fetch(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(REASON) }))).toEqual([401, "staff_session_required"]);
    }
    const ndc = await w.t.ndc("OrderRetrieveRQ", "<x/>", { headers: { "x-api-key": "", cookie: senior.cookie, authorization: "" } });
    expect(ndc.status).toBe(401);
    expect(ndc.body).toContain("invalid_token");
  });
});

describe("the number appears only in the reveal answer", () => {
  test("not in any page, JSON answer but the reveal, log line, or storable header", async () => {
    const sue = await w.login("sue");
    const seen: string[] = [];
    for (const path of [`/staff/orders?surname=Turing`, `/staff/orders/${orderId}`, `/staff/audit`, `/staff/audit/export`, `/staff/api/orders/${orderId}`, `/staff/api/audit?limit=1000`, `/staff/api/orders?surname=turing`]) {
      const res = await sue.call(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      seen.push(await res.text(), JSON.stringify([...res.headers]));
    }
    for (const text of seen) expect(text).not.toContain(NUMBER);
    const res = await reveal(sue);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("last-modified")).toBeNull();
    expect(await res.text()).toContain(NUMBER);
    expect(w.t.logs.length).toBeGreaterThan(10);
    expect(w.t.logs.filter((l) => l.includes(NUMBER))).toEqual([]);
    // Nor the surname searched for: the request log has the path, never the query.
    expect(w.t.logs.filter((l) => l.toLowerCase().includes("turing"))).toEqual([]);
    expect(w.t.logs.some((l) => l.includes("/reveal"))).toBe(true);
  });
});

describe("the audit chain", () => {
  test("append-only: UPDATE and DELETE are refused by the database", async () => {
    const refusal = (statement: string) => w.t.gw.store.write((tx) => tx.run(sql.raw(statement))).then(() => "done", (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message));
    expect(await refusal("UPDATE staff_audit SET reason = 'x' WHERE seq = 1")).toBe("staff_audit is append-only");
    expect(await refusal("DELETE FROM staff_audit WHERE seq = 1")).toBe("staff_audit is append-only");
  });

  test("`staff audit verify` holds, then names the row edited with the triggers dropped", async () => {
    const ok = await w.cli(["audit", "verify"]);
    expect(ok.code).toBe(0);
    expect(ok.out[0]).toMatch(/^staff audit trail holds: \d+ rows$/);
    const [{ seq }] = (await w.t.gw.store.db.all(sql`SELECT seq FROM staff_audit WHERE action = 'pii.reveal' AND outcome = 'ok' ORDER BY seq LIMIT 1`)) as { seq: number }[];
    await w.t.gw.store.write(async (_tx, raw) => {
      await raw.exec(dropTriggerSql(w.t.gw.store, "staff_audit_no_update", "staff_audit"));
      await raw.exec(`UPDATE staff_audit SET reason = 'nothing to see here' WHERE seq = ${seq}`);
    });
    const broken = await w.cli(["audit", "verify"]);
    expect(broken.code).toBe(1);
    expect(broken.err).toEqual([`staff audit trail broken at seq ${seq}`]);
  });
});

describe("the sessions table", () => {
  test("a login deletes the account's sessions that are over; live ones stay", async () => {
    const count = async () => ((await w.t.gw.store.db.all(sql`SELECT count(*) AS n FROM staff_sessions s JOIN staff_accounts a USING (staff_id) WHERE a.username = 'lou'`)) as { n: number }[])[0]!.n;
    const a = await w.login("lou");
    const b = await w.login("lou");
    expect((await a.call("/staff/api/session", { method: "DELETE" })).status).toBe(204);
    const before = await count();
    expect(before).toBeGreaterThanOrEqual(2);
    const c = await w.login("lou");
    expect(await count()).toBe(2); // b (live) and c
    expect((await b.call("/staff/api/session")).status).toBe(200);
    expect((await c.call("/staff/api/session")).status).toBe(200);
  });
});
