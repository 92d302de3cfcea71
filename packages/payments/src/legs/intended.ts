import type { LegKind, SettlementMethod } from "./types";

/**
 * The method a passenger will pay a held order by, named at OrderCreateRQ without paying
 * (PaymentFunctions/PaymentMethodCriteria, no PaymentProcessingDetails). Nothing is authorised:
 * the order is held (ORDWPM) and the intent is recorded on it and shown in PAYSUM until it is
 * paid. It binds nobody: the order may be paid later by this method or another (docs/payments.md
 * "Paying later by a named method").
 */
export interface IntendedPayment {
  /** PaymentMethodCriteria/PaymentTypeCode, one of INTENDED_METHODS. */
  typeCode: IntendedTypeCode;
  /** PaymentMethodCriteria/PaymentBrandCode (a card's brand, e.g. VI), when named. */
  brand?: string;
  /** OfferAssociation/OfferRefID: the offers the method was named for. */
  offerIds: string[];
}

/**
 * PaymentTypeCodes the airline takes a later payment by, and the leg kind each becomes: CC a
 * payment card; CA, DP and MS the settlement plans (the codes SettlementPlan/PaymentTypeCode
 * takes here). Voucher and points have no PaymentTypeCode of their own in the schema's examples:
 * a seller names none and pays by them when it pays.
 */
export const INTENDED_METHODS = {
  CC: { kind: "card", name: "Payment card" },
  CA: { kind: "settlement", name: "BSP cash", method: "CA" },
  DP: { kind: "settlement", name: "ARC", method: "DP" },
  MS: { kind: "settlement", name: "Direct bill", method: "MS" },
} as const satisfies Record<string, { kind: LegKind; name: string; method?: SettlementMethod }>;

export type IntendedTypeCode = keyof typeof INTENDED_METHODS;

export function isIntendedTypeCode(code: string): code is IntendedTypeCode {
  return Object.hasOwn(INTENDED_METHODS, code);
}
