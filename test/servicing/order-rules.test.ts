import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { T0, ndcAs, otherSeller } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { bookBrand, hoursBefore, orderRulesByFare, orderRulesByOrder, penalties, shopBrand, BOOKING_TEST_MS } from "./helpers";

/**
 * OrderRulesRQ, both forms (spec 4.7, SHPOR1), over HTTP: every answer is checked against
 * IATA_OrderRulesRS.xsd by the test gateway, and again here where the test names it.
 */
let t: TestGateway;
const clock = new ManualClock(T0);
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, clock);
});
afterAll(() => t.close());

let others: Record<string, string> | undefined;
/** Another agency's credentials (registered once: its IATA number is unique). */
const other = async () => (others ??= await otherSeller(t, "AGY-RULES"));
const current = (xml: string) => penalties(xml).find((p) => p.app === "APPLIES_NOW");

describe("a booked order (OrderStructureKey): fee bands at their edges, injected clock", () => {
  // The same band edges in three currencies: the fee is the same bare integer in each.
  const cases: [string, string, [string, string, string]][] = [
    ["EUR", "EUR", ["25.00", "50.00", "75.00"]],
    ["GBP", "GBP", ["25.00", "50.00", "75.00"]],
    ["JPY", "JPY", ["25", "50", "75"]],
  ];
  for (const [currency, cur, [far, mid, near]] of cases) {
    test(`CLASSIC in ${currency}: ${far} from 72 h, ${mid} from 24 h, ${near} below, nothing once departed`, async () => {
      clock.set(T0);
      const b = await bookBrand(t, "CLASSIC", { currency });
      const at = async (ms: number) => {
        clock.set(ms);
        const r = await t.ndc("OrderRulesRQ", orderRulesByOrder(b.orderId));
        expect(r.status).toBe(200);
        assertSchemaValid(r.body, "IATA_OrderRulesRS.xsd");
        return r.body;
      };
      const dep = b.outboundDepartureLocal;
      const bands = penalties(await at(hoursBefore(dep, 100))).filter((p) => p.type === "Change");
      expect(bands.map((p) => [p.id, p.amount, p.cur])).toEqual([
        ["CHG-72H", far, cur],
        ["CHG-24H", mid, cur],
        ["CHG-0H", near, cur],
      ]);
      expect(current(await at(hoursBefore(dep, 100)))?.id).toBe("CHG-72H");
      expect(current(await at(hoursBefore(dep, 72)))?.id).toBe("CHG-72H");
      expect(current(await at(hoursBefore(dep, 72) + 1))?.id).toBe("CHG-24H");
      expect(current(await at(hoursBefore(dep, 24)))?.id).toBe("CHG-24H");
      const under = await at(hoursBefore(dep, 24) + 1);
      expect(current(under)?.id).toBe("CHG-0H");
      expect(under).toContain("Change eligible now: yes, change fee band CHG-0H.");
      const departed = await at(hoursBefore(dep, 0));
      expect(current(departed)).toBeUndefined();
      expect(departed).toContain("Change eligible now: no, its first flight has departed");
      clock.set(T0);
    }, BOOKING_TEST_MS);
  }

  test("the cutoff is the departure's local time read as UTC, stated with its up-to-13-hour consequence", async () => {
    const b = await bookBrand(t, "FLEX");
    const r = await t.ndc("OrderRulesRQ", orderRulesByOrder(b.orderId));
    const dep = blocks(r.body, "Dep")[0]!;
    expect(all(dep, "AircraftScheduledDateTime")[0]).toBe(b.outboundDepartureLocal);
    expect(r.body).toContain(`Changes close at departure: ${b.outboundDepartureLocal.slice(0, 16)} local time at LHR, read as UTC, so the cutoff and the fee band edges can be off by up to 13 hours.`);
  });

  test("a non-changeable fare (SAVER) states no fee and is not eligible; cancellation from the outbound", async () => {
    const b = await bookBrand(t, "SAVER", { back: true });
    const r = await t.ndc("OrderRulesRQ", orderRulesByOrder(b.orderId));
    expect(r.status).toBe(200);
    const p = penalties(r.body);
    expect(p.filter((x) => x.type === "Change").map((x) => [x.id, x.amount])).toEqual([["CHG-NONE", undefined]]);
    expect(p.find((x) => x.type === "Cancellation")).toBeDefined();
    expect(r.body).toContain("Change eligible now: no, the SAVER fare does not allow changes.");
    // Both directions are SAVER: one Rules states the whole order.
    expect(blocks(r.body, "Rules")).toHaveLength(1);
    expect(r.body).toContain("These terms apply to every direction of the order.");
    // The inbound is judged on its own: its cutoff and eligibility are stated in the same Rules.
    expect(r.body).toMatch(/CDG-LHR: changes close at departure, 2027-01-15T\d\d:\d\d local time at CDG, read as UTC\. Change eligible now: no, the SAVER fare does not allow changes\./);
    expect(r.body).toContain("The fare states no baggage allowance.");
    expect(r.body).toContain("Conditions frozen onto the order at booking.");
    expect(r.body).not.toContain("<cns:Warning>");
  });

  test("a held order is not eligible for a change; its fare terms are still stated", async () => {
    const b = await bookBrand(t, "CLASSIC", { held: true });
    const r = await t.ndc("OrderRulesRQ", orderRulesByOrder(b.orderId));
    expect(r.body).toContain("Change eligible now: no, the order is not booked (held unpaid).");
    expect(r.body).toContain("Baggage: 1 carry-on piece of 8 kg (ADT, CHD); 1 checked piece of 23 kg (ADT, CHD); 1 checked piece of 10 kg (INF).");
  });

  test("another seller's order, another airline's, and a missing one are all order_not_found", async () => {
    const b = await bookBrand(t, "CLASSIC");
    const theirs = await ndcAs(t, await other(), "OrderRulesRQ", orderRulesByOrder(b.orderId));
    const missing = await t.ndc("OrderRulesRQ", orderRulesByOrder("ORD-NOSUCHORDER"));
    const airline = await t.ndc("OrderRulesRQ", orderRulesByOrder(b.orderId, "ZZ"));
    for (const r of [theirs, missing, airline]) {
      expect(r.status).toBe(404);
      expect(errorCode(r.body)).toBe("order_not_found");
    }
    expect(theirs.body.replace(/<cns:CorrelationID>[^<]*/, "")).toBe(missing.body.replace(/<cns:CorrelationID>[^<]*/, ""));
  });
});

