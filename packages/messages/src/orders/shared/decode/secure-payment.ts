import { PAYER_AUTHENTICATION_SHAPES as SHAPE, type PayerAuthentication } from "@ndc/payments";
import { invalid, opt, optText, reqText, texts, type Cursor } from "../../../shopping/shared/cursor";

/**
 * PaymentCard/SecurePaymentVersion2 -> the 3-D Secure results the seller obtained (PAY3D2):
 * ElectronicCommerceInd (required: it is what the PSP judges), AuthenticationValue,
 * ProgramProtocolText, DirectoryServerTrxID and the first TrxStatusText. A malformed value is
 * refused naming its element, never quoting it: the authentication value is secret. 3-D Secure 1
 * (SecurePaymentVersion1) is retired by the card schemes and refused.
 */
export function securePayment(card: Cursor): PayerAuthentication | undefined {
  const v1 = opt(card, "SecurePaymentVersion1");
  if (v1) throw invalid(v1.path, "3-D Secure 1 is retired: send the results of a 3-D Secure 2 authentication in SecurePaymentVersion2.");
  const v2 = opt(card, "SecurePaymentVersion2");
  if (!v2) return undefined;
  const eci = reqText(v2, "ElectronicCommerceInd");
  if (!SHAPE.ECI.test(eci)) throw invalid(`${v2.path}/ElectronicCommerceInd`, "ElectronicCommerceInd is the two-digit ECI of the authentication (e.g. 05).");
  const value = secretText(v2, "AuthenticationValue");
  const protocol = checked(v2, "ProgramProtocolText", SHAPE.PROTOCOL, "ProgramProtocolText is the 3-D Secure version, 2.x or 2.x.y (e.g. 2.2.0).");
  const dsTrxId = checked(v2, "DirectoryServerTrxID", SHAPE.DS_TRX_ID, "DirectoryServerTrxID is 1 to 64 letters, digits or dashes.");
  const status = texts(v2, "TrxStatusText")[0];
  if (status !== undefined && !SHAPE.TRX_STATUS.test(status)) throw invalid(`${v2.path}/TrxStatusText[1]`, "TrxStatusText is the EMVCo transaction status, one capital letter (Y, A, N, U, R, C).");
  return {
    eci,
    ...(value ? { authenticationValue: value } : {}),
    ...(protocol ? { protocolVersion: protocol } : {}),
    ...(dsTrxId ? { dsTrxId } : {}),
    ...(status ? { trxStatus: status } : {}),
  };
}

function checked(parent: Cursor, name: string, shape: RegExp, rule: string): string | undefined {
  const v = optText(parent, name);
  if (v !== undefined && !shape.test(v)) throw invalid(`${parent.path}/${name}`, rule);
  return v;
}

/** The authentication value: read raw, so no limit check can quote it back; its shape is checked here. */
function secretText(parent: Cursor, name: string): string | undefined {
  const c = opt(parent, name);
  const v = c?.el.text.trim();
  if (!v) return undefined;
  if (!SHAPE.AUTHENTICATION_VALUE.test(v)) throw invalid(c!.path, "AuthenticationValue is the issuer's cryptogram: 1 to 128 base64 or hex characters.");
  return v;
}
