import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "@ndc/log";
import { jobContextOf, startScheduler } from "@ndc/scheduler";
import { offersPurge } from "../../apps/scheduler/src/jobs/offers-purge";
import { orderRetrieveRQ } from "../orders-http/helpers";
import type { StaffWorld } from "../staff/support";
import { chromiumMissing, expectAccessible, logIn, openConsole, closeConsole, shot, type Browser } from "./browser";

/**
 * Issue 12 items 8 and 9 in Chromium: the dashboard (orders per hour drawn as SVG, revenue, the
 * message table, look-to-book, backlog, job runs) for an agent and a supervisor, and the sellers'
 * traffic page reached from the sellers page; axe-core on each, screenshots under test-output/.
 */
let w: StaffWorld;
let server: { url: string; stop(graceMs?: number): Promise<void> };
let b: Browser;
let sue: { password: string; totpSecret: string };
let agnes: { password: string; totpSecret: string };

describe.skipIf(chromiumMissing !== undefined)(`dashboard and seller traffic in Chromium${chromiumMissing ? ` (${chromiumMissing})` : ""}`, () => {
  beforeAll(async () => {
    ({ w, server, b } = await openConsole());
    sue = await w.addStaff("sue", "supervisor");
    agnes = await w.addStaff("agnes", "agent");
    // Orders over a few hours, a refused call, and one scheduler run: something to draw.
    for (const [hoursLater, n] of [[0, 1], [1, 2], [3, 1]] as const) {
      if (hoursLater) w.clock.advance(hoursLater === 1 ? 3_600_000 : 2 * 3_600_000);
      for (let i = 0; i < n; i++) await w.book(`Pax${hoursLater}${i}`, `D${hoursLater}${i}000001`);
    }
    expect((await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ("XB-NOPE-000000"))).status).toBe(404);
    const scheduler = startScheduler({ ...jobContextOf(w.t.gw.domain, createLogger({ level: "silent" })), clock: w.clock, jobs: [offersPurge] });
    await scheduler.runNow("offers.purge");
    await scheduler.stop();
  }, 120_000);
  afterAll(() => closeConsole({ w, server, b }));

  test("an agent opens the dashboard: the chart, the figures, no traffic page", async () => {
    const { page } = b;
    await logIn(page, server.url, w, "agnes", agnes);
    await Promise.all([page.waitForURL("**/staff/dashboard"), page.click("nav >> text=Dashboard")]);
    expect(await page.locator("svg.chart").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator("svg.chart rect.bar").count()).toBe(48);
    expect(await page.locator("svg.chart").first().getAttribute("role")).toBe("img");
    const text = (await page.textContent("main"))!;
    expect(text).toContain("Orders, last 24 hours4");
    expect(text).toContain("OrderRetrieveRQ");
    expect(text).toContain("order_not_found 1");
    expect(text).toContain("offers.purge");
    expect(await page.locator("nav >> text=Sellers").count()).toBe(0);
    await expectAccessible(page, "dashboard (agent)");
    const res = await page.goto(`${server.url}/staff/sellers/traffic`);
    expect(res!.status()).toBe(403);
    await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);
  }, 90_000);

  test("a supervisor: the dashboard, then the sellers' traffic from the sellers page", async () => {
    const { page } = b;
    await logIn(page, server.url, w, "sue", sue);
    await Promise.all([page.waitForURL("**/staff/dashboard"), page.click("nav >> text=Dashboard")]);
    await expectAccessible(page, "dashboard");
    await shot(page, "20-dashboard");
    await Promise.all([page.waitForURL("**/staff/sellers"), page.click("nav >> text=Sellers")]);
    await Promise.all([page.waitForURL("**/staff/sellers/traffic"), page.click("text=Traffic and rate-limit figures per client")]);
    const rows = (await page.textContent("table"))!;
    expect(rows).toContain(w.t.gw.sandbox!.client_id);
    // The last hour only: the booking of the last hour (one shop, one OrderCreateRQ) and the refused retrieve.
    expect(rows).toContain("default 2 of 1200, shop 1 of 300");
    await expectAccessible(page, "seller traffic");
    await shot(page, "21-seller-traffic");
    await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);
  }, 90_000);
});
