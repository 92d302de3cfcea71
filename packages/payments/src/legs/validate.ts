import { GatewayError } from "@ndc/errors";
import { isCurrencyCode } from "@ndc/money";
import { refuseCardData } from "./card-data";
import { validatePayerAuthentication } from "./payer-authentication";
import { SETTLEMENT_METHODS, type LegRequest } from "./types";

/** Spec 4.4 rule 4: a request combines up to four legs. */
export const MAX_LEGS = 4;

function invalid(detail: string): GatewayError {
  return new GatewayError("payment_legs_invalid", { detail });
}

/** Shape checks of one leg; card data is refused first so nothing of it goes further. */
export function validateLeg(leg: LegRequest): void {
  refuseCardData(leg);
  const amount = leg?.amount;
  if (!amount || !Number.isSafeInteger(amount.amount) || amount.amount <= 0) throw invalid("A leg amount must be a positive integer of minor units.");
  if (!isCurrencyCode(amount.currency)) throw invalid("A leg amount has an unsupported currency.");
  const need = (v: unknown, what: string) => {
    if (typeof v !== "string" || v.trim() === "" || v.length > 64) throw invalid(`A ${leg.kind} leg needs ${what}.`);
  };
  switch (leg.kind) {
    case "card":
      need(leg.token, "a PSP token");
      if (leg.authentication !== undefined) validatePayerAuthentication(leg.authentication);
      return;
    case "voucher":
      need(leg.code, "a voucher code");
      return;
    case "settlement":
      need(leg.agencyId, "the seller's agency id");
      if (leg.method !== undefined && !SETTLEMENT_METHODS.includes(leg.method)) throw invalid("Settlement method must be CA, DP or MS.");
      return;
    case "loyalty":
      need(leg.programme, "the programme");
      need(leg.memberAccount, "the member account");
      need(leg.certificateId, "the redemption certificate");
      return;
    default:
      throw invalid("Unknown leg kind.");
  }
}

/** Up to four legs, each valid, all in one currency (the order's). */
export function validateLegs(legs: readonly LegRequest[]): void {
  if (!Array.isArray(legs) || legs.length === 0 || legs.length > MAX_LEGS) throw invalid(`Between 1 and ${MAX_LEGS} legs.`);
  for (const leg of legs) refuseCardData(leg);
  for (const leg of legs) validateLeg(leg);
  const currencies = new Set(legs.map((l) => l.amount.currency));
  if (currencies.size > 1) throw invalid("All legs must be in the order's currency.");
}
