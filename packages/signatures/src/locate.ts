import type { Document, Element } from "@xmldom/xmldom";
import * as xpath from "xpath";
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

const els = (expr: string, doc: Document) => xpath.select(expr, doc as never) as unknown as Element[];

/**
 * Finds the one signature of a message and refuses every other shape, so no second signature,
 * no signature buried elsewhere and no Id reused can make the verifier look at one thing while
 * the decoder reads another (signature wrapping: CVE-2025-29774, CVE-2025-29775). Returns the
 * refusal's English reason, or where the signature is.
 */
export function locateSignature(doc: Document): Located | string {
  if (els("//comment() | //processing-instruction()[name() != 'xml']", doc).length > 0) {
    return "A signed message may carry no comments or processing instructions: canonicalisation leaves them outside the signature, so what is signed and what is read could differ.";
  }
  const signedInfos = els(`//*[local-name()='SignedInfo' and namespace-uri()='${DSIG}']`, doc);
  const dsSignatures = els(`//*[local-name()='Signature' and namespace-uri()='${DSIG}']`, doc);
  const wrappers = els(`//*[local-name()='SignatureType' and namespace-uri()='${NDC_COMMON}']`, doc);
  if (signedInfos.length > 1 || dsSignatures.length + wrappers.length > 1) return "The message carries more than one signature; exactly one is accepted.";
  const signedInfo = signedInfos[0];
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
  const seen = new Set<string>();
  for (const el of els("//*", doc)) {
    for (const name of ["Id", "ID", "id"]) {
      if (!el.hasAttribute(name)) continue;
      const v = el.getAttribute(name) ?? "";
      if (seen.has(v)) return "Two elements carry the same Id; a signed message must not repeat one.";
      seen.add(v);
    }
  }
  return { form, container, signedInfo };
}