describe("an offer (FareRef with the OfferID as FareRefText)", () => {
  test("the offer's conditions and all three bands in its currency (JPY: bare integers)", async () => {
    clock.set(T0);
    const s = await shopBrand(t, "FLEX", { currency: "JPY" });
    const r = await t.ndc("OrderRulesRQ", orderRulesByFare(s.offerId));
    expect(r.status).toBe(200);
    assertSchemaValid(r.body, "IATA_OrderRulesRS.xsd");
    expect(penalties(r.body).filter((p) => p.type === "Change").map((p) => [p.id, p.amount, p.cur, p.app])).toEqual([
      ["CHG-72H", "25", "JPY", undefined],
      ["CHG-24H", "50", "JPY", undefined],
      ["CHG-0H", "75", "JPY", undefined],
    ]);
    expect(all(r.body, "RuleCode")).toEqual(["FLEX"]);
    expect(r.body).toContain("Conditions of the offer under the brand policy now");
    expect(r.body).not.toContain("Change eligible now");
  });

  test("a brand whose policy cannot be read (COMFORT) answers the supplier's conditions with fare_conditions_supplier", async () => {
    const s = await shopBrand(t, "COMFORT");
    const r = await t.ndc("OrderRulesRQ", orderRulesByFare(s.offerId));
    expect(r.status).toBe(200);
    expect(all(blocks(r.body, "Warning")[0] ?? "", "Code")).toEqual(["fare_conditions_supplier"]);
  });

  test("a fare basis alone is refused with missing_offer_id", async () => {
    const r = await t.ndc("OrderRulesRQ", orderRulesByFare(undefined));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("missing_offer_id");
    expect(r.body).toContain("<cns:TagText>Request/RulesCoreRequest/FareRef/FareRefText</cns:TagText>");
  });

  test("an offer not issued to this seller is offer_not_found", async () => {
    const s = await shopBrand(t, "FLEX");
    const r = await ndcAs(t, await other(), "OrderRulesRQ", orderRulesByFare(s.offerId));
    expect(r.status).toBe(404);
    expect(errorCode(r.body)).toBe("offer_not_found");
  });
});
