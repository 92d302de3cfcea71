import { GatewayError } from "@ndc/errors";
import { containsCardNumber } from "@ndc/payments";
import { NS, type XmlElement } from "@ndc/xml";

// Elements that hold a full card number or a security code whatever their value: PaymentCard's
// CardNumber and CardSecurityCode (24.4) and SeriesCode (the CVV's name in earlier NDC versions).
// A 3-digit CVV cannot be recognised by its value, only by where it is sent.
const CARD_ELEMENTS = new Set(["CardNumber", "CardSecurityCode", "SeriesCode"]);

// The one exemption (docs/messages/xml-shapes.md, "Card numbers"): xmldsig's X509SerialNumber is
// a decimal integer chosen by a certificate authority, often 16 to 49 digits, so one in ten
// would pass Luhn by chance; it is computed, never typed, and the gateway keeps nothing of it.
const EXEMPT = (el: XmlElement) => el.ns === NS.dsig && el.name === "X509SerialNumber";

function refuse(path: string): never {
  // The path names where the number was; the value is never echoed, not even masked.
  throw new GatewayError("card_data_refused", { element: path });
}

/**
 * Refuses a request carrying card data anywhere (DESIGN 5; PCI DSS 3.3/3.4: a primary account
 * number is never stored outside the PSP). Every element in every namespace (NDC content,
 * AugmentationPoint, Signature), every text and every attribute value is looked at, not a list
 * of known fields: a card number typed into a name, a remark or CorrelationID is refused like
 * one in PaymentCard. Called once by the transport pipeline on the parsed tree, before the
 * envelope is decoded, so nothing of the request (not even its CorrelationID) is read, logged
 * or stored first. A card number is @ndc/payments' containsCardNumber: 13 to 19 digits,
 * optionally grouped with single spaces or dashes, passing Luhn.
 */
export function refuseCardDataIn(root: XmlElement): void {
  check(root, root.name);
  below(root, "");
}

/** The element's own value: its name (CardNumber...), its text, its attribute values. */
function check(el: XmlElement, path: string): void {
  if (CARD_ELEMENTS.has(el.name) && el.text.trim() !== "") refuse(path);
  if (!EXEMPT(el) && containsCardNumber(el.text)) refuse(path);
  for (const [name, value] of Object.entries(el.attrs)) if (containsCardNumber(value)) refuse(`${path}/@${name}`);
}

/** Every descendant, depth first, with cursor-style paths below the root ("Request/PaymentFunctions[2]/..."). */
function below(el: XmlElement, path: string): void {
  const counts = new Map<string, number>();
  for (const ch of el.children) counts.set(ch.name, (counts.get(ch.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const ch of el.children) {
    const i = (seen.get(ch.name) ?? 0) + 1;
    seen.set(ch.name, i);
    const step = (counts.get(ch.name) ?? 0) > 1 ? `${ch.name}[${i}]` : ch.name;
    const here = path ? `${path}/${step}` : step;
    check(ch, here);
    below(ch, here);
  }
}
