import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runClientCommand } from "../../apps/cli/src/commands/clients";
import { all, blocks } from "../shopping/shop-requests";
import { ndcAs, orderCreateRQ, otherSeller, shopOffer, type Shopped } from "../orders-http/helpers";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 19 item 15 over HTTP and the CLI: settlement accounts (CA, DP, MS) opened, listed and
 * closed for any registered agency, not only the seeded sandbox one. A newly registered agency's
 * settlement-plan payment is declined until an admin opens its account, booked once it is open
 * (its headroom used), declined again once it is closed. Supervisors see the accounts, only admins
 * change them, each change audited with its reason in the change's write.
 */
const AGENCY = "AGY-SETTLE";
let w: StaffWorld;
let agent: Session;
let supervisor: Session;
let admin: Session;
let seller: Record<string, string>;
let booked = 0;
beforeAll(async () => {
  w = await staffWorld();
  for (const [n, r] of [["agnes", "agent"], ["sue", "supervisor"], ["adam", "admin"]]) await w.addStaff(n!, r!);
  seller = await otherSeller(w.t, AGENCY);
}, 60_000);
afterAll(() => w.t.close());

async function logInAll(): Promise<void> {
  agent = await w.login("agnes");
  supervisor = await w.login("sue");
  admin = await w.login("adam");
}

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (s: Session, path: string, body: unknown) => s.call(path, { method: "POST", body }).then(json);
const WHY = "Credit agreed with the agency on 7 Dec";
const accounts = `/staff/api/agencies/${AGENCY}/settlement-accounts`;

/** The new agency books a whole offer paid by its settlement plan (CA); the OrderViewRS. */
async function payBySettlement(): Promise<{ status: number; body: string; shopped: Shopped }> {
  const shopped = await shopOffer({ ndc: (m, b) => ndcAs(w.t, seller, m, b as string) }, { pax: 1 });
  const rq = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "Settle" }], legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], correlationId: `SETTLE-${++booked}`, trxId: "TRX-1", seller: AGENCY });
  const r = await ndcAs(w.t, seller, "OrderCreateRQ", rq);
  return { status: r.status, body: r.body, shopped };
}
const paymentStatus = (xml: string) => blocks(xml, "PaymentFunctions").flatMap((p) => all(p, "PaymentStatusCode"));

