import type { Money } from "@ndc/money";
import type { PayerAuthentication } from "./payer-authentication";

export type LegKind = "card" | "voucher" | "settlement" | "loyalty";

/** Settlement methods of a SettlementPlan: CA BSP cash, DP ARC, MS direct bill. */
export type SettlementMethod = "CA" | "DP" | "MS";
export const SETTLEMENT_METHODS: readonly SettlementMethod[] = ["CA", "DP", "MS"];

/** What a seller asks one payment leg to pay (PaymentFunctions). Never card data: a PSP token. */
export type LegRequest =
  /** `authentication`: the 3-D Secure results the seller obtained (PAY3D2), passed to the PSP with the token. */
  | { kind: "card"; token: string; amount: Money; authentication?: PayerAuthentication }
  | { kind: "voucher"; code: string; amount: Money }
  | { kind: "settlement"; agencyId: string; method?: SettlementMethod; amount: Money }
  | { kind: "loyalty"; programme: string; memberAccount: string; certificateId: string; amount: Money };

/**
 * authorising: sent to the PSP, outcome unknown (the reconciler asks the PSP by key).
 * declined: never authorised, nothing to release. authorised -> captured | voided (the leg ends
 * once); captured -> refunded when refunds reach the captured amount.
 */
export type LegState = "authorising" | "declined" | "authorised" | "captured" | "voided" | "refunded";

/** One leg as the ledger holds it. Amounts are minor units of `currency`. */
export interface PaymentLeg {
  legId: string;
  orderId: string;
  changeRef: string;
  seq: number;
  kind: LegKind;
  state: LegState;
  currency: string;
  requested: number;
  authorised: number;
  captured: number;
  refunded: number;
  /** The idempotency key it was authorised under: the reconciler asks the PSP by it. */
  authoriseKey: string;
  cardBrand?: string;
  cardLast4?: string;
  pspReference?: string;
  voucherCode?: string;
  settlementAccountId?: string;
  settlementMethod?: SettlementMethod;
  memberAccount?: string;
  certificateId?: string;
  points?: number;
  pointsCaptured: number;
  pointsRefunded: number;
  declineCode?: string;
  /** A card the PSP declined: its reason (do_not_honour, insufficient_funds...), for the seller. */
  declineReason?: string;
  createdAt: number;
  endedAt?: number;
}
