import type { PayerAuthentication } from "../legs/payer-authentication";
import type { DeclineReason } from "./decline-reasons";
import type { TestToken } from "./tokens";

/**
 * ECIs by card scheme (docs/payments.md "3-D Secure"): the ones that say the payer was
 * authenticated (or the issuer took part in an attempt), and everything else. Visa and American
 * Express: 05 authenticated, 06 attempted, 07 not authenticated; Mastercard: 02, 01 and 00.
 */
const AUTHENTICATED_ECI: Readonly<Record<string, readonly string[]>> = {
  VI: ["05", "06"],
  AX: ["05", "06"],
  CA: ["02", "01"],
};

/** EMVCo transaction statuses that let an authorisation go ahead: Y authenticated, A attempted. */
const PROCEEDING_STATUS = ["Y", "A"];

/**
 * How the simulated PSP judges the 3-D Secure results a seller sends with a card (PAY3D2): none,
 * on a card whose issuer requires them, is authentication_required (the seller runs the challenge
 * and sends the results); results that show no authentication (a frictionless failure, ECI 07 or
 * 00, a status N or R, or no authentication value) are authentication_failed on any card. Undefined:
 * the authorisation goes ahead.
 */
export function authenticationDecline(token: TestToken, auth: PayerAuthentication | undefined): DeclineReason | undefined {
  if (!auth) return token.authentication === "required" ? "authentication_required" : undefined;
  if (auth.trxStatus !== undefined && !PROCEEDING_STATUS.includes(auth.trxStatus)) return "authentication_failed";
  const authenticated = (AUTHENTICATED_ECI[token.brand] ?? []).includes(auth.eci) && !!auth.authenticationValue;
  return authenticated ? undefined : "authentication_failed";
}
