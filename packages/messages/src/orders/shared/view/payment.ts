import type { Money } from "../../../shopping/shared/view/money";

/**
 * One PAYSUM entry (spec 2.5): what the ledger may show of a leg. Never a card number, a
 * full voucher code or a full member account: the fields below are already masked.
 */
export interface PaymentEntryView {
  paymentId: string;
  /** The leg's state (authorised, captured, voided, refunded, declined) as PaymentStatusCode. */
  status: string;
  /** The amount this entry moved (a refund entry: the amount paid back). */
  amount: Money;
  /**
   * "payment" or "refund": a refund is its own entry so every movement is listed. "retained": the
   * value an items cancellation with RespendInd kept for a following change (PaymentStatusCode
   * RETAINED), on the leg its lapse would refund first; `until` is when it lapses.
   */
  direction: "payment" | "refund" | "retained";
  until?: string;
  /** Order items it pays for; empty = the whole order. */
  orderItemIds?: string[];
  /** ISO 8601 instant of the capture or refund. */
  at?: string;
  method:
    | { kind: "card"; brand: string; lastFour: string; pspReference: string }
    | { kind: "voucher"; maskedVoucher: string }
    | { kind: "settlement"; method: "CA" | "DP" | "MS"; methodName: string }
    | { kind: "loyalty"; programme: string; points: number; maskedMemberAccount: string }
    /** A method named for paying later (PaymentMethodCriteria): its PaymentTypeCode, name and card brand if named. */
    | { kind: "intended"; typeCode: string; name: string; brand?: string };
}