describe("settlement accounts of a newly registered agency", () => {
  test("declined before an account is open; an admin opens CA EUR; the order is booked on it; closed, the next is declined; all audited", async () => {
    await logInAll();
    const before = await payBySettlement();
    expect(before.status).toBe(200);
    expect(paymentStatus(before.body)).toEqual(["DECLINED"]);
    expect(before.body).not.toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");

    expect((await json(await agent.call(accounts))).status).toBe(403);
    expect((await json(await supervisor.call(accounts))).body).toEqual({ agencyId: AGENCY, accounts: [] });
    const refused = await post(supervisor, accounts, { method: "CA", currency: "EUR", creditLimit: "5000.00", reason: WHY });
    expect([refused.status, refused.body.error]).toEqual([403, "staff_forbidden"]);

    const opened = await post(admin, accounts, { method: "CA", currency: "EUR", creditLimit: "5000.00", reason: WHY });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({
      agencyId: AGENCY, reopened: false,
      account: { accountId: `SA-${AGENCY}-CA-EUR`, agencyId: AGENCY, method: "CA", methodName: "BSP cash", currency: "EUR", creditLimit: "5000.00", used: "0.00", pending: "0.00", headroom: "5000.00", state: "open" },
    });

    const paid = await payBySettlement();
    expect(paid.status).toBe(200);
    expect(paid.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    expect(paymentStatus(paid.body)).toEqual(["CAPTURED"]);
    expect(blocks(paid.body, "PaymentFunctions").flatMap((p) => all(p, "PaymentTypeCode"))).toEqual(["CA"]);
    const [listed] = (await json(await supervisor.call(accounts))).body.accounts;
    const used = (paid.shopped.totalMinor / 100).toFixed(2);
    expect(listed).toMatchObject({ used, pending: "0.00", headroom: (5000 - paid.shopped.totalMinor / 100).toFixed(2), state: "open" });
    // The agreements page's answer lists them too.
    expect((await json(await supervisor.call(`/staff/api/agencies/${AGENCY}/agreements`))).body.settlementAccounts).toEqual([listed]);

    const closed = await post(admin, `${accounts}/SA-${AGENCY}-CA-EUR/close`, { reason: "Agency stopped paying its BSP bills" });
    expect(closed.status).toBe(200);
    expect(closed.body.account).toMatchObject({ accountId: `SA-${AGENCY}-CA-EUR`, state: "closed", used });
    const after = await payBySettlement();
    expect(paymentStatus(after.body)).toEqual(["DECLINED"]);
    expect(after.body).not.toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");

    // Opened again with a new limit: the same account, still owing what it used.
    const again = await post(admin, accounts, { method: "ca", currency: "eur", creditLimit: 8000, reason: WHY });
    expect([again.status, again.body.reopened, again.body.account.creditLimit, again.body.account.used]).toEqual([201, true, "8000.00", used]);

    const audit = (await json(await supervisor.call("/staff/api/audit?action=settlement.open"))).body.entries.concat((await json(await supervisor.call("/staff/api/audit?action=settlement.close"))).body.entries);
    expect(audit.map((e: { username: string; outcome: string; reason?: string; detail: string }) => [e.username, e.outcome, e.reason ?? "", e.detail])).toEqual([
      ["sue", "refused", "", "role supervisor lacks sellers.register"],
      ["adam", "ok", WHY, `agency ${AGENCY} opened SA-${AGENCY}-CA-EUR CA EUR credit limit 5000.00`],
      ["adam", "ok", WHY, `agency ${AGENCY} reopened SA-${AGENCY}-CA-EUR CA EUR credit limit 8000.00`],
      ["adam", "ok", "Agency stopped paying its BSP bills", `agency ${AGENCY} closed SA-${AGENCY}-CA-EUR CA EUR credit limit 5000.00; used ${used}, pending 0.00`],
    ]);
  }, 120_000);

  test("what the accounts refuse is refused naming the field, and nothing is opened", async () => {
    await logInAll();
    const cases: [unknown, number, string, string][] = [
      [{ method: "XX", currency: "EUR", creditLimit: "100.00" }, 400, "request_invalid", "method"],
      [{ method: "DP", currency: "XXX", creditLimit: "100.00" }, 400, "request_invalid", "currency"],
      [{ method: "DP", currency: "EUR", creditLimit: "lots" }, 400, "request_invalid", "creditLimit"],
      [{ method: "DP", currency: "EUR", creditLimit: "0" }, 400, "request_invalid", "creditLimit"],
      [{ method: "DP", currency: "EUR", creditLimit: "10.001" }, 400, "request_invalid", "creditLimit"],
      [{ method: "CA", currency: "EUR", creditLimit: "100.00" }, 400, "request_invalid", "method"], // already open
      [{ method: "DP", currency: "EUR", creditLimit: "100.00", reason: "short" }, 400, "staff_reason_invalid", "reason"],
    ];
    for (const [body, status, error, element] of cases) {
      const r = await post(admin, accounts, { reason: WHY, ...(body as object) });
      expect([r.status, r.body.error, r.body.element]).toEqual([status, error, element]);
    }
    const missing = await post(admin, `/staff/api/agencies/NO-SUCH-AGENCY/settlement-accounts`, { method: "CA", currency: "EUR", creditLimit: "100.00", reason: WHY });
    expect([missing.status, missing.body.error, missing.body.element]).toEqual([404, "staff_target_not_found", "agencyId"]);
    const noAccount = await post(admin, `${accounts}/SA-${AGENCY}-MS-EUR/close`, { reason: WHY });
    expect([noAccount.status, noAccount.body.error, noAccount.body.element]).toEqual([404, "staff_target_not_found", "accountId"]);
    // Another agency's account is not this agency's to close.
    const sandbox = await post(admin, `${accounts}/SA-SANDBOX-CA-EUR/close`, { reason: WHY });
    expect(sandbox.status).toBe(404);
    expect((await json(await supervisor.call(accounts))).body.accounts.map((a: { accountId: string }) => a.accountId)).toEqual([`SA-${AGENCY}-CA-EUR`]);
  }, 60_000);

  test("the console: an admin opens and closes an account through the agreements page's forms", async () => {
    await logInAll();
    const form = (s: Session, path: string, fields: Record<string, string>) =>
      w.t.fetch(path, { method: "POST", headers: { cookie: s.cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrf_token: s.csrf, ...fields }).toString(), redirect: "manual" });
    const page = await (await w.t.fetch(`/staff/agencies/${AGENCY}/agreements`, { headers: { cookie: admin.cookie } })).text();
    expect(page).toContain("Settlement accounts");
    expect(page).toContain(`action="/staff/agencies/${AGENCY}/settlement-accounts"`);
    const opened = await form(admin, `/staff/agencies/${AGENCY}/settlement-accounts`, { method: "MS", currency: "EUR", creditLimit: "2500.00", reason: WHY });
    expect([opened.status, opened.headers.get("location")]).toEqual([303, `/staff/agencies/${AGENCY}/agreements`]);
    const shown = await (await w.t.fetch(`/staff/agencies/${AGENCY}/agreements`, { headers: { cookie: admin.cookie } })).text();
    expect(shown).toContain(`SA-${AGENCY}-MS-EUR`);
    expect(shown).toContain(`action="/staff/agencies/${AGENCY}/settlement-accounts/SA-${AGENCY}-MS-EUR/close"`);
    const closed = await form(admin, `/staff/agencies/${AGENCY}/settlement-accounts/SA-${AGENCY}-MS-EUR/close`, { reason: WHY });
    expect(closed.status).toBe(303);
    const ms = (await json(await supervisor.call(accounts))).body.accounts.find((a: { method: string }) => a.method === "MS");
    expect(ms).toMatchObject({ creditLimit: "2500.00", state: "closed" });
    // A supervisor's page shows the accounts without the forms.
    const theirs = await (await w.t.fetch(`/staff/agencies/${AGENCY}/agreements`, { headers: { cookie: supervisor.cookie } })).text();
    expect(theirs).toContain(`SA-${AGENCY}-MS-EUR`);
    expect(theirs).not.toContain("Open a settlement account");
  }, 60_000);
});

