import { c, cOpt, el, type XNode } from "@ndc/xml";
import { amount } from "../../../shopping/shared/encode/price";
import { formatMoney } from "../../../shopping/shared/view/money";
import type { PaymentEntryView } from "../view/payment";

const BRAND = /^[0-9a-zA-Z]{1,2}$/;
const LAST_FOUR = /^[0-9]{4}$/;

/** PaymentProcessingSummaryPaymentMethod: the masked form of each kind of leg (spec 2.5). */
function method(m: PaymentEntryView["method"]): XNode {
  switch (m.kind) {
    case "card":
      if (!BRAND.test(m.brand) || !LAST_FOUR.test(m.lastFour)) throw new Error("A card entry needs a 2-character brand and 4 digits.");
      // MaskedCardID allows letters and digits only, so the hidden digits are X.
      return c("PaymentCard", c("CardBrandCode", m.brand), c("MaskedCardID", `XXXXXXXXXXXX${m.lastFour}`));
    case "voucher":
      return c("Voucher", c("VoucherID", m.maskedVoucher));
    case "settlement":
      return c("SettlementPlan", c("PaymentTypeCode", m.method));
    case "loyalty":
      return c(
        "LoyaltyRedemption",
        c("LoyaltyCurAmount", m.points),
        c("LoyaltyProgramAccount", c("AccountNumber", m.maskedMemberAccount), c("LoyaltyProgram", c("Carrier", c("AirlineDesigCode", m.programme)))),
      );
    case "intended":
      // A card named by brand only (no card yet), or the settlement plan by its code.
      return m.typeCode === "CC" ? c("PaymentCard", cOpt("CardBrandCode", m.brand)) : c("SettlementPlan", c("PaymentTypeCode", m.typeCode));
  }
}

/** English text a reader can take in at a glance (gateway-composed, so English). */
function description(e: PaymentEntryView): string {
  const m = e.method;
  const what =
    m.kind === "card"
      ? `Card ${m.brand} ending ${m.lastFour}`
      : m.kind === "voucher"
        ? `Voucher ${m.maskedVoucher}`
        : m.kind === "settlement"
          ? `Settlement plan ${m.methodName} (${m.method})`
          : m.kind === "loyalty"
            ? `${m.points} loyalty points from account ${m.maskedMemberAccount}`
            : `${m.name}${m.brand ? ` ${m.brand}` : ""} (${m.typeCode})`;
  if (e.direction === "retained") {
    return `Retained for a following change (RespendInd): ${formatMoney(e.amount)} ${e.amount.currency}, taken off what an addition or a flight change costs, until ${e.until}; then refunded, to ${what} first.`;
  }
  return `${verb(e)} ${what}: ${formatMoney(e.amount)} ${e.amount.currency}.`;
}

/** Says what happened to the money: a declined or voided leg paid nothing, whatever its amount. */
function verb(e: PaymentEntryView): string {
  if (e.direction === "refund") return "Refund to";
  switch (e.status) {
    case "CAPTURED":
    case "REFUNDED":
      return "Paid by";
    case "AUTHORISED":
    case "AUTHORISING":
      return "Authorised, not yet taken, on";
    case "DECLINED":
      return "Declined, nothing taken:";
    case "VOIDED":
      return "Authorisation released, nothing taken:";
    case "PENDING":
      return "Not yet paid, to be paid by";
    default:
      return "Payment by";
  }
}

const TRX_TYPE: Readonly<Record<PaymentEntryView["direction"], string>> = { payment: "Payment", refund: "Refund", retained: "Retained" };

/**
 * One root-level PaymentFunctions (PaymentFunctionsOrderType) per entry: the element itself is
 * in the message namespace (it is declared in IATA_OrderViewRS.xsd), its content in cns.
 */
export function paymentFunctions(orderId: string, e: PaymentEntryView): XNode {
  return el("PaymentFunctions", null, ...paymentFunctionsContent(orderId, e));
}

/** OrderAssociation and PaymentProcessingSummary: the content PaymentFunctionsOrderType and AccountedPaymentFunctionsOrderType share. */
export function paymentFunctionsContent(orderId: string, e: PaymentEntryView): XNode[] {
  const psp = e.method.kind === "card" ? e.method.pspReference : undefined;
  return [
    c("OrderAssociation", (e.orderItemIds ?? []).map((id) => c("OrderItemRefID", id)), c("OrderRefID", orderId)),
    c(
      "PaymentProcessingSummary",
      amount("Amount", e.amount),
      c("Desc", c("DescText", description(e))),
      cOpt("PaymentCommitmentDateTime", e.at),
      c("PaymentID", e.paymentId),
      c("PaymentProcessingSummaryPaymentMethod", method(e.method)),
      c("PaymentStatusCode", e.status),
      psp || e.direction !== "payment" ? c("PaymentTrx", cOpt("TrxID", psp), c("TrxTypeText", TRX_TYPE[e.direction])) : null,
    ),
  ];
}
