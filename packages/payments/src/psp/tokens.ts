import type { DeclineReason } from "./decline-reasons";

/**
 * The simulated PSP's documented test tokens (docs/payments.md). A token stands for a card the
 * PSP holds; the gateway only ever sees the token, the brand and the last four digits. Each
 * decline reason has a token, so a seller can try every answer it must handle.
 */
export type TokenBehaviour = "approve" | "decline" | "timeout_after_success";

export interface TestToken {
  behaviour: TokenBehaviour;
  brand: string;
  lastFour: string;
  /** The PSP's reason on a decline. */
  reason?: DeclineReason;
  /** "required": the issuer takes the card only with the payer authenticated by 3-D Secure (psp/authentication.ts). */
  authentication?: "required";
}

export const TEST_TOKENS: Readonly<Record<string, TestToken>> = {
  tok_approve_visa: { behaviour: "approve", brand: "VI", lastFour: "4242" },
  tok_approve_mastercard: { behaviour: "approve", brand: "CA", lastFour: "4444" },
  tok_approve_amex: { behaviour: "approve", brand: "AX", lastFour: "0005" },
  tok_decline: { behaviour: "decline", brand: "VI", lastFour: "0002", reason: "do_not_honour" },
  tok_decline_insufficient_funds: { behaviour: "decline", brand: "VI", lastFour: "9995", reason: "insufficient_funds" },
  tok_decline_expired_card: { behaviour: "decline", brand: "VI", lastFour: "0069", reason: "expired_card" },
  tok_decline_lost_or_stolen_card: { behaviour: "decline", brand: "VI", lastFour: "9979", reason: "lost_or_stolen_card" },
  tok_decline_card_not_supported: { behaviour: "decline", brand: "CA", lastFour: "0101", reason: "card_not_supported" },
  tok_decline_processing_error: { behaviour: "decline", brand: "VI", lastFour: "0119", reason: "processing_error" },
  // The PSP authorises, then the answer is lost: the caller sees a timeout. A status query by
  // the same idempotency key finds the authorisation.
  tok_timeout_after_success: { behaviour: "timeout_after_success", brand: "VI", lastFour: "1881" },
  // Cards whose issuer demands 3-D Secure (PSD2 strong customer authentication): declined
  // authentication_required without the seller's results, approved with an authenticated ECI
  // and authentication value, declined authentication_failed with a failed one.
  tok_3ds_required_visa: { behaviour: "approve", brand: "VI", lastFour: "3155", authentication: "required" },
  tok_3ds_required_mastercard: { behaviour: "approve", brand: "CA", lastFour: "3220", authentication: "required" },
};

/** An unknown token is declined like a card the PSP does not hold. */
export function lookupToken(token: string): TestToken {
  return TEST_TOKENS[token] ?? { behaviour: "decline", brand: "XX", lastFour: "0000", reason: "unknown_token" };
}
