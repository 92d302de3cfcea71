import { toDecimalString, type CurrencyCode } from "@ndc/money";
import type { Clearance, ClearanceCarrier } from "@ndc/payments";
import { c, el, NS, serialize, type XNode } from "@ndc/xml";

/**
 * The 2022.1 clearance content (spec 2.6), one encoder for the pushed IATA_PaymentClearanceNotif
 * (ClearanceNotifType) and the answer IATA_PaymentClearanceRS (ClearanceType): the two sequences
 * agree on every element written here. Codes are documented in docs/payments.md "Clearance".
 */

/** PaymentBrandCode (ATS codeset PAYB): IB, the settlement plan. */
export const SETTLEMENT_PLAN_BRAND = "IB";
/** ProcessRuleCode (CPRC): IATAC00, IATA's clearance rules and schedule. */
export const PROCESS_RULE = "IATAC00";
/** StatusCode (CSTC) by clearance status: accepted for processing, fully settled, cancelled. */
export const CLEARANCE_STATUS_CODES = { requested: "ACCPT", cleared: "FLSTL", cancelled: "CNCLD" } as const;

const carrierNode = (carrier: ClearanceCarrier): XNode => c("Carrier", c("AirlineAccountingCode", carrier.accountingCode), c("AirlineDesigCode", carrier.designator));

/** The payer's IATA number goes in ClearancePayerReconciliationID (AirlineRefID_Type: 1-15 letters or digits) when it fits. */
const payerRef = (iataNumber: string | undefined) => (iataNumber && /^[A-Za-z0-9]{1,15}$/.test(iataNumber) ? c("ClearancePayerReconciliationID", iataNumber) : null);

/**
 * The clearance's children in their schema order. Spec 2.6 names a Carrier for payee and payer:
 * the payee is this airline; a settlement-plan payment is collected through the airline's own
 * settlement plan, so the payer Carrier is the airline's plan as well, and the agency that pays
 * is named by its IATA number in ClearancePayerReconciliationID.
 */
export function clearanceChildren(cl: Clearance, carrier: ClearanceCarrier, payerIataNumber?: string): (XNode | null)[] {
  // A refund clearance (issue 19 item 13) is the same parties' clearance in the other direction:
  // NetClearanceAmount is what the payer must pay the payee "taking into consideration any funds
  // due to the Clearance Payer by the Clearance Payee" (2022.1), so money going back is negative.
  // It names the order (AgreementID) and the payment (CommitmentID, its PAYSUM PaymentID) it gives
  // back, so a settlement can match it to the sale it reverses.
  const refund = cl.direction === "refund";
  const amount = toDecimalString({ amount: refund ? -cl.amount : cl.amount, currency: cl.currency as CurrencyCode });
  return [
    refund ? c("AgreementID", cl.orderId) : null,
    c("ClearanceID", cl.clearanceId),
    c("ClearancePayeeData", c("ClearancePayee", carrierNode(carrier))),
    c("ClearancePayerData", c("ClearancePayer", carrierNode(carrier)), payerRef(payerIataNumber)),
    refund ? c("CommitmentID", cl.legId) : null,
    el("cns:NetClearanceAmount", { CurCode: cl.currency }, amount),
    c("PaymentBrandCode", SETTLEMENT_PLAN_BRAND),
    c("PaymentCommitmentDateTime", new Date(cl.committedAt).toISOString()),
    c("ProcessRuleCode", PROCESS_RULE),
    c("RemittanceDate", cl.remittanceDate),
    c("SettlementDate", cl.settlementDate),
    c("StatusCode", CLEARANCE_STATUS_CODES[cl.status]),
  ];
}

/**
 * IATA_PaymentClearanceNotif (spec 2.6, 4.9): one Clearance and its count, flagged as simulated
 * like every clearance-family document (PayloadStandardAttributes/EchoTokenText, docs/simulated-supply.md).
 */
export function paymentClearanceNotif(cl: Clearance, carrier: ClearanceCarrier, payerIataNumber?: string): string {
  return serialize(
    el(
      "IATA_PaymentClearanceNotif",
      { xmlns: NS.clearanceNotif, "xmlns:cns": NS.clearanceCommon },
      el("Clearance", null, ...clearanceChildren(cl, carrier, payerIataNumber)),
      el("ClearanceCount", null, 1),
      el("PayloadStandardAttributes", null, c("EchoTokenText", "simulated-supply")),
    ),
  );
}

/** IATA_PaymentClearanceRS's Response: the clearance as it now stands (the pipeline writes the root). */
export function encodePaymentClearanceRS(cl: Clearance, carrier: ClearanceCarrier, payerIataNumber?: string): XNode {
  return el("Response", null, c("Clearance", ...clearanceChildren(cl, carrier, payerIataNumber)), c("ClearanceCount", 1));
}
