import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { StaffWorld } from "../staff/support";
import { chromiumMissing, expectAccessible, logIn as logInAs, openConsole, closeConsole, shot, type Browser } from "./browser";

/**
 * The staff console in real headless Chromium over a real socket: log in with TOTP, find an order,
 * reveal a number as a senior agent (and be refused as an agent, also by a forged post), erase as a
 * supervisor, read the audit trail. axe-core on every page; screenshots under test-output/.
 */
const NUMBER = "PB4471920KX";
let w: StaffWorld;
let server: { url: string; stop(graceMs?: number): Promise<void> };
let b: Browser;
let orderId: string;
const accounts = new Map<string, { password: string; totpSecret: string }>();

describe.skipIf(chromiumMissing !== undefined)(`staff console in Chromium${chromiumMissing ? ` (${chromiumMissing})` : ""}`, () => {
  beforeAll(async () => {
    ({ w, server, b } = await openConsole());
    for (const [n, r] of [["sam", "senior_agent"], ["agnes", "agent"], ["sue", "supervisor"]]) accounts.set(n!, await w.addStaff(n!, r!));
    orderId = await w.book("Lovelace", NUMBER);
  }, 90_000);
  afterAll(() => closeConsole({ w, server, b }));

  const logIn = (page: Page, username: string) => logInAs(page, server.url, w, username, accounts.get(username)!);

  async function logOut(page: Page): Promise<void> {
    await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);
  }

  test("log in with TOTP, find the order by surname, reveal its number as a senior agent", async () => {
    const { page } = b;
    await page.goto(`${server.url}/staff/login`);
    await expectAccessible(page, "login");
    await shot(page, "01-login");
    await logIn(page, "sam");
    await expectAccessible(page, "orders");
    await page.fill("#f-surname", "Lovelace");
    await Promise.all([page.waitForURL("**/staff/orders?**"), page.click("text=Search")]);
    await expectAccessible(page, "search results");
    await shot(page, "02-search");
    await Promise.all([page.waitForURL(`**/staff/orders/${orderId}`), page.click(`a[href="/staff/orders/${orderId}"]`)]);
    const content = await page.content();
    expect(content).toContain("Passport");
    expect(content).toContain("Payments (PAYSUM)");
    expect(content).not.toContain(NUMBER);
    await expectAccessible(page, "order");
    await shot(page, "03-order");
    await page.fill("textarea[name=reason]", "Passenger at the desk asked to confirm the passport number");
    await page.selectOption("select[name=category]", "passenger_request");
    await page.clock.install();
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/reveal")), page.click("text=Reveal number")]);
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("no-store");
    expect(await page.textContent(".number")).toBe(NUMBER);
    await expectAccessible(page, "reveal");
    await shot(page, "04-reveal");
    // A minute later the number is taken out of the page.
    await page.clock.fastForward(61_000);
    expect(await page.locator(".number").count()).toBe(0);
    expect(await page.content()).not.toContain(NUMBER);
    expect(await page.textContent("[role=status]")).toBe("The number was shown for 60 seconds and is no longer on this page.");
    // Back on the order page, the number is gone.
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    expect(await page.content()).not.toContain(NUMBER);
    await logOut(page);
  }, 60_000);

  test("an agent sees no reveal form, and a forged post of one is refused (403) and audited", async () => {
    const { page } = b;
    await logIn(page, "agnes");
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    expect(await page.content()).toContain("Senior agents and supervisors only");
    expect(await page.locator("text=Reveal number").count()).toBe(0);
    const ref = (await page.locator("table >> nth=3 >> tbody tr td >> nth=0").textContent())!;
    // The agent builds the form by hand, with the session's own CSRF token (from the logout form).
    const [res] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/reveal")),
      page.evaluate(([order, doc]) => {
        const f = document.createElement("form");
        f.method = "post";
        f.action = `/staff/orders/${order}/documents/${doc}/reveal`;
        const add = (n: string, v: string) => {
          const i = document.createElement("input");
          i.name = n;
          i.value = v;
          f.appendChild(i);
        };
        add("csrf_token", (document.querySelector("input[name=csrf_token]") as HTMLInputElement).value);
        add("reason", "I would like to see this number please");
        add("category", "operational_need");
        document.body.appendChild(f);
        f.submit();
      }, [orderId, ref]),
    ]);
    expect(res.status()).toBe(403);
    await page.waitForURL(/\/reveal$/);
    await page.waitForLoadState("load");
    expect(await page.content()).not.toContain(NUMBER);
    await expectAccessible(page, "refused");
    await shot(page, "05-agent-refused");
    await logOut(page);
  }, 60_000);

  test("a supervisor erases the documents: the order says erased on <date>; the audit trail shows every step", async () => {
    const { page } = b;
    await logIn(page, "sue");
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    await page.fill("#erase-reason", "The guest asked by email for their documents to be erased");
    await Promise.all([page.waitForURL(`**/staff/orders/${orderId}`), page.click("text=Erase documents")]);
    const date = new Date(w.clock.now()).toISOString().slice(0, 10);
    expect(await page.content()).toContain(`Erased on ${date}`);
    await expectAccessible(page, "erased order");
    await shot(page, "06-erased");
    await page.goto(`${server.url}/staff/audit`);
    const audit = await page.content();
    for (const s of ["pii.reveal", "pii.erase", "refused", "127.0.0.1", "agnes", "sam"]) expect(audit).toContain(s);
    expect(audit).not.toContain(NUMBER);
    await expectAccessible(page, "audit");
    await shot(page, "07-audit");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("text=Export as JSON lines")]);
    const lines = (await Bun.file((await download.path())!).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.some((l) => l.action === "pii.erase" && l.username === "sue" && l.orderId === orderId)).toBe(true);
    expect(w.t.logs.filter((l) => l.includes(NUMBER))).toEqual([]);
    await logOut(page);
  }, 60_000);
});
