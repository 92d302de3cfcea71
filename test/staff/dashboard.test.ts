import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createLogger } from "@ndc/log";
import { jobContextOf, startScheduler } from "@ndc/scheduler";
import { offersPurge } from "../../apps/scheduler/src/jobs/offers-purge";
import { airShoppingRQ } from "../shopping/shop-requests";
import { orderRetrieveRQ } from "../orders-http/helpers";
import { call, startReceiver, type Receiver } from "../notifications/helpers";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 12 items 8 and 9 over HTTP: the dashboard's figures (GET /staff/api/dashboard and the
 * page) move with real NDC calls: an order booked adds to its hour's orders and revenue and to
 * the seller's look-to-book, a refused call to its message's error rate, a pending notification
 * to the backlog, a scheduler run to the jobs; the sellers' traffic (supervisors and admins)
 * counts the rate limiter's refusals, and both forget calls older than an hour.
 */
let w: StaffWorld;
let rx: Receiver;
let client: string;
const SHOP_LIMIT = 4;
beforeAll(async () => {
  w = await staffWorld({ RATE_LIMIT_SHOP_PER_MINUTE: String(SHOP_LIMIT) });
  for (const [n, r] of [["agnes", "agent"], ["sue", "supervisor"]]) await w.addStaff(n!, r!);
  client = w.t.gw.sandbox!.client_id;
  rx = startReceiver();
}, 60_000);
afterAll(async () => {
  rx.stop();
  await w.t.close();
});

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const dashboard = async (s: Session) => {
  const r = await json(await s.call("/staff/api/dashboard"));
  expect(r.status).toBe(200);
  return r.body;
};
const message = (d: any, name: string) => d.messages.find((m: { message: string }) => m.message === name);
const shop = () => w.t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2026-12-15" }], currency: "EUR" }));

describe("the dashboard", () => {
  test("orders and revenue per hour, look-to-book, error rates, latency, backlog and job runs move with real calls", async () => {
    const agent = await w.login("agnes");
    const before = await dashboard(agent);
    expect(before.ordersPerHour).toHaveLength(24);
    expect(before.ordersPerHour.at(-1)).toEqual({ hour: "2026-11-21T09:00:00.000Z", orders: 0, revenue: [] });
    expect(before.notificationBacklog).toMatchObject({ pending: 0, failed: 0 });

    // A subscriber to sales information: the booking's sale becomes a pending delivery (the dispatcher is off here).
    const sub = await call(w.t, "POST", "/notifications/subscriptions", w.t.gw.sandbox!.api_key, { url: rx.url, events: ["accounting.sales_info"] });
    expect(sub.status).toBe(201);
    const orderId = await w.book("Lovelace", "P7654321");
    const total = (await json(await agent.call(`/staff/api/orders/${orderId}`))).body.total as { amount: string; currency: string };
    // A refused call: an order that does not exist.
    const missing = await w.t.ndc("OrderRetrieveRQ", orderRetrieveRQ("XB-NOPE-000000"));
    expect(missing.status).toBe(404);

    const after = await dashboard(agent);
    expect(after.ordersPerHour.at(-1)).toEqual({ hour: "2026-11-21T09:00:00.000Z", orders: 1, revenue: [{ currency: total.currency, minor: Math.round(Number(total.amount) * 100), amount: total.amount }] });
    expect(after.lookToBook).toEqual([{ clientId: client, agencyId: expect.any(String), looks: 1, books: 1, ratio: 1 }]);
    expect(message(after, "OrderCreateRQ")).toMatchObject({ requests: 1, errors: 0, errorRate: 0 });
    expect(message(after, "OrderRetrieveRQ")).toMatchObject({ requests: 1, errors: 1, errorRate: 1, sinceStart: { errorsByCode: { order_not_found: 1 } } });
    const shopping = message(after, "AirShoppingRQ");
    expect(shopping.p50Ms).toBeGreaterThan(0);
    expect(shopping.p99Ms).toBeGreaterThanOrEqual(shopping.p50Ms);
    expect(after.notificationBacklog.pending).toBeGreaterThanOrEqual(1);
    expect(after.notificationBacklog.oldestPendingAgeSeconds).toBeGreaterThanOrEqual(0);
    // No personal data and no order id in the figures.
    const text = JSON.stringify(after);
    for (const secret of ["Lovelace", "P7654321", orderId]) expect(text).not.toContain(secret);

    // A scheduler run on this store (the real scheduler, one job run now) shows with its time and outcome.
    const scheduler = startScheduler({ ...jobContextOf(w.t.gw.domain, createLogger({ level: "silent" })), clock: w.clock, jobs: [offersPurge] });
    try {
      expect(await scheduler.runNow("offers.purge")).toBe(true);
    } finally {
      await scheduler.stop();
    }
    const jobs = (await dashboard(agent)).jobs;
    expect(jobs).toEqual([expect.objectContaining({ job: "offers.purge", lastFinishedAt: new Date(w.clock.now()).toISOString(), lastOutcome: "done", running: false })]);

    // The page: the chart is SVG drawn by the server, nothing inline, the same numbers in a table.
    const page = await agent.call("/staff/dashboard");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain('<svg class="chart"');
    expect(html).toContain(`<title>09:00: 1</title>`);
    expect(html).toContain(`${total.amount} ${total.currency}`);
    expect(html).toContain("offers.purge");
    expect(html).not.toMatch(/<script|style=/);
    for (const secret of ["Lovelace", "P7654321", orderId]) expect(html).not.toContain(secret);
    const css = await agent.call("/staff/dashboard.css");
    expect(css.headers.get("content-type")).toStartWith("text/css");

    // Each look is audited.
    const sue = await w.login("sue");
    const audit = (await json(await sue.call("/staff/api/audit?action=dashboard.view"))).body.entries as { username: string; outcome: string }[];
    expect(audit.length).toBeGreaterThanOrEqual(4);
    expect(audit.every((e) => e.username === "agnes" && e.outcome === "ok")).toBe(true);
  }, 60_000);

  test("a call without a valid credential counts as an error of its message, for no client", async () => {
    const agent = await w.login("agnes");
    const before = message(await dashboard(agent), "AirShoppingRQ");
    const res = await w.t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: "2026-12-15" }], currency: "EUR" }), { headers: { "x-api-key": "not-a-key" } });
    expect(res.status).toBe(401);
    const after = await dashboard(agent);
    expect(message(after, "AirShoppingRQ")).toMatchObject({ requests: before.requests + 1, errors: before.errors + 1, sinceStart: { errorsByCode: { invalid_token: 1 } } });
    // A path naming no message is counted under one label, never the caller's text.
    expect((await w.t.ndc("NoSuchRQ", "<x/>")).status).toBe(404);
    const names = (await dashboard(agent)).messages.map((m: { message: string }) => m.message);
    expect(names).toContain("unknown");
    expect(names).not.toContain("NoSuchRQ");
  }, 60_000);
});

