import { refuseCardData } from "@ndc/payments";
import type { XmlElement } from "@ndc/xml";
import { walk } from "./scan";

// Elements that hold a full card number or a security code whatever their value: PaymentCard's
// CardNumber and CardSecurityCode (24.4) and SeriesCode (the CVV's name in earlier NDC versions).
// IATA_EasyPay's AccountNumber is caught by the Luhn check on PaymentFunctions texts below.
const CARD_ELEMENTS = new Set(["CardNumber", "CardSecurityCode", "SeriesCode"]);

/**
 * Refuses a request carrying card data (DESIGN 5), before anything else reads it. Every such
 * element anywhere in the message is handed to @ndc/payments' refuseCardData under its own
 * name; every text inside PaymentFunctions is also checked for a Luhn-valid card number hidden
 * in another field (a token field, a holder name). The error names the element, never the value.
 */
export function refuseCardDataIn(root: XmlElement): void {
  for (const { el, path } of walk(root)) {
    const parentPath = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    const text = el.text.trim();
    if (CARD_ELEMENTS.has(el.name)) refuseCardData({ [el.name]: text }, parentPath);
    if (text && /(^|\/)PaymentFunctions(\[\d+\])?\//.test(path)) refuseCardData(text, path);
  }
}
