import { GatewayError } from "@ndc/errors";

// Field names that carry a security code or a card number whatever their value (NDC's
// PaymentCard/SeriesCode is the CVV). Compared after dropping case, "_" and "-".
const SECURITY_CODE_NAMES = new Set(["cvv", "cvv2", "cvc", "cvc2", "cid", "csc", "securitycode", "cardsecuritycode", "seriescode"]);
const CARD_NUMBER_NAMES = new Set(["cardnumber", "pan", "primaryaccountnumber", "cardnumbertext"]);

// 13 to 19 digits, optionally grouped with single spaces or dashes.
const CARD_LIKE = /\d(?:[ -]?\d){12,18}/g;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * True when the text holds a full card number: 13-19 digits passing Luhn, spaces/dashes allowed.
 * A run starting with 0 is not one: no card scheme issues under ISO/IEC 7812 major industry
 * identifier 0, and zero-padded ids ("ORD-00000000000000000000") pass Luhn trivially.
 */
export function containsCardNumber(text: string): boolean {
  for (const m of text.matchAll(CARD_LIKE)) {
    const digits = m[0].replace(/[ -]/g, "");
    if (digits[0] !== "0" && digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return true;
  }
  return false;
}

/**
 * Refuses any payment input that carries a full card number or a CVV/CVC field (DESIGN 5: the
 * gateway never accepts or stores them). Runs before anything is written or logged. The error
 * names the field path only: the value is never echoed, not even masked.
 */
export function refuseCardData(fields: unknown, path = ""): void {
  if (typeof fields === "string") {
    if (containsCardNumber(fields)) throw new GatewayError("card_data_refused", { element: path || undefined });
    return;
  }
  if (typeof fields === "number" || typeof fields === "bigint") {
    refuseCardData(String(fields), path);
    return;
  }
  if (fields === null || typeof fields !== "object") return;
  for (const [name, value] of Object.entries(fields)) {
    const here = path ? `${path}/${name}` : name;
    const bare = name.toLowerCase().replace(/[_-]/g, "");
    const present = value !== undefined && value !== null && String(value).trim() !== "";
    if (present && (SECURITY_CODE_NAMES.has(bare) || CARD_NUMBER_NAMES.has(bare))) {
      throw new GatewayError("card_data_refused", { element: here });
    }
    refuseCardData(value, here);
  }
}