describe("seller traffic, last hour", () => {
  test("requests, rate-limiter refusals and errors per client; supervisors only; an hour later the figures are gone", async () => {
    const agent = await w.login("agnes");
    const sue = await w.login("sue");
    const forbidden = await json(await agent.call("/staff/api/sellers/traffic"));
    expect([forbidden.status, forbidden.body.error]).toEqual([403, "staff_forbidden"]);
    expect((await agent.call("/staff/sellers/traffic")).status).toBe(403);

    const before = (await json(await sue.call("/staff/api/sellers/traffic"))).body;
    expect(before.rateLimitsPerMinute).toEqual({ shop: SHOP_LIMIT, default: 1200 });
    const mine = (t: any) => t.clients.find((c: { clientId: string }) => c.clientId === client);
    const shopBefore = mine(before).messages.find((m: { message: string }) => m.message === "AirShoppingRQ");
    // Shop until the limiter refuses (the clock stands still: the bucket does not refill).
    let refused = 0;
    let sent = 0;
    while (refused < 2 && sent < 3 * SHOP_LIMIT) {
      sent++;
      if ((await shop()).status === 429) refused++;
    }
    expect(refused).toBe(2);
    const after = (await json(await sue.call("/staff/api/sellers/traffic"))).body;
    const shopAfter = mine(after).messages.find((m: { message: string }) => m.message === "AirShoppingRQ");
    expect(shopAfter).toMatchObject({ rateClass: "shop", requests: shopBefore.requests + sent, rateLimited: shopBefore.rateLimited + 2, errors: shopBefore.errors + 2 });
    expect(mine(after).rateLimited).toBe(mine(before).rateLimited + 2);
    expect(mine(after).busiestMinute.shop).toBeGreaterThanOrEqual(sent);

    const page = await sue.call("/staff/sellers/traffic");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(client);
    expect(html).toContain("Refused by the rate limiter");
    expect(await (await sue.call("/staff/sellers")).text()).toContain('href="/staff/sellers/traffic"');
    const audit = (await json(await sue.call("/staff/api/audit?action=sellers.traffic"))).body.entries as { outcome: string; username: string }[];
    expect(audit.map((e) => `${e.username} ${e.outcome}`)).toEqual(["agnes refused", "agnes refused", "sue ok", "sue ok", "sue ok"]);

    // An hour and a minute later: nothing of it in the last hour (the process totals keep it).
    w.clock.advance(61 * 60_000);
    const later = await w.login("sue");
    const gone = (await json(await later.call("/staff/api/sellers/traffic"))).body;
    expect(mine(gone)).toMatchObject({ requests: 0, rateLimited: 0, errors: 0, busiestMinute: {}, lookToBook: null });
    const d = await dashboard(later);
    expect(message(d, "AirShoppingRQ")).toMatchObject({ requests: 0, errors: 0, errorRate: null, p50Ms: null, p99Ms: null });
    expect(message(d, "AirShoppingRQ").sinceStart.requests).toBeGreaterThan(sent);
    // The order stays in its hour, now the one before.
    expect(d.ordersPerHour.at(-2).orders).toBe(1);
  }, 60_000);
});
