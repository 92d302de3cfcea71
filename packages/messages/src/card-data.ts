import { GatewayError } from "@ndc/errors";
import { containsCardNumber } from "@ndc/payments";
import { NS, type XmlElement } from "@ndc/xml";

// Elements that hold a full card number or a security code whatever their value: PaymentCard's
// CardNumber and CardSecurityCode (24.4) and SeriesCode (the CVV's name in earlier NDC versions).
// A 3-digit CVV cannot be recognised by its value, only by where it is sent.
const CARD_ELEMENTS = new Set(["CardNumber", "CardSecurityCode", "SeriesCode"]);

// The one exemption (docs/messages/request-limits.md, "Card numbers, anywhere"): xmldsig's X509SerialNumber is
// a decimal integer chosen by a certificate authority, often 16 to 49 digits, so one in ten
// would pass Luhn by chance; it is computed, never typed, and the gateway keeps nothing of it.
const EXEMPT = (el: XmlElement) => el.ns === NS.dsig && el.name === "X509SerialNumber";

// A card number has at least 13 digits: shorter texts (most codes and ids) need no regex.
const holdsCard = (text: string) => text.length >= 13 && containsCardNumber(text);

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
 * optionally grouped with single spaces or dashes, passing Luhn, not starting with 0.
 */
export function refuseCardDataIn(root: XmlElement): void {
  // The chain from the root to the element being looked at; a path is only built to refuse.
  const chain: XmlElement[] = [root];
  const visit = (el: XmlElement): void => {
    const what = offence(el);
    if (what !== undefined) refuse(pathOf(chain, what));
    for (const ch of el.children) {
      chain.push(ch);
      visit(ch);
      chain.pop();
    }
  };
  visit(root);
}

/** What in the element holds card data: "" its text (or its name), "@attr" an attribute; undefined nothing. */
function offence(el: XmlElement): string | undefined {
  if (CARD_ELEMENTS.has(el.name) && el.text.trim() !== "") return "";
  if (!EXEMPT(el) && holdsCard(el.text)) return "";
  for (const name in el.attrs) if (holdsCard(el.attrs[name]!)) return `@${name}`;
  return undefined;
}

/**
 * Cursor-style path below the root ("Request/PaymentFunctions[2]/..."), indexes on repeated
 * names, like every TagText; the root itself is named by its own name.
 */
function pathOf(chain: readonly XmlElement[], what: string): string {
  const steps: string[] = chain.length === 1 ? [chain[0]!.name] : [];
  for (let i = 1; i < chain.length; i++) {
    const el = chain[i]!;
    const same = chain[i - 1]!.children.filter((c) => c.name === el.name);
    steps.push(same.length > 1 ? `${el.name}[${same.indexOf(el) + 1}]` : el.name);
  }
  if (what) steps.push(what);
  return steps.join("/");
}
