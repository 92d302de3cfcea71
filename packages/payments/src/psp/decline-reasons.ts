import type { ErrorCode } from "@ndc/errors";

/**
 * Why a PSP declined a card, as a stable code the seller can act on (docs/payments.md). Each is
 * a warning of the error catalogue, so its English text (what it means, what to do) lives in one
 * place; the order's Warning carries it as its Code when a card leg is declined.
 */
export const DECLINE_REASONS = [
  "do_not_honour",
  "insufficient_funds",
  "expired_card",
  "lost_or_stolen_card",
  "card_not_supported",
  "processing_error",
  "unknown_token",
  // 3-D Secure (PAY3D2, psp/authentication.ts): the card needs the payer authenticated, or the authentication failed.
  "authentication_required",
  "authentication_failed",
] as const satisfies readonly ErrorCode[];

export type DeclineReason = (typeof DECLINE_REASONS)[number];

const KNOWN: ReadonlySet<string> = new Set(DECLINE_REASONS);

export function isDeclineReason(code: string | undefined): code is DeclineReason {
  return code !== undefined && KNOWN.has(code);
}
