import type { CurrencyCode } from "@ndc/money";
import { SETTLEMENT_METHODS, type LegKind } from "./legs/types";
import { OWN_PROGRAMME, REDEMPTION_RATES } from "./loyalty/programme";
import { SETTLEMENT_METHOD_NAMES } from "./masking";

/** A payment method the airline takes, as an offer states it (OfferPriceRS PaymentSupportedMethod). */
export interface AcceptedMethod {
  kind: LegKind;
  /** The IATA form-of-payment code (PAYT): CC a card; CA, DP, MS the settlement plans; MS also a voucher or points. */
  typeCode: string;
  /** How to pay by it, composed English (PaymentOtherMethodAddlInfo/Remark): what tells MS apart. */
  remark: string;
}

/**
 * The methods the airline takes for an amount in `currency` (spec 2.5: the four kinds of leg,
 * docs/payments.md), in the order a seller most often pays: a card by PSP token, each settlement
 * plan (paid through the seller's own account in that currency, if it holds one), a voucher,
 * and points of the airline's programme where it has a redemption rate for the currency. None
 * carries a surcharge: the gateway has no payment-method surcharge rule.
 */
export function acceptedMethods(currency: CurrencyCode): AcceptedMethod[] {
  return [
    { kind: "card", typeCode: "CC", remark: "Payment card by PSP token (PaymentCard/TokenizedCardID); card numbers are refused." },
    ...SETTLEMENT_METHODS.map((m): AcceptedMethod => ({
      kind: "settlement",
      typeCode: m,
      remark: `SettlementPlan ${m} (${SETTLEMENT_METHOD_NAMES[m]}) through the seller's settlement account in ${currency}.`,
    })),
    { kind: "voucher", typeCode: "MS", remark: "Voucher (Voucher/VoucherID) of the airline." },
    ...(REDEMPTION_RATES[currency]
      ? [{ kind: "loyalty" as const, typeCode: "MS", remark: `LoyaltyRedemption: points of programme ${OWN_PROGRAMME} with the member's redemption certificate.` }]
      : []),
  ];
}
