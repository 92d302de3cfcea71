import { DOMParser, XMLSerializer, type Document, type Element } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import * as xpath from "xpath";
import { createHash } from "node:crypto";
import { C14N, CANONICALISATIONS, DSIG, ECDSA_SHA256, ENVELOPED, EXC_C14N, RSA_SHA256, SHA256, SIGNATURE_METHOD, type KeyAlgorithm } from "./algorithms";
import { locateSignature, type SignatureForm } from "./locate";
import { restrictAlgorithms } from "./restrict";

/** A registered key as the verifier needs it. */
export interface VerifyKey {
  fingerprint: string;
  algorithm: KeyAlgorithm;
  pem: string;
  notBefore?: number;
  notAfter?: number;
  revokedAt?: number;
}

export interface Verified {
  ok: true;
  /**
   * The canonical bytes the digest was computed over: the whole message with the signature
   * removed (an empty Signature/SignatureType wrapper in the 24.4 form). The gateway decodes
   * these, never the body around them, so what is read is what was signed.
   */
  canonical: string;
  form: SignatureForm;
  fingerprint: string;
  signatureMethod: string;
  canonicalization: string;
  referenceUri: string;
}

export type Verification = Verified | { ok: false; code: "signature_invalid" | "signature_key_unknown"; reason: string };

const invalid = (reason: string): Verification => ({ ok: false, code: "signature_invalid", reason });
const unknownKey = (reason: string): Verification => ({ ok: false, code: "signature_key_unknown", reason });

function parse(xml: string): Document | undefined {
  let failed = false;
  const doc = new DOMParser({ onError: (level) => void (level !== "warning" && (failed = true)) }).parseFromString(xml, "text/xml");
  return failed || !doc.documentElement ? undefined : doc;
}

/**
 * Verifies the enveloped signature of a request against the seller's registered keys only
 * (issue 11 item 2, docs/signatures.md). xml-crypto on @xmldom/xmldom does the cryptography;
 * around it: exactly one signature in its place (locate.ts), one Reference covering the whole
 * root (URI "" or the root's Id), the enveloped transform and exclusive or inclusive c14n
 * without comments, SHA-256 digests, RSA-SHA256 or ECDSA-P256-SHA256, and a key never taken
 * from KeyInfo (CVE-2024-32962).
 */
export function verifySignedMessage(xml: string, keys: readonly VerifyKey[], now: number): Verification {
  const doc = parse(xml);
  if (!doc) return invalid("The message could not be read for verification.");
  const where = locateSignature(doc);
  if (typeof where === "string") return invalid(where);
  // xml-crypto parses `standard` itself and finds this signature in it by its SignatureValue
  // (refusing a document where two carry it), so the node may come from our own tree.
  const { standard, node } = where.form === "ds:Signature" ? { standard: xml, node: where.container } : standardForm(doc, where.container, where.signedInfo);

  const probe = newSignedXml();
  try {
    probe.loadSignature(node as never);
  } catch {
    return invalid("The Signature lacks SignedInfo, CanonicalizationMethod, SignatureMethod, a Reference or its DigestMethod.");
  }
  const rules = checkSignedInfo(probe, doc.documentElement!);
  if (rules) return invalid(rules);
  const method = probe.signatureAlgorithm!;
  const reference = probe.getReferences()[0]!;
  // Each key tried costs a whole check, so the likely one goes first: the one KeyInfo names (a
  // hint for the order only, never trusted), then keys in force, then revoked or expired ones
  // (tried last, to say why a signature made with them is refused).
  const hint = keyInfoFingerprint(node);
  const inForce = (k: VerifyKey) => k.revokedAt === undefined && (k.notAfter === undefined || now <= k.notAfter) && (k.notBefore === undefined || now >= k.notBefore);
  const rank = (k: VerifyKey) => (k.fingerprint === hint ? 0 : inForce(k) ? 1 : 2);
  const candidates = keys.filter((k) => SIGNATURE_METHOD[k.algorithm] === method).sort((a, b) => rank(a) - rank(b));

  for (const key of candidates) {
    const sx = newSignedXml(key.pem);
    sx.loadSignature(node as never);
    let good: boolean;
    try {
      good = sx.checkSignature(standard);
    } catch (e) {
      if (e instanceof Error && e.message.startsWith("invalid signature: the signature value")) continue; // not this key
      return invalid("The signature could not be verified.");
    }
    if (!good) return invalid("The digest of the signed content does not match: the message was changed after signing.");
    if (key.revokedAt !== undefined && key.revokedAt <= now) return unknownKey(`The signing key ${key.fingerprint} was revoked on ${new Date(key.revokedAt).toISOString()}.`);
    if (key.notAfter !== undefined && now > key.notAfter) return unknownKey(`The signing key ${key.fingerprint} expired on ${new Date(key.notAfter).toISOString()}.`);
    if (key.notBefore !== undefined && now < key.notBefore) return unknownKey(`The signing key ${key.fingerprint} is not valid before ${new Date(key.notBefore).toISOString()}.`);
    const canonical = sx.getSignedReferences()[0];
    if (canonical === undefined) return invalid("The signature could not be verified.");
    return { ok: true, canonical, form: where.form, fingerprint: key.fingerprint, signatureMethod: method, canonicalization: probe.canonicalizationAlgorithm!, referenceUri: reference.uri ?? "" };
  }
  if (keys.length === 0) return unknownKey("The agency has no registered signing key (ndc-gateway agency signing add).");
  if (hint && !keys.some((k) => k.fingerprint === hint)) {
    return unknownKey("The signature was not made with a key registered for the agency; a certificate in KeyInfo is never trusted.");
  }
  return unknownKey("The signature does not verify with any key registered for the agency.");
}

