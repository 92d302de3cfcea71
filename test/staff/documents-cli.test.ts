import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auditChain, totpAt } from "@ndc/staff";
import { documentsCommand } from "../../apps/cli/src/commands/documents";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * `ndc-gateway documents erase` (issue 19 item 10): the supervisor named is a staff account with
 * the erase right, present with its current TOTP code, as at the console; refusals and the erasure
 * are on the staff audit (`pii.erase`) as the console's erase is. The real command, on the
 * gateway's store; its effect read back over HTTP.
 */
let w: StaffWorld;
let supervisor: Session;
let secrets: Record<string, string>;

beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ supervisor } = await logInEveryRole(w));
  secrets = { sue: (await w.addStaff("sue2", "supervisor")).totpSecret, sam: (await w.addStaff("sam2", "senior_agent")).totpSecret };
}, 60_000);
afterAll(() => w.t.close());

const WHY = "Passenger asked for erasure at the desk";

async function erase(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const key = w.t.gw.orders.ctx.fieldKey;
  const code = await documentsCommand(["erase", ...args], { out: (l) => out.push(l), err: (l) => err.push(l), env: {} }, { store: w.t.gw.store, clock: w.clock, fieldKey: key, auditChain: auditChain(key, w.t.gw.config.staffAuditAnchorFile) });
  return { code, out, err };
}

/** The code of the next TOTP step (a code is used once). */
const codeOf = (who: keyof typeof secrets) => {
  w.clock.advance(30_000);
  return totpAt(secrets[who]!, w.clock.now());
};

const documentsOf = async (orderId: string) => ((await (await supervisor.call(`/staff/api/orders/${orderId}`)).json()) as { documents: { erasedAt?: string }[] }).documents;
const eraseAudit = async (orderId: string) =>
  ((await (await supervisor.call(`/staff/api/audit?action=pii.erase&orderId=${orderId}&limit=1000`)).json()) as { entries: { username: string; outcome: string; remote: string; reason?: string; detail?: string }[] }).entries.map((e) => [e.username, e.outcome, e.remote, e.reason ?? null, e.detail ?? null]);

describe("documents erase needs a supervisor present", () => {
  test("a name that is no account, a senior agent, a wrong code: refused, nothing erased, the known accounts' attempts audited", async () => {
    const orderId = await w.book("Franklin", "RF3318204");
    const nobody = await erase(orderId, "--supervisor", "sup-7", "--totp", codeOf("sue"), "--reason", WHY);
    expect([nobody.code, nobody.err]).toEqual([1, ["documents erase: no staff account named sup-7"]]);
    const senior = await erase(orderId, "--supervisor", "sam2", "--totp", codeOf("sam"), "--reason", WHY);
    expect([senior.code, senior.err]).toEqual([1, ["documents erase: staff sam2 is senior_agent: pii.erase is for supervisor only"]]);
    const wrong = await erase(orderId, "--supervisor", "sue2", "--totp", "000000", "--reason", WHY);
    expect([wrong.code, wrong.err]).toEqual([1, ["documents erase: wrong TOTP code for staff sue2"]]);
    await expect(erase(orderId, "--supervisor", "sue2", "--reason", WHY)).rejects.toThrow("documents erase needs --supervisor USERNAME, --totp CODE and --reason TEXT");
    await expect(erase(orderId, "--supervisor", "sue2", "--totp", codeOf("sue"), "--reason", "\u200b".repeat(12))).rejects.toThrow("at least 10 of them visible");
    expect((await documentsOf(orderId)).map((d) => d.erasedAt)).toEqual([undefined]);
    expect(await eraseAudit(orderId)).toEqual([
      ["sam2", "refused", "cli", null, "role senior_agent lacks pii.erase"],
      ["sue2", "failed", "cli", null, "wrong TOTP code"],
    ]);
  });

  test("the supervisor with the current code erases, audited pii.erase with the reason in the erasure's write; the code serves once", async () => {
    const orderId = await w.book("Meitner", "LM7730416");
    const other = await w.book("Noether", "EN5501927");
    const code = codeOf("sue");
    const ok = await erase(orderId, "--supervisor", "sue2", "--totp", code, "--reason", WHY);
    expect([ok.code, ok.out, ok.err]).toEqual([0, [`order ${orderId}: 1 document(s) erased by sue2`], []]);
    expect((await documentsOf(orderId))[0]!.erasedAt).toBe(new Date(w.clock.now()).toISOString());
    expect(await eraseAudit(orderId)).toEqual([["sue2", "ok", "cli", WHY, "1 documents erased"]]);
    // The same code again, on another order: spent.
    const again = await erase(other, "--supervisor", "sue2", "--totp", code, "--reason", WHY);
    expect([again.code, again.err]).toEqual([1, ["documents erase: TOTP code already used for staff sue2"]]);
    expect((await documentsOf(other))[0]!.erasedAt).toBeUndefined();
    expect((await w.cli(["audit", "verify"])).code).toBe(0);
  });

  test("five wrong codes lock the account, as five failed logins do at the console", async () => {
    const orderId = await w.book("Curie", "MC2290175");
    for (let i = 0; i < 5; i++) expect((await erase(orderId, "--supervisor", "sue2", "--totp", "999999", "--reason", WHY)).code).toBe(1);
    const locked = await erase(orderId, "--supervisor", "sue2", "--totp", codeOf("sue"), "--reason", WHY);
    expect(locked.err[0]).toMatch(/^documents erase: staff sue2 is locked until /);
    expect((await documentsOf(orderId))[0]!.erasedAt).toBeUndefined();
  });
});
