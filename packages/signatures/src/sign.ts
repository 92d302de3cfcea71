import { SignedXml } from "xml-crypto";
import { ECDSA_SHA256, ENVELOPED, EXC_C14N, RSA_SHA256, SHA256, type KeyAlgorithm } from "./algorithms";
import { restrictAlgorithms } from "./restrict";

/** A key the gateway signs with: the airline's (airline-key.ts). */
export interface SignerKey {
  privateKeyPem: string;
  /** The certificate (or public key) published in the discovery document, put in KeyInfo when a certificate. */
  publicPem: string;
  algorithm: KeyAlgorithm;
}

/**
 * An enveloped signature over the whole document (Reference URI "", enveloped transform, exclusive
 * c14n, SHA-256), as a standard ds:Signature placed where `location` says: what xmlsec1 and any
 * XML-DSig library verify as it is (docs/signatures.md, "The airline's signature").
 */
export function signEnveloped(xml: string, key: SignerKey, location: { reference: string; action: "append" | "prepend" | "before" | "after" }): string {
  const sx = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.publicPem.includes("BEGIN CERTIFICATE") ? key.publicPem : undefined,
    signatureAlgorithm: key.algorithm === "rsa-sha256" ? RSA_SHA256 : ECDSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  restrictAlgorithms(sx);
  sx.addReference({ xpath: "/*", transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256, uri: "", isEmptyUri: true });
  sx.computeSignature(xml, { prefix: "ds", location });
  return sx.getSignedXml();
}

/**
 * The airline's signature on a message it sends (an OrderViewRS answer, a pushed notification):
 * a standard ds:Signature appended to the root's AugmentationPoint, the only open place their
 * XSDs leave (`xs:any`, lax). A root without one (the notifications) gets one as its first child,
 * where every 24.4 root declares it. docs/signatures.md, "The airline's signature".
 */
export function airlineSign(xml: string, key: SignerKey): string {
  const hasPoint = /<AugmentationPoint[\s>]/.test(xml);
  const withPoint = hasPoint ? xml : xml.replace(/(<IATA_\w+(?:\s[^>]*)?>)/, "$1<AugmentationPoint></AugmentationPoint>");
  return signEnveloped(withPoint, key, { reference: "/*/*[local-name()='AugmentationPoint']", action: "append" });
}
