import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { T0, orderRetrieveRQ } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { cancelQuoteRQ, quote } from "./cancel-helpers";
import { bookBrand, hoursBefore, orderRulesByOrder, penalties } from "./helpers";

/**
 * One fee table, one departure reading (packages/supply/src/fares/fee-bands.ts): for the same
 * order at the same instant, OrderRulesRS's penalty marked APPLIES_NOW, OrderViewRS's
 * ChangeRestrictions and CancelRestrictions fees and the cancel quote's penalty (OrderReshopRS
 * ChangeFees) are the same amount, at both sides of the band edges 72 h and 24 h (injected clock).
 * The order flies from CDG, an hour ahead of UTC in January: the departure read as UTC is an hour
 * after the real one, so a quote that read the real UTC departure would already be in the next
 * band at 72 h and at 24 h exactly.
 */
let t: TestGateway;
const clock = new ManualClock(T0);
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, clock);
});
afterAll(() => t.close());

/** The Fee/Amount of the restrictions of `kind` (CancelRestrictions, or ChangeRestrictions of ChangeTypeCode Flight) of the first flight item. */
function restrictionFee(view: string, kind: "CancelRestrictions" | "ChangeRestrictions"): string | undefined {
  const r = blocks(view, kind).find((x) => kind === "CancelRestrictions" || x.includes("<cns:ChangeTypeCode>Flight</cns:ChangeTypeCode>"))!;
  return all(blocks(r, "Fee")[0] ?? "", "Amount")[0];
}

describe("a FLEX order from CDG: the three answers agree at the band edges", () => {
  const edges: [string, number, string, string][] = [
    ["72 h exactly", 72 * 3_600_000, "25.00", "CHG-72H"],
    ["just under 72 h", 72 * 3_600_000 - 1_000, "50.00", "CHG-24H"],
    ["24 h exactly", 24 * 3_600_000, "50.00", "CHG-24H"],
    ["just under 24 h", 24 * 3_600_000 - 1_000, "75.00", "CHG-0H"],
  ];
  let orderId = "";
  let departure = "";
  beforeAll(async () => {
    clock.set(T0);
    const b = await bookBrand(t, "FLEX", { from: "CDG", to: "LHR" });
    [orderId, departure] = [b.orderId, b.outboundDepartureLocal];
  });

  for (const [name, beforeMs, fee, band] of edges) {
    test(`${name} before the departure read as UTC: ${fee} EUR (${band}) everywhere`, async () => {
      clock.set(hoursBefore(departure, 0) - beforeMs);
      const rules = await t.ndc("OrderRulesRQ", orderRulesByOrder(orderId));
      expect(rules.status).toBe(200);
      const now = penalties(rules.body).filter((p) => p.app === "APPLIES_NOW");
      expect(now.map((p) => [p.type, p.id, p.amount])).toEqual([
        ["Change", band, fee],
        ["Cancellation", `CXL-${band.slice(4)}`, fee],
      ]);
      const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(view.status).toBe(200);
      expect(restrictionFee(view.body, "ChangeRestrictions")).toBe(fee);
      expect(restrictionFee(view.body, "CancelRestrictions")).toBe(fee);
      expect((await quote(t, orderId)).penalty).toBe(fee);
    });
  }

  test("at the departure read as UTC (an hour after the real one) nothing is open: no band in any of the three", async () => {
    clock.set(hoursBefore(departure, 0));
    const rules = await t.ndc("OrderRulesRQ", orderRulesByOrder(orderId));
    expect(penalties(rules.body).filter((p) => p.app === "APPLIES_NOW")).toEqual([]);
    const view = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    expect(restrictionFee(view.body, "ChangeRestrictions")).toBeUndefined();
    expect(restrictionFee(view.body, "CancelRestrictions")).toBeUndefined();
    expect(all(blocks(view.body, "CancelRestrictions")[0]!, "AllowedModificationInd")).toEqual(["false"]);
    const r = await t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId));
    expect(r.status).toBe(409);
    clock.set(T0);
  });
});