function newSignedXml(publicCert?: string): SignedXml {
  // getCertFromKeyInfo returns nothing: the key is the registered one, never KeyInfo's.
  const sx = new SignedXml({ publicCert, getCertFromKeyInfo: () => null });
  restrictAlgorithms(sx);
  return sx;
}

/** SignedInfo's rules, read after loadSignature from its canonical form; the reason or undefined. */
function checkSignedInfo(sx: SignedXml, root: Element): string | undefined {
  const method = sx.signatureAlgorithm ?? "";
  if (/sha1/i.test(method)) return "SHA-1 signature methods are refused; sign with RSA-SHA256 or ECDSA-P256-SHA256.";
  if (method !== RSA_SHA256 && method !== ECDSA_SHA256) return "The SignatureMethod must be RSA-SHA256 or ECDSA-P256-SHA256.";
  if (!CANONICALISATIONS.has(sx.canonicalizationAlgorithm ?? "")) return "The CanonicalizationMethod must be exclusive or inclusive c14n without comments.";
  const refs = sx.getReferences();
  if (refs.length !== 1) return "SignedInfo must hold exactly one Reference, covering the whole message.";
  const ref = refs[0]!;
  if (/sha1/i.test(ref.digestAlgorithm)) return "SHA-1 digests are refused; use SHA-256.";
  if (ref.digestAlgorithm !== SHA256) return "The DigestMethod must be SHA-256.";
  const rootId = root.getAttribute("Id") || root.getAttribute("ID") || root.getAttribute("id");
  const uri = ref.uri ?? "";
  if (!(uri === "" || (rootId && uri === `#${rootId}`))) return "The Reference must cover the whole message: URI \"\" or the root element's Id.";
  if (!ref.transforms.includes(ENVELOPED)) return "The Reference must use the enveloped-signature transform.";
  if (!ref.transforms.every((t) => t === ENVELOPED || t === EXC_C14N || t === C14N)) return "Only the enveloped-signature transform and c14n or exclusive c14n (without comments) are accepted.";
  return undefined;
}

function keyInfoFingerprint(signature: Element): string | undefined {
  const cert = xpath.select1(`.//*[local-name()='X509Certificate' and namespace-uri()='${DSIG}']/text()`, signature as never) as unknown as { data?: string } | undefined;
  if (!cert?.data) return undefined;
  return createHash("sha256").update(Buffer.from(cert.data.replace(/\s+/g, ""), "base64")).digest("hex");
}

/**
 * The 24.4 form read as a standard tool's: SignatureType's children moved into a ds:Signature
 * (with SignedInfo's own prefix) placed inside the then empty wrapper. The enveloped transform
 * removes that ds:Signature, so the digest covers the message with the empty wrapper in place:
 * the layout docs/signatures.md gives signers.
 */
function standardForm(doc: Document, container: Element, signedInfo: Element): { standard: string; node: Element } {
  const name = signedInfo.prefix ? `${signedInfo.prefix}:Signature` : "Signature";
  const signature = doc.createElementNS(DSIG, name);
  while (container.firstChild) signature.appendChild(container.firstChild);
  container.appendChild(signature);
  return { standard: new XMLSerializer().serializeToString(doc), node: signature };
}
