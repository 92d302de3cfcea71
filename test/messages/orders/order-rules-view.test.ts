import { expect, test } from "bun:test";
import { encodeOrderRulesRS, orderRulesViewOf } from "@ndc/messages";
import { CHANGE_FEE_BANDS, directionConditions, type DirectionTerms, type OrderRules } from "@ndc/orders";
import { responseDocument } from "@ndc/xml";
import { assertSchemaValid } from "../../support/xsd";

/**
 * OrderRulesRS per direction (SHPOR1 rule 2): the outbound carries the whole-order terms; a later
 * direction gets its own Rules only when its fare conditions differ. Shopping never mixes brands
 * in one offer, so mixed directions are built here from the domain's own types.
 */
function rules(brands: string[]): OrderRules {
  const conditions = directionConditions(brands.map((b, i) => ({ paxJourneyId: `JRN-${i + 1}`, brandCode: b })));
  const directions: DirectionTerms[] = conditions.map((c, i) => ({
    conditions: c,
    origin: i === 0 ? "LHR" : "CDG",
    destination: i === 0 ? "CDG" : "LHR",
    departureLocal: i === 0 ? "2027-01-12T07:10" : "2027-01-15T18:00",
    departureAsUtcMs: Date.parse(i === 0 ? "2027-01-12T07:10:00Z" : "2027-01-15T18:00:00Z"),
    now: { departed: false, band: CHANGE_FEE_BANDS[0]!, hoursToDeparture: 100 },
    eligibility: c.changeable ? { changeAllowedNow: true, reason: "change fee band CHG-72H" } : { changeAllowedNow: false, reason: `the ${c.brandCode} fare does not allow changes` },
  }));
  return { form: "order", currency: "GBP", basis: "frozen", frozenBy: "booking", changeFeeBands: [...CHANGE_FEE_BANDS], directions, at: 0 };
}

const xml = (r: OrderRules) => responseDocument({ root: "IATA_OrderRulesRS", family: "ndc" }, encodeOrderRulesRS(orderRulesViewOf(r, "XB")), { carrier: "XB", simulated: true });
const count = (doc: string, name: string) => (doc.match(new RegExp(`<cns:${name}>`, "g")) ?? []).length;

test("the same brand both ways: one Rules for the whole order", () => {
  const doc = xml(rules(["CLASSIC", "CLASSIC"]));
  assertSchemaValid(doc, "IATA_OrderRulesRS.xsd");
  expect(count(doc, "Rules")).toBe(1);
  expect(doc).toContain("These terms apply to every direction of the order.");
  // The inbound's own cutoff and eligibility are still stated.
  expect(doc).toContain("CDG-LHR: changes close at departure, 2027-01-15T18:00 local time at CDG, read as UTC. Change eligible now: yes, change fee band CHG-72H.");
});

test("FLEX out, SAVER back: the inbound's own Rules, without cancellation; whole-order terms from the outbound", () => {
  const doc = xml(rules(["FLEX", "SAVER"]));
  assertSchemaValid(doc, "IATA_OrderRulesRS.xsd");
  expect(count(doc, "Rules")).toBe(2);
  const [out, back] = doc.split("<cns:Rules>").slice(1);
  expect(out).toContain("<cns:RuleCode>FLEX</cns:RuleCode>");
  expect(out).toContain("<cns:PenaltyID>CXL</cns:PenaltyID>");
  expect(out).toContain("Cancellable with a full refund.");
  expect(back).toContain("<cns:RuleCode>SAVER</cns:RuleCode>");
  expect(back).toContain("<cns:PenaltyID>CHG-NONE</cns:PenaltyID>");
  expect(back).not.toContain("<cns:PenaltyID>CXL</cns:PenaltyID>");
  expect(back).toContain("This direction's fare conditions differ from the outbound's.");
  expect(back).toContain("Change eligible now: no, the SAVER fare does not allow changes.");
});
