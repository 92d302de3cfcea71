import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { orderRetrieveRQ } from "../orders-http/helpers";
import { raiseFailedDelivery, raiseReconcileFailed, type StaffWorld } from "../staff/support";
import { chromiumMissing, expectAccessible, logIn, openConsole, closeConsole, shot, type Browser } from "./browser";

/**
 * Issue 12 item 5 in Chromium: a supervisor resolves a reconcile_failed item from the work queue
 * page, then suspends the sandbox seller from the sellers page and its next NDC call is refused;
 * resumed, it is served again. axe-core on each page; screenshots under test-output/.
 */
let w: StaffWorld;
let server: { url: string; stop(graceMs?: number): Promise<void> };
let b: Browser;
let account: { password: string; totpSecret: string };
let adminAccount: { password: string; totpSecret: string };

describe.skipIf(chromiumMissing !== undefined)(`work queue and sellers in Chromium${chromiumMissing ? ` (${chromiumMissing})` : ""}`, () => {
  beforeAll(async () => {
    ({ w, server, b } = await openConsole());
    account = await w.addStaff("sue", "supervisor");
    adminAccount = await w.addStaff("adam", "admin");
  }, 90_000);
  afterAll(() => closeConsole({ w, server, b }));

  test("take and redeliver a failed notification delivery", async () => {
    const { rx } = await raiseFailedDelivery(w);
    try {
      const { page } = b;
      await logIn(page, server.url, w, "sue", account);
      await Promise.all([page.waitForURL("**/staff/queues/failed-deliveries"), page.click("nav >> text=Failed deliveries")]);
      expect(await page.textContent("tbody")).toContain("order.payment_expired");
      await Promise.all([page.waitForResponse((r) => r.url().endsWith("/take")), page.click('button:has-text("Take")')]);
      await page.waitForLoadState("load");
      expect(await page.textContent("tbody")).toContain("sue since");
      await expectAccessible(page, "failed deliveries");
      await shot(page, "10-failed-deliveries");
      rx.answer = () => new Response(null, { status: 204 });
      await page.fill("textarea[name=note]", "The seller fixed their endpoint");
      await Promise.all([page.waitForURL("**/staff/queues/failed-deliveries?redelivered=1"), page.click('button:has-text("Redeliver")')]);
      expect(await page.locator("tbody").count()).toBe(0);
      await w.t.gw.notifications.dispatcher.tick();
      expect(rx.requests.at(-1)!.headers.get("webhook-id")).toBe(rx.requests[0]!.headers.get("webhook-id"));
      await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);
    } finally {
      rx.stop();
    }
  }, 90_000);

  test("resolve a reconcile_failed item, suspend and resume a seller", async () => {
    const item = await raiseReconcileFailed(w, "BW1");
    const orderId = await w.book("Meitner", "LM1878110");
    const { page } = b;
    await logIn(page, server.url, w, "sue", account);

    await Promise.all([page.waitForURL("**/staff/queues/reconcile-failed"), page.click("text=Work queue")]);
    expect(await page.content()).toContain(item.operationId);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/take")), page.click('button:has-text("Take")')]);
    await page.waitForLoadState("load");
    expect(await page.textContent("tbody")).toContain("sue since");
    await expectAccessible(page, "work queue");
    await shot(page, "08-work-queue");
    item.restore();
    await page.fill(`[id="note-${item.operationId}"]`, "PSP fixed the refunds, ticket 42");
    await Promise.all([page.waitForURL("**/staff/queues/reconcile-failed?resolved=1"), page.click("text=Mark resolved")]);
    expect(await page.content()).not.toContain(item.operationId);
    expect((await w.t.gw.orders.reconcile()).finished).toEqual([item.operationId]);

    const clientId = w.t.gw.sandbox!.client_id;
    expect((await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId))).status).toBe(200);
    await Promise.all([page.waitForURL("**/staff/sellers"), page.click("nav >> text=Sellers")]);
    await expectAccessible(page, "sellers");
    await page.fill(`[id="why-${clientId}"]`, "Suspected fraud on this client");
    // The form posts to /suspend and comes back to /staff/sellers: wait for the post's answer, then the page.
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/suspend")), page.click("button:has-text(\"Suspend\")")]);
    await page.waitForLoadState("load");
    expect(await page.content()).toContain("<strong>Suspended</strong>");
    await shot(page, "09-sellers-suspended");
    const refused = await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("The client is suspended.");
    await page.fill(`[id="why-${clientId}"]`, "Cleared by the fraud team");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/resume")), page.click("button:has-text(\"Resume\")")]);
    expect((await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId))).status).toBe(200);

    // A new secret, shown once on a page of its own.
    await page.fill(`[id="rot-${clientId}"]`, "The secret leaked in a support ticket");
    const [rotated] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/rotate-secret")), page.click('button:has-text("New secret")')]);
    expect(rotated.headers()["cache-control"]).toBe("no-store");
    await page.waitForLoadState("load");
    const secret = (await page.textContent(".number"))!;
    await expectAccessible(page, "new secret");
    const token = await w.t.fetch("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${clientId}:${secret}`)}` }, body: "grant_type=client_credentials" });
    expect(token.status).toBe(200);
    await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);
  }, 90_000);

  test("an admin registers a seller client from the sellers page and grants it a scope", async () => {
    const { page } = b;
    await logIn(page, server.url, w, "adam", adminAccount);
    await Promise.all([page.waitForURL("**/staff/sellers"), page.click("nav >> text=Sellers")]);
    await expectAccessible(page, "sellers (admin)");
    await shot(page, "11-sellers-admin");
    await page.fill("#reg-agency", w.t.gw.sandbox!.agency_id);
    await page.fill("#reg-name", "Made in the console");
    await page.selectOption("#reg-scopes", ["ndc:shop"]);
    await page.fill("#reg-reason", "A new channel for the sandbox agency");
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/staff/sellers") && r.request().method() === "POST"), page.click('button:has-text("Register client")')]);
    expect(res.headers()["cache-control"]).toBe("no-store");
    await page.waitForLoadState("load");
    const text = (await page.textContent("main"))!;
    const clientId = /Client (ndc_[a-z0-9]+), registered/.exec(text)![1]!;
    await expectAccessible(page, "new client secret");
    await page.goto(`${server.url}/staff/sellers`);
    await page.selectOption(`[id="sc-${clientId}"]`, "ndc:order");
    await page.fill(`[id="scr-${clientId}"]`, "The agency signed the order terms");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/scopes/grant")), page.click(`form[action="/staff/sellers/${clientId}/scopes/grant"] button:has-text("Grant scope")`)]);
    await page.waitForLoadState("load");
    expect(await page.textContent("main")).toContain("ndc:shop ndc:order");
    // Made an aggregator, the client gets the form of the agencies it may sell as.
    await page.selectOption(`[id="sc-${clientId}"]`, "ndc:aggregator");
    await page.fill(`[id="scr-${clientId}"]`, "The agency became an aggregator");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/scopes/grant")), page.click(`form[action="/staff/sellers/${clientId}/scopes/grant"] button:has-text("Grant scope")`)]);
    await page.waitForLoadState("load");
    await page.fill(`[id="agg-${clientId}"]`, w.t.gw.sandbox!.agency_id);
    await page.fill(`[id="aggr-${clientId}"]`, "Sells for the sandbox agency now");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/agencies/grant")), page.click(`form[action="/staff/sellers/${clientId}/agencies/grant"] button:has-text("Grant agency")`)]);
    await page.waitForLoadState("load");
    expect(await page.textContent("main")).toContain(`sells as ${w.t.gw.sandbox!.agency_id}`);
    await expectAccessible(page, "sellers with an aggregator");
  }, 90_000);
});
