import type { PaymentLeg, SettlementMethod } from "./legs/types";
import { money, type CurrencyCode, type Money } from "@ndc/money";

/** Keeps the last `visible` characters; the rest become "*" (ASCII, safe in any XML). */
export function maskTail(value: string, visible = 4): string {
  if (value.length <= visible) return "*".repeat(value.length);
  return "*".repeat(value.length - visible) + value.slice(-visible);
}

export const SETTLEMENT_METHOD_NAMES: Readonly<Record<SettlementMethod, string>> = {
  CA: "BSP cash",
  DP: "ARC",
  MS: "Direct bill",
};

/** What a PAYSUM entry may show of a leg (spec 2.5): never a full voucher code or member account. */
export type PaymentSummary = {
  legId: string;
  state: PaymentLeg["state"];
  authorised: Money;
  captured: Money;
  refunded: Money;
} & (
  | { kind: "card"; brand: string; lastFour: string; pspReference: string }
  | { kind: "voucher"; maskedVoucher: string }
  | { kind: "settlement"; method: SettlementMethod; methodName: string }
  | { kind: "loyalty"; points: number; maskedMemberAccount: string }
);

export function paymentSummary(leg: PaymentLeg): PaymentSummary {
  const c = leg.currency as CurrencyCode;
  const base = { legId: leg.legId, state: leg.state, authorised: money(leg.authorised, c), captured: money(leg.captured, c), refunded: money(leg.refunded, c) };
  switch (leg.kind) {
    case "card":
      return { ...base, kind: "card", brand: leg.cardBrand ?? "", lastFour: leg.cardLast4 ?? "", pspReference: leg.pspReference ?? "" };
    case "voucher":
      return { ...base, kind: "voucher", maskedVoucher: maskTail(leg.voucherCode ?? "") };
    case "settlement":
      return { ...base, kind: "settlement", method: leg.settlementMethod!, methodName: SETTLEMENT_METHOD_NAMES[leg.settlementMethod!] };
    case "loyalty":
      return { ...base, kind: "loyalty", points: leg.points ?? 0, maskedMemberAccount: maskTail(leg.memberAccount ?? "") };
  }
}
