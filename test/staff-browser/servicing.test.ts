import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { bookCancellable } from "../servicing/cancel-helpers";
import type { StaffWorld } from "../staff/support";
import { chromiumMissing, expectAccessible, logIn as logInAs, openConsole, closeConsole, shot, type Browser } from "./browser";
import { dayAfter, T0 } from "../support/dates";

/**
 * Servicing an order as the airline from the console's pages, in real headless Chromium over a
 * real socket (issue 12 item 6): an agent quotes a SAVER order's cancellation (the override shown,
 * no accept form), a senior agent accepts it with a reason, the order page then shows it cancelled
 * with the override and the staff member on the change; the flight-change quote and the add page
 * render. axe-core on every page; screenshots under test-output/.
 */
let w: StaffWorld;
let server: { url: string; stop(graceMs?: number): Promise<void> };
let b: Browser;
const accounts = new Map<string, { password: string; totpSecret: string }>();

describe.skipIf(chromiumMissing !== undefined)(`servicing in Chromium${chromiumMissing ? ` (${chromiumMissing})` : ""}`, () => {
  beforeAll(async () => {
    ({ w, server, b } = await openConsole());
    for (const [n, r] of [["sam", "senior_agent"], ["agnes", "agent"]]) accounts.set(n!, await w.addStaff(n!, r!));
  }, 90_000);
  afterAll(() => closeConsole({ w, server, b }));

  const logIn = (page: Page, username: string) => logInAs(page, server.url, w, username, accounts.get(username)!);
  const logOut = (page: Page) => Promise.all([page.waitForURL("**/staff/login"), page.click("text=Log out")]);

  test("an agent quotes a SAVER order's cancellation (override shown, no accept); a senior agent cancels it from the page", async () => {
    const { orderId } = await bookCancellable(w.t, "BSV1", { brand: "SAVER" });
    const { page } = b;
    await logIn(page, "agnes");
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    expect(await page.content()).toContain("Service this order");
    await expectAccessible(page, "order with servicing");
    await Promise.all([page.waitForURL("**/servicing/cancel/quote"), page.click("text=Quote the cancellation")]);
    let content = await page.content();
    expect(content).toContain("Fare rule overridden: fare_not_cancellable");
    expect(content).toContain("Senior agents and supervisors accept servicing quotes.");
    expect(await page.locator("text=Cancel the order").count()).toBe(0);
    await expectAccessible(page, "cancel quote (agent)");
    await shot(page, "20-cancel-quote-agent");
    await logOut(page);

    await logIn(page, "sam");
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    await Promise.all([page.waitForURL("**/servicing/cancel/quote"), page.click("text=Quote the cancellation")]);
    await expectAccessible(page, "cancel quote");
    await shot(page, "21-cancel-quote");
    await page.fill("#cx-reason", "Passenger hospitalised, the airline cancels as goodwill");
    await Promise.all([page.waitForURL(`**/staff/orders/${orderId}?serviced=cancel`), page.click("text=Cancel the order")]);
    content = await page.content();
    expect(content).toContain("Done: the cancellation was made");
    expect(content).toContain("override:fare_not_cancellable");
    expect(content).toContain("Cancelled");
    await expectAccessible(page, "order after cancel");
    await shot(page, "22-order-cancelled");
    expect((await w.t.gw.orders.airlineDetails(orderId)).order.state).toBe("cancelled");
    await logOut(page);
  }, 120_000);

  test("the flight-change quote and the add page render accessibly", async () => {
    const { orderId, order } = await bookCancellable(w.t, "BSV2", { brand: "LIGHT", seat: false });
    const { page } = b;
    await logIn(page, "sam");
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    await page.fill("#ch-date", dayAfter(T0, 53));
    await Promise.all([page.waitForURL("**/servicing/change/quote"), page.click("text=Quote the change")]);
    expect(await page.content()).toContain("Fare rule overridden: fare_not_changeable");
    await expectAccessible(page, "flight change quote");
    await shot(page, "23-change-quote");
    await page.goto(`${server.url}/staff/orders/${orderId}/servicing/options`);
    await expectAccessible(page, "add a seat or an extra");
    await shot(page, "24-add-options");
    await Promise.all([page.waitForURL("**/servicing/add/quote"), page.click("text=Quote the seat")]);
    expect(await page.content()).toContain("The fare allows this: no override.");
    await expectAccessible(page, "addition quote");
    await shot(page, "25-add-quote");
    // Nothing was changed by quoting.
    expect((await w.t.gw.orders.airlineDetails(orderId)).order.version).toBe(order.version);
  }, 120_000);

  test("a senior agent corrects a CLASSIC passenger's name from the order page (issue 19 item 17): the override shown on the change", async () => {
    const { orderId, order } = await bookCancellable(w.t, "BSV3", { brand: "CLASSIC", seat: false });
    const { page } = b;
    // The test before may have left its session open.
    await page.goto(`${server.url}/staff/`);
    if (new URL(page.url()).pathname !== "/staff/login") await logOut(page);
    await logIn(page, "sam");
    await page.goto(`${server.url}/staff/orders/${orderId}`);
    await page.fill("#rn-given", "Alexandra Jane");
    await page.fill("#rn-surname", "TRAVELER");
    await page.fill("#rn-reason", "Name misspelt at booking, passport shown at the desk");
    await Promise.all([page.waitForURL(`**/staff/orders/${orderId}?serviced=rename`), page.click("text=Correct the name")]);
    const content = await page.content();
    expect(content).toContain("Done: the name was corrected");
    expect(content).toContain("override:fare_not_renameable");
    expect(content).toContain("TRAVELER");
    await expectAccessible(page, "order after a name correction");
    await shot(page, "26-order-renamed");
    const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
    expect([after.version, after.passengers[0]!.surname, after.passengers[0]!.givenNames]).toEqual([order.version + 1, "TRAVELER", ["Alexandra", "Jane"]]);
    await logOut(page);
  }, 120_000);
});
