import { DOMParser, XMLSerializer, type Element } from "@xmldom/xmldom";

/** The elements of a request whose text is a document number: the identity document's, and a visa's. */
const NUMBERS = new Set(["IdentityDocID", "VisaID"]);
export const MASK = "MASKED";

/**
 * A signed original with every document number replaced by MASK (issue 19 item 11): what the
 * airline hands out by default for a dispute over a signed request. The numbers are signed, so
 * the masked copy no longer verifies; a comment at its top says so and names the original's
 * SHA-256 (the chained one). The clear original is a supervisor's, with a reason, audited as a
 * reveal of each document. The original passed the gateway's strict parser when it arrived, so
 * it parses here; a DOM, not a pattern, so no spelling of the element escapes the mask.
 */
export function maskedOriginal(xml: string, originalSha256: string): { xml: string; masked: number } {
  const doc = new DOMParser().parseFromString(xml, "text/xml");
  let masked = 0;
  const walk = (el: Element) => {
    if (NUMBERS.has(el.localName ?? "")) {
      while (el.firstChild) el.removeChild(el.firstChild);
      el.appendChild(doc.createTextNode(MASK));
      masked++;
      return;
    }
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) walk(c as Element);
  };
  walk(doc.documentElement!);
  const note = doc.createComment(
    ` Masked copy of a signed original: ${masked} document number(s) replaced by ${MASK}, so its signature does not verify. The signed original's SHA-256 is ${originalSha256}; the original itself is a supervisor's, with a reason, audited (docs/signatures.md). `,
  );
  doc.insertBefore(note, doc.documentElement);
  const text = new XMLSerializer().serializeToString(doc);
  return { xml: text.startsWith("<?xml") ? text : `<?xml version="1.0" encoding="UTF-8"?>\n${text}`, masked };
}
