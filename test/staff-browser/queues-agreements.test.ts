import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import type { StaffWorld } from "../staff/support";
import { bookSettled, raiseCaptureItem } from "../staff/settle-support";
import { chromiumMissing, expectAccessible, logIn, openConsole, closeConsole, shot, type Browser } from "./browser";

/**
 * Issue 12 items 7 and 8 in Chromium: a supervisor captures a reconcile_failed item's authorised
 * payment from the work queue page, takes and clears an unclear clearance from its queue page, and
 * an admin sets an agency's commission and signing policy on its agreements page (a supervisor
 * sees the page without its forms). axe-core on each page; screenshots under test-output/.
 */
let w: StaffWorld;
let server: { url: string; stop(graceMs?: number): Promise<void> };
let b: Browser;
let sue: { password: string; totpSecret: string };
let adam: { password: string; totpSecret: string };

describe.skipIf(chromiumMissing !== undefined)(`capture, unclear clearances and agreements in Chromium${chromiumMissing ? ` (${chromiumMissing})` : ""}`, () => {
  beforeAll(async () => {
    ({ w, server, b } = await openConsole());
    sue = await w.addStaff("sue", "supervisor");
    adam = await w.addStaff("adam", "admin");
  }, 90_000);
  afterAll(() => closeConsole({ w, server, b }));

  test("capture a reconcile_failed item's payment, then take and clear an unclear clearance", async () => {
    const item = await raiseCaptureItem(w, "BC1");
    item.restore();
    const orderId = await bookSettled(w, "BC2");
    const [clearance] = (await w.t.gw.store.db.all(`SELECT clearance_id FROM payment_clearances WHERE order_id = '${orderId}'`)) as { clearance_id: string }[];
    w.clock.advance(2 * 3_600_000);
    const { page } = b;
    await logIn(page, server.url, w, "sue", sue);

    await Promise.all([page.waitForURL("**/staff/queues/reconcile-failed"), page.click("nav >> text=Work queue")]);
    expect(await page.content()).toContain(item.operationId);
    await page.selectOption(`[id="res-${item.operationId}"]`, "capture");
    await page.fill(`[id="note-${item.operationId}"]`, "PSP back up, captured from the console");
    await expectAccessible(page, "work queue with capture");
    await shot(page, "12-work-queue-capture");
    await Promise.all([page.waitForURL("**/staff/queues/reconcile-failed?resolved=1"), page.click("text=Mark resolved")]);
    expect(await page.content()).not.toContain(item.operationId);
    const legs = (await w.t.gw.orders.ctx.payments.ledger.legs(item.orderId)).filter((l) => l.changeRef !== "sale");
    expect(legs.map((l) => [l.state, l.captured])).toEqual([["captured", item.amountMinor]]);

    await Promise.all([page.waitForURL("**/staff/queues/unclear-clearances"), page.click("nav >> text=Unclear clearances")]);
    expect(await page.textContent("tbody")).toContain(clearance!.clearance_id);
    expect(await page.textContent("tbody")).toContain("still requested an hour after its request");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/take")), page.click('button:has-text("Take")')]);
    await page.waitForLoadState("load");
    expect(await page.textContent("tbody")).toContain("sue since");
    await expectAccessible(page, "unclear clearances");
    await shot(page, "13-unclear-clearances");
    await page.fill(`[id="cn-${clearance!.clearance_id}"]`, "Seen on the bank statement of 3 Dec");
    await Promise.all([page.waitForURL("**/staff/queues/unclear-clearances?done=1"), page.click('button:has-text("Clear by hand")')]);
    expect(await page.locator("tbody").count()).toBe(0);
    const [after] = (await w.t.gw.store.db.all(`SELECT status, cleared_by FROM payment_clearances WHERE clearance_id = '${clearance!.clearance_id}'`)) as { status: string; cleared_by: string }[];
    expect(after).toEqual({ status: "cleared", cleared_by: "staff" });
    await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);
  }, 120_000);

  test("an agency's agreements page: a supervisor reads it; an admin sets the commission and the signing policy from it", async () => {
    const agency = w.t.gw.sandbox!.agency_id;
    const { page } = b;
    await logIn(page, server.url, w, "sue", sue);
    await Promise.all([page.waitForURL("**/staff/sellers"), page.click("nav >> text=Sellers")]);
    await Promise.all([page.waitForURL(`**/staff/agencies/${agency}/agreements`), page.click(`a[href="/staff/agencies/${agency}/agreements"]`)]);
    expect(await page.textContent("main")).toContain("Percentage: 5.00% (500 basis points)");
    expect(await page.locator("form[action$='/commission']").count()).toBe(0);
    await expectAccessible(page, "agreements (supervisor)");
    await Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);

    await logIn(page, server.url, w, "adam", adam);
    await page.goto(`${server.url}/staff/agencies/${agency}/agreements`);
    await page.selectOption("#c-kind", "tiered");
    await page.fill("#c-tiers", "0:300\n100000:500");
    await page.fill("#c-cur", "EUR");
    await page.fill("#c-reason", "New tiers agreed with the agency for 2027");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/commission")), page.click('button:has-text("Set commission")')]);
    await page.waitForLoadState("load");
    expect(await page.textContent("main")).toContain("Tiered in EUR: from 0.00 EUR, 3.00%; from 1000.00 EUR, 5.00%");
    await page.selectOption("#s-policy", "optional");
    await page.fill("#s-reason", "The agency signs its orders from now on");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/signing/policy")), page.click('button:has-text("Set policy")')]);
    await page.waitForLoadState("load");
    expect(await page.textContent("main")).toContain("Policy optional");
    const pub = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ type: "spki", format: "pem" }).toString();
    await page.fill("#k-pem", pub);
    await page.fill("#k-reason", "The agency's signing key for 2027");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/signing/keys")), page.click('button:has-text("Register key")')]);
    await page.waitForLoadState("load");
    expect(await page.textContent("tbody")).toContain("public_key, ecdsa-p256-sha256");
    expect(await page.content()).not.toContain("BEGIN PUBLIC KEY-----\nMF");
    // A refused key comes back as an error page naming why, the key material nowhere on it.
    await page.fill("#k-pem", "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----");
    await page.fill("#k-reason", "The agency sent its key by mistake");
    await Promise.all([page.waitForResponse((r) => r.url().endsWith("/signing/keys")), page.click('button:has-text("Register key")')]);
    expect(await page.textContent("main")).toContain("register the certificate or public key only");
    expect(await page.content()).not.toContain("MIGHAgEAMBMGByqGSM49");
    await page.goto(`${server.url}/staff/agencies/${agency}/agreements`);
    await expectAccessible(page, "agreements (admin)");
    await shot(page, "14-agency-agreements");
    const audit = ((await w.t.gw.store.db.all(`SELECT action, username, reason FROM staff_audit WHERE action IN ('commission.set', 'signing.policy', 'signing.key_add') ORDER BY seq`)) as { action: string; username: string; reason: string }[]).map((r) => [r.action, r.username, r.reason]);
    expect(audit).toEqual([
      ["commission.set", "adam", "New tiers agreed with the agency for 2027"],
      ["signing.policy", "adam", "The agency signs its orders from now on"],
      ["signing.key_add", "adam", "The agency's signing key for 2027"],
    ]);
  }, 120_000);
});