describe("ndc-gateway agency settlement", () => {
  let out: string[] = [];
  let err: string[] = [];
  const cli = (...args: string[]) => {
    out = [];
    err = [];
    return runClientCommand(["agency", "settlement", ...args], { store: w.t.gw.store, config: w.t.gw.config, out: (l) => out.push(l), err: (l) => err.push(l) });
  };

  test("open, list and close by agency id or IATA number; each effect seen over HTTP; refusals exit 1, a wrong command line 2", async () => {
    expect(await cli("open", "12345678", "--method", "DP", "--currency", "USD", "--credit-limit", "1200.50")).toBe(0);
    expect(out).toEqual([`settlement account SA-${AGENCY}-DP-USD opened for agency ${AGENCY}: DP (ARC) in USD, credit limit 1200.50, headroom 1200.50`]);
    const seen = (await json(await (await w.login("sue")).call(accounts))).body.accounts.find((a: { method: string }) => a.method === "DP");
    expect(seen).toMatchObject({ accountId: `SA-${AGENCY}-DP-USD`, currency: "USD", creditLimit: "1200.50", state: "open" });

    expect(await cli("list", AGENCY)).toBe(0);
    expect(out[0]).toBe("ACCOUNT_ID\tMETHOD\tCURRENCY\tCREDIT_LIMIT\tUSED\tPENDING\tHEADROOM\tSTATE");
    expect(out).toContain(`SA-${AGENCY}-DP-USD\tDP\tUSD\t1200.50\t0.00\t0.00\t1200.50\topen`);

    expect(await cli("open", AGENCY, "--method", "DP", "--currency", "USD", "--credit-limit", "10")).toBe(1);
    expect(err[0]).toContain("already holds the open DP account in USD");
    expect(await cli("open", "NO-SUCH-AGENCY", "--method", "CA", "--currency", "EUR", "--credit-limit", "10")).toBe(1);
    expect(err[0]).toContain("unknown_agency");
    expect(await cli("open", AGENCY, "--method", "CA", "--currency", "EUR")).toBe(2);
    expect(err.join("\n")).toContain("--credit-limit is required");

    expect(await cli("close", AGENCY, `SA-${AGENCY}-DP-USD`)).toBe(0);
    expect(out[0]).toStartWith(`settlement account SA-${AGENCY}-DP-USD of agency ${AGENCY} closed`);
    expect(await cli("close", AGENCY, `SA-${AGENCY}-DP-USD`)).toBe(1);
    expect(err[0]).toContain("already closed");
    const after = (await json(await (await w.login("sue")).call(accounts))).body.accounts.find((a: { method: string }) => a.method === "DP");
    expect(after.state).toBe("closed");
  }, 60_000);
});
