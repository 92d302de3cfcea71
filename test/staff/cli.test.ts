import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { totpAt } from "@ndc/staff";
import { staffWorld, type StaffWorld } from "./support";

/** `ndc-gateway staff ...` on a running gateway's store; each effect checked over HTTP too. */
let w: StaffWorld;
beforeAll(async () => {
  w = await staffWorld();
}, 30_000);
afterAll(() => w.t.close());

const login = (username: string, password: string, secret: string) => {
  w.clock.advance(30_000);
  return w.t.fetch("/staff/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password, totp: totpAt(secret, w.clock.now()) }) });
};

describe("staff accounts", () => {
  test("add --json generates a password and prints it with the TOTP secret, once; the account logs in", async () => {
    const r = await w.cli(["add", "ana", "--role", "senior_agent", "--json"]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const line = JSON.parse(r.out[0]!);
    expect(Object.keys(line)).toEqual(["username", "role", "password", "totpSecret"]);
    expect(line).toMatchObject({ username: "ana", role: "senior_agent" });
    expect(line.totpSecret).toMatch(/^[A-Z2-7]{32}$/);
    expect((await login("ana", line.password, line.totpSecret)).status).toBe(200);
    // Nothing in clear in the store: no password, no TOTP secret.
    const row = JSON.stringify(await w.t.gw.store.db.all("SELECT * FROM staff_accounts WHERE username = 'ana'" as never));
    expect(row).not.toContain(line.password);
    expect(row).not.toContain(line.totpSecret);
    expect(row).toContain("$argon2id$");
  });

  test("add reads the password from standard input (then prints none), and shows the otpauth URI in text form", async () => {
    const r = await w.cli(["add", "ben", "--role", "agent"], "correct horse battery staple\n");
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe("staff ben added (agent)");
    expect(r.out.some((l) => l.startsWith("password:"))).toBe(false);
    const secret = r.out.find((l) => l.startsWith("totp secret: "))!.slice(13, 45);
    expect(r.out.find((l) => l.startsWith("totp uri: "))).toBe(`totp uri: otpauth://totp/XB%20Test%3Aben?secret=${secret}&issuer=XB%20Test&algorithm=SHA1&digits=6&period=30`);
    expect((await login("ben", "correct horse battery staple", secret)).status).toBe(200);
  });

  test("refusals: a bad role, a taken name, a short password, a missing --role", async () => {
    expect((await w.cli(["add", "cy", "--role", "pilot"])).err).toEqual(["ndc-gateway staff add: the role is one of agent, senior_agent, supervisor, admin"]);
    expect((await w.cli(["add", "ana", "--role", "agent"])).err).toEqual(["ndc-gateway staff add: a staff account named ana exists"]);
    expect((await w.cli(["add", "cy", "--role", "agent"], "short\n")).code).toBe(1);
    await expect(w.cli(["add", "cy"])).rejects.toThrow("staff add needs --role");
  });

  test("list shows roles and states; disable ends logins and open sessions", async () => {
    const dan = await w.addStaff("dan", "supervisor");
    const s = await w.login("dan");
    expect((await s.call("/staff/api/session")).status).toBe(200);
    expect((await w.cli(["disable", "dan"])).out).toEqual(["staff dan disabled; open sessions ended"]);
    expect((await s.call("/staff/api/session")).status).toBe(401);
    expect((await login("dan", dan.password, dan.totpSecret)).status).toBe(401);
    const list = await w.cli(["list"]);
    expect(list.out.find((l) => l.startsWith("dan "))).toMatch(/^dan {2}supervisor {2}disabled 20/);
    expect(list.out.find((l) => l.startsWith("ana "))).toMatch(/^ana {2}senior_agent {2}active/);
    const json = (await w.cli(["list", "--json"])).out.map((l) => JSON.parse(l));
    expect(json.map((a) => a.username)).toEqual(["ana", "ben", "dan"]);
    expect(JSON.stringify(json)).not.toContain("argon2");
  });

  test("reset-password: the old password stops working, the new one works; --new-totp replaces the secret", async () => {
    const eve = await w.addStaff("eve", "agent");
    const r = await w.cli(["reset-password", "eve", "--new-totp", "--json"]);
    expect(r.code).toBe(0);
    const fresh = JSON.parse(r.out[0]!);
    expect((await login("eve", eve.password, fresh.totpSecret)).status).toBe(401);
    expect((await login("eve", fresh.password, eve.totpSecret)).status).toBe(401);
    expect((await login("eve", fresh.password, fresh.totpSecret)).status).toBe(200);
  });

  test("audit export prints the trail as JSON lines, filtered by action; audit verify holds", async () => {
    const all = await w.cli(["audit", "export"]);
    expect(all.code).toBe(0);
    const rows = all.out.map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.map((r) => r.seq)).toEqual([...rows.map((r) => r.seq)].sort((a, b) => a - b));
    const logins = (await w.cli(["audit", "export", "--action", "staff.login"])).out.map((l) => JSON.parse(l));
    expect(logins.length).toBeGreaterThan(0);
    expect(new Set(logins.map((r) => r.action))).toEqual(new Set(["staff.login"]));
    expect(Object.keys(logins[0]).sort()).toEqual(["action", "at", "hash", "outcome", "prevHash", "remote", "role", "seq", "staffId", "username"].concat(logins[0].detail ? ["detail"] : []).sort());
    expect(JSON.stringify(rows)).not.toContain("$argon2");
    expect((await w.cli(["audit", "verify"])).out).toEqual([`staff audit trail holds: ${rows.length} rows`, `anchored at seq ${rows.at(-1).seq}`]);
  });
});
