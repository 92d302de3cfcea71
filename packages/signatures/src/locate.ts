import type { Document, Element, Node } from "@xmldom/xmldom";
import { DSIG } from "./algorithms";

const NDC_MESSAGE = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
const NDC_COMMON = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";

/** Where a message's one signature sits: the 24.4 wrapper, or a standard tool's ds:Signature. */
export type SignatureForm = "Signature/SignatureType" | "ds:Signature";

export interface Located {
  form: SignatureForm;
  /** The element whose children are SignedInfo, SignatureValue, KeyInfo. */
  container: Element;
  signedInfo: Element;
}

/**
 * Finds the one signature of a message and refuses every other shape, so no second signature,
 * no signature buried elsewhere and no Id reused can make the verifier look at one thing while
 * the decoder reads another (signature wrapping: CVE-2025-29774, CVE-2025-29775). Returns the
 * refusal's English reason, or where the signature is.
 */
export function locateSignature(doc: Document): Located | string {
  const found = walk(doc);
  if (found.commentOrPi) {
    return "A signed message may carry no comments or processing instructions: canonicalisation leaves them outside the signature, so what is signed and what is read could differ.";
  }
  if (found.signedInfos.length > 1 || found.signatures > 1) return "The message carries more than one signature; exactly one is accepted.";
  if (found.duplicateId) return "Two elements carry the same Id; a signed message must not repeat one.";
  const signedInfo = found.signedInfos[0];
  if (!signedInfo) return "The Signature holds no ds:SignedInfo.";
  const root = doc.documentElement!;
  const container = signedInfo.parentNode as Element | null;
  const parent = container?.parentNode as Element | null;
  let form: SignatureForm | undefined;
  if (container?.localName === "SignatureType" && container.namespaceURI === NDC_COMMON && parent?.localName === "Signature" && parent.namespaceURI === NDC_MESSAGE && parent.parentNode === root) {
    form = "Signature/SignatureType";
  } else if (container?.localName === "Signature" && container.namespaceURI === DSIG && parent === root) {
    form = "ds:Signature";
  }
  if (!form || !container) return "The signature must be the message's own Signature/SignatureType, a child of the root (or an enveloped ds:Signature child of the root).";
  return { form, container, signedInfo };
}

const ELEMENT = 1;
const PI = 7;
const COMMENT = 8;

/**
 * One pass over the whole document (xpath's `//` scans cost a hundred times more): comments and
 * processing instructions (the XML declaration is none), SignedInfo elements, signature
 * elements of either form, and Id values seen twice.
 */
function walk(doc: Document): { commentOrPi: boolean; signedInfos: Element[]; signatures: number; duplicateId: boolean } {
  const out = { commentOrPi: false, signedInfos: [] as Element[], signatures: 0, duplicateId: false };
  const ids = new Set<string>();
  const stack: Node[] = [doc as unknown as Node];
  while (stack.length) {
    const node = stack.pop()!;
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === COMMENT || (c.nodeType === PI && c.nodeName !== "xml")) out.commentOrPi = true;
      if (c.nodeType !== ELEMENT) continue;
      const el = c as unknown as Element;
      if (el.namespaceURI === DSIG && el.localName === "SignedInfo") out.signedInfos.push(el);
      if ((el.namespaceURI === DSIG && el.localName === "Signature") || (el.namespaceURI === NDC_COMMON && el.localName === "SignatureType")) out.signatures++;
      for (const name of ["Id", "ID", "id"]) {
        if (!el.hasAttribute(name)) continue;
        const v = el.getAttribute(name) ?? "";
        if (ids.has(v)) out.duplicateId = true;
        ids.add(v);
      }
      stack.push(c);
    }
  }
  return out;
}
