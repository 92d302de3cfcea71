import { c, cOpt, el, type XNode } from "@ndc/xml";
import { warning } from "../../shopping/shared/encode/common";
import { amount } from "../../shopping/shared/encode/price";
import type { OrderRulesView, PenaltyView, RulesView } from "./view";

function penalty(p: PenaltyView): XNode {
  return c(
    "Penalty",
    cOpt("AppCode", p.appCode),
    p.cancelFeeInd === undefined ? null : c("CancelFeeInd", String(p.cancelFeeInd)),
    p.changeFeeInd === undefined ? null : c("ChangeFeeInd", String(p.changeFeeInd)),
    p.descriptions.map((d) => c("DescText", d)),
    c("PenaltyID", p.penaltyId),
    p.price ? c("Price", amount("TotalAmount", p.price)) : null,
    c("TypeCode", p.typeCode),
  );
}

function rules(r: RulesView): XNode {
  return c(
    "Rules",
    c("AirlineDesigCode", r.carrier),
    c("Arrival", c("IATA_LocationCode", r.destination)),
    c("Dep", c("AircraftScheduledDateTime", `${r.departureLocal}:00`), c("IATA_LocationCode", r.origin)),
    c("FareRuleText", r.remarks.map((t) => c("Remark", c("RemarkText", t))), c("RuleCode", r.ruleCode)),
    r.penalties.map(penalty),
  );
}

/** The Response element of IATA_OrderRulesRS (OrderRulesResponseType), children in schema order. */
export function encodeOrderRulesRS(v: OrderRulesView): XNode {
  return el("Response", null, v.rules.map(rules), v.warning ? warning(v.warning) : null);
}
