import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "bun:test";
import type { BrowserContext, Page } from "playwright-core";
import { totpAt } from "@ndc/staff";
import { listen } from "@ndc/gateway";
import { staffWorld, type StaffWorld } from "../staff/support";

/**
 * Headless Chromium for the staff console's browser tests: Debian's `chromium` package (installed
 * by scripts/run.mjs and .ci/run, never downloaded by a test), driven by playwright-core, with a
 * fresh profile under /tmp that is removed afterwards. axe-core runs inside each page.
 */
export const CHROMIUM = "/usr/bin/chromium";
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (Debian package chromium; npm test and .ci/run install it): browser tests skipped`;

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Screenshots for review, never committed (test-output/ is gitignored). */
export const SHOTS = join(import.meta.dir, "../../test-output/staff-console");

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  const profile = mkdtempSync(join(tmpdir(), "ndc-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 900 } });
  const page = context.pages()[0] ?? (await context.newPage());
  mkdirSync(SHOTS, { recursive: true });
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const AXE = readFileSync(join(import.meta.dir, "../../node_modules/axe-core/axe.min.js"), "utf8");

/**
 * axe-core inside the page (evaluated through the DevTools protocol, which the page's CSP does not
 * govern: the console itself allows no script), failing on any serious or critical violation.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE);
  const violations = (await page.evaluate(async () => {
    const r = await (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  })) as { id: string; impact: string; nodes: number }[];
  expect({ page: name, violations: violations.filter((v) => v.impact === "serious" || v.impact === "critical") }).toEqual({ page: name, violations: [] });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Logs in through the login page with the account's current TOTP code (the clock moved to a fresh step first). */
export async function logIn(page: Page, base: string, w: StaffWorld, username: string, account: { password: string; totpSecret: string }): Promise<void> {
  w.clock.advance(30_000);
  await page.goto(`${base}/staff/`);
  expect(new URL(page.url()).pathname).toBe("/staff/login");
  await page.fill("#username", username);
  await page.fill("#password", account.password);
  await page.fill("#totp", totpAt(account.totpSecret, w.clock.now()));
  await Promise.all([page.waitForURL("**/staff/orders"), page.click("button[type=submit]")]);
}

/** A staff world served on a real socket, and a browser to drive it: what every console browser test starts from. */
export interface ConsoleUnderTest {
  w: StaffWorld;
  server: { url: string; stop(graceMs?: number): Promise<void> };
  b: Browser;
}

export async function openConsole(): Promise<ConsoleUnderTest> {
  const w = await staffWorld({ PORT: "0", HOST: "127.0.0.1" });
  const server = listen(w.t.gw);
  try {
    return { w, server, b: await openBrowser() };
  } catch (e) {
    await closeConsole({ w, server });
    throw e;
  }
}

/** Closes what `openConsole` made (as much of it as exists, when a setup failed half-way). */
export async function closeConsole(c: Partial<ConsoleUnderTest>): Promise<void> {
  await c.b?.close();
  await c.server?.stop(100);
  await c.w?.t.close();
}
