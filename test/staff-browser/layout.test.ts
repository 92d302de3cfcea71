import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import type { Page } from "playwright-core";
import type { StaffWorld } from "../staff/support";
import { chromiumMissing, expectAccessible, logIn as logInAs, openConsole, closeConsole, shot, type Browser } from "./browser";

/**
 * Issue 19 item 27 in real headless Chromium: the console fits its window. No page is wider than
 * the viewport at 1,280 px or at 420 px (a wide table scrolls inside its own box, long values
 * wrap), every navigation link can be seen and reached at 420 px (the navigation wraps), and the
 * icon the pages link is served (no 404 on every page).
 */
let w: StaffWorld;
let server: { url: string; stop(graceMs?: number): Promise<void> };
let b: Browser;
let orderId: string;
const accounts = new Map<string, { password: string; totpSecret: string }>();

describe.skipIf(chromiumMissing !== undefined)(`console layout in Chromium${chromiumMissing ? ` (${chromiumMissing})` : ""}`, () => {
  beforeAll(async () => {
    ({ w, server, b } = await openConsole());
    accounts.set("sue", await w.addStaff("sue", "supervisor"));
    await w.addStaff("adam", "admin");
    orderId = await w.book("Lovelace-Byron-Somerville", "QX4471920KX");
    // Audit rows with long unbroken values, as a working console has them: a key's fingerprint, a ticket's address as the reason.
    const admin = await w.login("adam");
    const pem = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    const agency = w.t.gw.sandbox!.agency_id;
    const res = await admin.call(`/staff/api/agencies/${agency}/signing/keys`, { method: "POST", body: { pem, reason: "https://tickets.example.com/INC-2026-12-07/agency-signing-key-registration-request-000123" } });
    expect(res.status).toBe(200);
  }, 90_000);
  afterAll(() => closeConsole({ w, server, b }));

  const logIn = (page: Page) => logInAs(page, server.url, w, "sue", accounts.get("sue")!);
  /** How far the page reaches sideways, against the window. */
  const widths = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));

  test("the icon: /favicon.ico and the one the pages link are served, 200", async () => {
    for (const path of ["/favicon.ico", "/staff/favicon.ico"]) {
      const res = await fetch(`${server.url}${path}`);
      expect([path, res.status, res.headers.get("content-type")]).toEqual([path, 200, "image/x-icon"]);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // An ICO directory: reserved 0, type 1 (icon), one image.
      expect([...bytes.slice(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    }
    const { page } = b;
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${server.url}/staff/login`);
    expect(await page.getAttribute('link[rel="icon"]', "href")).toBe("/staff/favicon.ico");
    expect(failed).toEqual([]);
  }, 60_000);

  test("at 1,280 px no page is wider than the window: the audit trail's table scrolls in its own box", async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page);
    // Rows with long values: an order viewed, a reveal refused for want of a reason, searches.
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    await page.goto(`${server.url}/staff/orders?surname=Lovelace-Byron-Somerville`);
    for (const path of ["/staff/audit", `/staff/orders/${orderId}`, "/staff/dashboard", "/staff/sellers", "/staff/orders"]) {
      await page.goto(`${server.url}${path}`);
      expect({ path, ...(await widths(page)) }).toEqual({ path, scroll: 1280, viewport: 1280 });
    }
    await page.goto(`${server.url}/staff/audit`);
    await expectAccessible(page, "audit trail at 1280");
    await shot(page, "30-audit-1280");
  }, 90_000);

  test("at 420 px no page is wider than the window, and every navigation link is visible and reachable", async () => {
    const { page } = b;
    await page.setViewportSize({ width: 420, height: 900 });
    await page.goto(`${server.url}/staff/`);
    if (new URL(page.url()).pathname === "/staff/login") await logIn(page);
    for (const path of ["/staff/audit", `/staff/orders/${orderId}`, "/staff/dashboard", "/staff/sellers", "/staff/orders"]) {
      await page.goto(`${server.url}${path}`);
      expect({ path, ...(await widths(page)) }).toEqual({ path, scroll: 420, viewport: 420 });
    }
    const links = page.locator('nav[aria-label="Console"] a');
    const count = await links.count();
    expect(count).toBe(7);
    for (let i = 0; i < count; i++) {
      const link = links.nth(i);
      const box = await link.boundingBox();
      const name = await link.textContent();
      expect({ name, visible: await link.isVisible(), inside: !!box && box.x >= 0 && box.x + box.width <= 420 }).toEqual({ name, visible: true, inside: true });
    }
    // Reachable: the last link is followed like any other.
    const last = links.nth(count - 1);
    const href = await last.getAttribute("href");
    await Promise.all([page.waitForURL(`**${href}`), last.click()]);
    await expectAccessible(page, "narrow window");
    await shot(page, "31-narrow-420");
  }, 90_000);
});
