import { GatewayError } from "@ndc/errors";

/**
 * The 3-D Secure 2 results a seller obtained when it authenticated the payer itself (PAY3D2;
 * 24.4 PaymentCard/SecurePaymentVersion2). The authentication value (CAVV/AAV) is 3DS sensitive
 * data (PCI 3DS Data Matrix): it goes to the PSP and into the leg's own row
 * (payment_card_authentications), never into a log line, an error or an answer. The other fields
 * say how the payer was authenticated and may be shown.
 */
export interface PayerAuthentication {
  /** ElectronicCommerceInd: the ECI the directory server gave (Visa 05 authenticated, 06 attempted, 07 not; Mastercard 02, 01, 00). */
  eci: string;
  /** AuthenticationValue: the issuer's cryptogram proving the result. Secret. */
  authenticationValue?: string;
  /** ProgramProtocolText: the 3-D Secure protocol version, e.g. 2.2.0. */
  protocolVersion?: string;
  /** DirectoryServerTrxID: the directory server's transaction id. */
  dsTrxId?: string;
  /** TrxStatusText: the EMVCo transaction status (Y, A, N, U, R, C...). */
  trxStatus?: string;
}

const ECI = /^[0-9]{2}$/;
const PROTOCOL = /^2\.[0-9]{1,2}(\.[0-9]{1,2})?$/;
// A CAVV is 28 base64 characters (20 bytes); some schemes send hex or longer values.
const AUTHENTICATION_VALUE = /^[A-Za-z0-9+/=_-]{1,128}$/;
const DS_TRX_ID = /^[A-Za-z0-9-]{1,64}$/;
const TRX_STATUS = /^[A-Z]$/;

/**
 * Shape checks, naming the field and never its value (an authentication value is not echoed,
 * not even in a refusal). The decoder checks the same shapes against the XML elements; this is
 * the domain's own check for any other caller.
 */
export function validatePayerAuthentication(a: PayerAuthentication): void {
  const bad = (field: string, rule: string) => new GatewayError("payment_legs_invalid", { detail: `A card leg's 3-D Secure ${field} ${rule}.` });
  if (typeof a.eci !== "string" || !ECI.test(a.eci)) throw bad("ECI", "is two digits");
  if (a.authenticationValue !== undefined && !AUTHENTICATION_VALUE.test(a.authenticationValue)) throw bad("authentication value", "is 1 to 128 base64 or hex characters");
  if (a.protocolVersion !== undefined && !PROTOCOL.test(a.protocolVersion)) throw bad("protocol version", "is 2.x or 2.x.y");
  if (a.dsTrxId !== undefined && !DS_TRX_ID.test(a.dsTrxId)) throw bad("directory server transaction id", "is 1 to 64 letters, digits or dashes");
  if (a.trxStatus !== undefined && !TRX_STATUS.test(a.trxStatus)) throw bad("transaction status", "is one capital letter");
}

export const PAYER_AUTHENTICATION_SHAPES = { ECI, PROTOCOL, AUTHENTICATION_VALUE, DS_TRX_ID, TRX_STATUS } as const;
