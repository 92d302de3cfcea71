import type { WarningView } from "../../shopping/shared/view/common";
import type { Money } from "../../shopping/shared/view/money";

/** IATA_OrderRulesRS's Response: one Rules per direction whose terms are stated, outbound first. */
export interface OrderRulesView {
  rules: RulesView[];
  /** 24.4 allows one Warning in OrderRulesRS. */
  warning?: WarningView;
}

export interface RulesView {
  carrier: string;
  origin: string;
  destination: string;
  /** Local wall-clock departure at the origin, no offset (xs:dateTime). */
  departureLocal: string;
  /** FareRuleText: the brand code as RuleCode, composed English remarks. */
  ruleCode: string;
  remarks: string[];
  penalties: PenaltyView[];
}

/** RulesPenaltyType: TypeCode Change, Cancellation or Other (name changes). */
export interface PenaltyView {
  penaltyId: string;
  typeCode: "Change" | "Cancellation" | "Other";
  appCode?: string;
  cancelFeeInd?: boolean;
  changeFeeInd?: boolean;
  descriptions: string[];
  price?: Money;
}
