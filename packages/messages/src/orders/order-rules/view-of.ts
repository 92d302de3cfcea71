import { minorUnits } from "@ndc/money";
import type { DirectionConditions, DirectionTerms, FeeBand, FrozenAllowance, OrderRules } from "@ndc/orders";
import type { WarningView } from "../../shopping/shared/view/common";
import type { OrderRulesView, PenaltyView, RulesView } from "./view";

/**
 * The domain's OrderRules -> the IATA_OrderRulesRS view. Text here is composed by the gateway,
 * so English (spec 4.8 rule 2). Per SHPOR1 rule 2 the first Rules is the outbound direction and
 * carries the whole-order terms (cancellation, live eligibility); a later direction gets its own
 * Rules only when its fare conditions differ from the outbound's (docs/servicing.md).
 */
export function orderRulesViewOf(r: OrderRules, carrier: string): OrderRulesView {
  const [outbound, ...others] = r.directions;
  const rules: RulesView[] = [];
  if (outbound) {
    const differing = others.filter((d) => !sameConditions(d.conditions, outbound.conditions));
    // Directions stated by the outbound's Rules still have their own cutoff and live eligibility.
    const alike = others.filter((d) => !differing.includes(d));
    rules.push(direction(r, outbound, carrier, true, differing.length === 0 && others.length > 0, alike));
    for (const d of differing) rules.push(direction(r, d, carrier, false, false, []));
  }
  return { rules, ...warningOf(r) };
}

function warningOf(r: OrderRules): { warning?: WarningView } {
  if (r.basis === "current_policy") return { warning: { code: "fare_conditions_current_policy" } };
  const supplier = r.directions.filter((d) => d.conditions.source === "supplier").map((d) => d.conditions.brandCode);
  if (supplier.length) return { warning: { code: "fare_conditions_supplier", detail: `Brand ${[...new Set(supplier)].join(", ")}.` } };
  return {};
}

function sameConditions(a: DirectionConditions, b: DirectionConditions): boolean {
  const { paxJourneyId: _a, ...x } = a;
  const { paxJourneyId: _b, ...y } = b;
  return JSON.stringify(x) === JSON.stringify(y);
}

const yesNo = (v: boolean, yes: string, no: string) => (v ? yes : no);

function direction(r: OrderRules, d: DirectionTerms, carrier: string, outbound: boolean, wholeOrder: boolean, alike: readonly DirectionTerms[]): RulesView {
  const k = d.conditions;
  const fee = (band: FeeBand) => ({ minor: band.fee * 10 ** minorUnits(r.currency as never), currency: r.currency, decimals: minorUnits(r.currency as never) });
  const remarks = [
    `Brand ${k.brandCode}: ${yesNo(k.changeable, "changeable", "not changeable")}, ${k.cancellable ? yesNo(k.refundable, "cancellable with full refund", "cancellable without refund") : "not cancellable"}, ${yesNo(k.renameable, "renameable", "not renameable")}.`,
    basisText(r),
    outbound ? (wholeOrder ? "These terms apply to every direction of the order." : "Outbound direction: its terms are the whole order's (cancellation, refund).") : "This direction's fare conditions differ from the outbound's.",
    baggageText(k.allowances),
    `Changes close at departure: ${d.departureLocal} local time at ${d.origin}, read as UTC, so the cutoff and the fee band edges can be off by up to 13 hours.`,
  ];
  if (d.eligibility) remarks.push(`Change eligible now: ${d.eligibility.changeAllowedNow ? "yes" : "no"}, ${d.eligibility.reason}.`);
  for (const o of alike) {
    const live = o.eligibility ? ` Change eligible now: ${o.eligibility.changeAllowedNow ? "yes" : "no"}, ${o.eligibility.reason}.` : "";
    remarks.push(`${o.origin}-${o.destination}: changes close at departure, ${o.departureLocal} local time at ${o.origin}, read as UTC.${live}`);
  }

  const penalties: PenaltyView[] = [];
  if (k.changeable) {
    const current = d.now.departed ? undefined : d.now.band.id;
    for (const [i, band] of r.changeFeeBands.entries()) {
      const upper = i === 0 ? undefined : r.changeFeeBands[i - 1]!.fromHours;
      const span = upper === undefined ? `${band.fromHours} h or more before departure` : band.fromHours === 0 ? `less than ${upper} h before departure` : `${band.fromHours} h to less than ${upper} h before departure`;
      penalties.push({
        penaltyId: band.id,
        typeCode: "Change",
        // A booked order's live band is marked: the fee a change made now would cost.
        ...(r.form === "order" && band.id === current ? { appCode: "APPLIES_NOW" } : {}),
        changeFeeInd: true,
        descriptions: [`Change fee ${band.fee} ${r.currency} per passenger, ${span}. The fee is the same number in every currency and does not depend on the brand.`],
        price: fee(band),
      });
    }
  } else {
    penalties.push({ penaltyId: "CHG-NONE", typeCode: "Change", changeFeeInd: false, descriptions: [`Flight changes are not allowed by the ${k.brandCode} fare.`] });
  }
  if (outbound) {
    penalties.push({
      penaltyId: "CXL",
      typeCode: "Cancellation",
      cancelFeeInd: false,
      descriptions: [k.cancellable ? yesNo(k.refundable, "Cancellable with a full refund.", "Cancellable without refund.") : "Not cancellable."],
    });
  }
  penalties.push({ penaltyId: "NAME", typeCode: "Other", descriptions: [yesNo(k.renameable, "Name changes allowed.", "Name changes not allowed.")] });
  return { carrier, origin: d.origin, destination: d.destination, departureLocal: d.departureLocal, ruleCode: k.brandCode, remarks, penalties };
}

function basisText(r: OrderRules): string {
  switch (r.basis) {
    case "frozen":
      return r.frozenBy === "migration" ? "Conditions frozen onto the order from its booked brand (migration 0016)." : "Conditions frozen onto the order at booking.";
    case "current_policy":
      return "The order was booked before conditions were frozen: the brand's current policy applies.";
    case "offer":
      return "Conditions of the offer under the brand policy now; they are frozen onto the order when it is booked.";
  }
}

function baggageText(allowances: readonly FrozenAllowance[] | undefined): string {
  if (!allowances) return "The fare states no baggage allowance.";
  const one = (a: FrozenAllowance) =>
    a.pieces === 0 ? `no ${a.kind === "Checked" ? "checked" : "carry-on"} bag (${a.paxTypes.join(", ")})` : `${a.pieces} ${a.kind === "Checked" ? "checked" : "carry-on"} piece${a.pieces > 1 ? "s" : ""} of ${a.kgPerPiece} kg (${a.paxTypes.join(", ")})`;
  return `Baggage: ${allowances.map(one).join("; ")}.`;
}
