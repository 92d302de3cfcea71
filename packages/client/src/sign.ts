import { createHash, createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { ECDSA_SHA256, EcdsaSha256, RSA_SHA256 } from "./ecdsa";
import { kids, parseXml, type Document, type Element } from "./xml/dom";
import { CNS_NS } from "./xml/envelope";

/**
 * Enveloped XML signatures in the 24.4 form, the layout of the gateway's docs/signatures.md:
 * the message ends with `<Signature><cns:SignatureType>`, whose children are those of a W3C
 * `ds:Signature` (SignedInfo, SignatureValue, KeyInfo). A standard enveloped signature is made
 * with its `ds:Signature` as the only child of the empty `SignatureType` (one Reference, URI "",
 * the enveloped transform then exclusive c14n, SHA-256), so the digest covers the message WITH
 * the empty wrapper `<Signature><cns:SignatureType/></Signature>` in place; then the
 * `ds:Signature` element is replaced by its children, each declaring the ds namespace. A
 * verifier moves them back into a `ds:Signature` inside `SignatureType`, and the enveloped
 * transform removes it again. RSA-SHA256 or ECDSA-P256-SHA256, chosen from the key; SHA-1 never.
 */
const DSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
const MSG_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";

export interface SigningKey {
  /** PEM private key: RSA (2048 bits or more) or EC P-256. */
  privateKeyPem: string;
  /** PEM X.509 certificate, sent in KeyInfo (the gateway trusts only the certificates registered for the seller). */
  certificatePem: string;
}

/** The SignatureMethod for a key: RSA-SHA256 or ECDSA-SHA256 on P-256; anything else is refused. */
export function signatureMethodFor(privateKeyPem: string): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType === "rsa") {
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error("an RSA signing key must have at least 2048 bits");
    return RSA_SHA256;
  }
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") return ECDSA_SHA256;
  throw new Error(`unsupported signing key (${key.asymmetricKeyType}${key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ""}): use RSA-2048+ or EC P-256`);
}

function signedXml(opts: ConstructorParameters<typeof SignedXml>[0]): SignedXml {
  const sig = new SignedXml(opts);
  (sig.SignatureAlgorithms as Record<string, unknown>)[ECDSA_SHA256] = EcdsaSha256;
  return sig;
}

/** Every element of the document that is, or holds, a signature: SignedInfo, ds:Signature, SignatureType. */
function signatureElements(doc: Document): { signedInfos: Element[]; containers: Element[] } {
  const signedInfos: Element[] = [];
  const containers: Element[] = [];
  const walk = (e: Element) => {
    for (const k of kids(e)) {
      if (k.namespaceURI === DSIG_NS && k.localName === "SignedInfo") signedInfos.push(k);
      if ((k.namespaceURI === DSIG_NS && k.localName === "Signature") || (k.namespaceURI === CNS_NS && k.localName === "SignatureType")) containers.push(k);
      walk(k);
    }
  };
  walk(doc.documentElement!);
  return { signedInfos, containers };
}

/** Signs a request document in the 24.4 form. The document must not be signed already. */
export function signXml(xml: string, key: SigningKey): string {
  const doc = parseXml(xml);
  const root = doc.documentElement!;
  if (signatureElements(doc).containers.length || kids(root, "Signature").length) throw new Error("the document already has a Signature");
  // The empty wrapper, last child of the root (the 24.4 request form ends with it).
  const wrapper = doc.createElementNS(root.namespaceURI, root.prefix ? `${root.prefix}:Signature` : "Signature");
  wrapper.appendChild(doc.createElementNS(CNS_NS, root.lookupPrefix(CNS_NS) ? `${root.lookupPrefix(CNS_NS)}:SignatureType` : "cns:SignatureType"));
  root.appendChild(wrapper);
  const sig = signedXml({ privateKey: key.privateKeyPem, publicCert: key.certificatePem, signatureAlgorithm: signatureMethodFor(key.privateKeyPem), canonicalizationAlgorithm: EXC_C14N });
  sig.addReference({ xpath: "/*", transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256, isEmptyUri: true });
  sig.computeSignature(new XMLSerializer().serializeToString(doc), {
    prefix: "ds",
    location: { reference: "/*/*[local-name(.)='Signature']/*[local-name(.)='SignatureType']", action: "append" },
  });
  return liftSignature(sig.getSignedXml());
}

/**
 * `<Signature><cns:SignatureType><ds:Signature>X</ds:Signature>...` -> `<Signature><cns:SignatureType>X...`:
 * what a standard tool signed over the 24.4 template, in the 24.4 form. The serializer declares
 * the ds namespace on each moved child.
 */
export function liftSignature(xml: string): string {
  const doc = parseXml(xml);
  const wrapper = kids(doc.documentElement!, "Signature").find((e) => e.namespaceURI === MSG_NS);
  const st = wrapper && kids(wrapper, "SignatureType").find((e) => e.namespaceURI === CNS_NS);
  const ds = st && kids(st).find((e) => e.namespaceURI === DSIG_NS && e.localName === "Signature");
  if (!st || !ds) throw new Error("no <Signature><cns:SignatureType><ds:Signature> to lift");
  while (ds.firstChild) st.insertBefore(ds.firstChild, ds);
  st.removeChild(ds);
  return new XMLSerializer().serializeToString(doc);
}

/**
 * The key to verify with, from an X.509 certificate or a bare public key (an airline without a
 * certificate publishes its key): the SPKI PEM, and a SHA-256 fingerprint (the certificate's, or
 * the key's SPKI DER) as hex with colons.
 */
function trustedKey(pem: string): { pem: string; fingerprint: string } | undefined {
  try {
    const cert = new X509Certificate(pem);
    return { pem: cert.publicKey.export({ type: "spki", format: "pem" }).toString(), fingerprint: cert.fingerprint256 };
  } catch {}
  try {
    const key = createPublicKey(pem);
    const der = key.export({ type: "spki", format: "der" });
    const hex = createHash("sha256").update(der).digest("hex").toUpperCase();
    return { pem: key.export({ type: "spki", format: "pem" }).toString(), fingerprint: hex.match(/../g)!.join(":") };
  } catch {
    return undefined;
  }
}

export interface VerifyResult {
  ok: boolean;
  /** Why not, in English (never key material). */
  reason?: string;
  signatureMethod?: string;
  /** SHA-256 fingerprint of the certificate (or bare key) that verified, hex with colons. */
  fingerprint?: string;
}

const ALLOWED_METHODS = new Set([RSA_SHA256, ECDSA_SHA256]);
const ALLOWED_C14N = new Set([EXC_C14N, C14N]);
const ALLOWED_TRANSFORMS = new Set([ENVELOPED, EXC_C14N, C14N]);

/**
 * Where the one signature may be: the 24.4 `Signature/SignatureType` of a request, or a standard
 * enveloped `ds:Signature` as a child of the root or of its `AugmentationPoint` (where the airline
 * signs OrderViewRS answers, whose XSD has no Signature element). Anything else is refused, and so
 * is more than one signature (signature wrapping).
 */
function locate(doc: Document): { container: Element; signedInfo: Element; lifted: boolean } | string {
  const root = doc.documentElement!;
  const { signedInfos, containers } = signatureElements(doc);
  if (signedInfos.length !== 1 || containers.length !== 1) return `expected exactly one signature, found ${signedInfos.length} SignedInfo in ${containers.length} signature elements`;
  const signedInfo = signedInfos[0]!;
  const container = signedInfo.parentNode as Element;
  const parent = container.parentNode as Element | null;
  if (container !== containers[0]) return "SignedInfo is not in the signature element";
  if (container.localName === "SignatureType" && parent?.localName === "Signature" && parent.namespaceURI === MSG_NS && parent.parentNode === root) return { container, signedInfo, lifted: true };
  const augmentation = parent?.localName === "AugmentationPoint" && parent.namespaceURI === MSG_NS && parent.parentNode === root;
  if (container.localName === "Signature" && (parent === root || augmentation)) return { container, signedInfo, lifted: false };
  return "the signature must be the message's Signature/SignatureType, or a ds:Signature child of the root or of its AugmentationPoint";
}

/**
 * Verifies a signed document against the certificate the caller trusts (the airline's from
 * discovery, or a seller's own), never against one the document carries in KeyInfo. Checks: one
 * signature, in its place; no comments (c14n leaves them outside what is signed); RSA-SHA256 or
 * ECDSA-SHA256; exclusive or inclusive c14n; one Reference to the whole message (URI "" or the
 * root's Id) with the enveloped transform and SHA-256; then the digest and the SignatureValue.
 */
export function verifyXml(xml: string, certificatePem: string): VerifyResult {
  let doc: Document;
  try {
    doc = parseXml(xml);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (/<!--/.test(xml)) return { ok: false, reason: "a signed document may carry no comments: canonicalisation leaves them outside the signature" };
  const where = locate(doc);
  if (typeof where === "string") return { ok: false, reason: where };
  const { container, signedInfo } = where;
  const method = kids(signedInfo, "SignatureMethod")[0]?.getAttribute("Algorithm");
  const c14n = kids(signedInfo, "CanonicalizationMethod")[0]?.getAttribute("Algorithm");
  const refs = kids(signedInfo, "Reference");
  if (!method || !ALLOWED_METHODS.has(method)) return { ok: false, reason: `signature method not accepted: ${method ?? "none"} (RSA-SHA256 or ECDSA-SHA256 only)` };
  if (!c14n || !ALLOWED_C14N.has(c14n)) return { ok: false, reason: `canonicalisation not accepted: ${c14n ?? "none"}` };
  if (refs.length !== 1) return { ok: false, reason: `expected one Reference, found ${refs.length}` };
  const root = doc.documentElement!;
  const uri = refs[0]!.getAttribute("URI") ?? "";
  const rootId = root.getAttribute("Id") || root.getAttribute("ID") || root.getAttribute("id");
  if (uri !== "" && !(rootId && uri === `#${rootId}`)) return { ok: false, reason: `the Reference must cover the whole message (URI "" or the root's Id), not ${uri}` };
  const transforms = kids(kids(refs[0]!, "Transforms")[0] ?? refs[0]!, "Transform").map((t) => t.getAttribute("Algorithm") ?? "");
  if (!transforms.includes(ENVELOPED) || !transforms.every((t) => ALLOWED_TRANSFORMS.has(t))) return { ok: false, reason: "the Reference must use the enveloped-signature transform and c14n only" };
  if (kids(refs[0]!, "DigestMethod")[0]?.getAttribute("Algorithm") !== SHA256) return { ok: false, reason: "digest method not accepted (SHA-256 only)" };
  const trusted = trustedKey(certificatePem);
  if (!trusted) return { ok: false, reason: "the trusted certificate or public key cannot be read" };
  // The 24.4 form read as a standard tool's: the children back into a ds:Signature inside SignatureType.
  if (where.lifted) {
    const ds = doc.createElementNS(DSIG_NS, signedInfo.prefix ? `${signedInfo.prefix}:Signature` : "Signature");
    while (container.firstChild) ds.appendChild(container.firstChild);
    container.appendChild(ds);
  }
  const standard = new XMLSerializer().serializeToString(doc);
  const node = signatureElements(parseXml(standard)).containers.find((e) => e.namespaceURI === DSIG_NS)!;
  const sig = signedXml({ publicCert: trusted.pem, getCertFromKeyInfo: () => null });
  try {
    sig.loadSignature(node as unknown as Node);
    const ok = sig.checkSignature(standard);
    return ok ? { ok, signatureMethod: method, fingerprint: trusted.fingerprint } : { ok, reason: "the digest does not match: the message was changed after signing" };
  } catch (e) {
    // xml-crypto's texts quote the signature value: say what failed, not the bytes.
    const m = (e as Error).message;
    return { ok: false, reason: /signature value/i.test(m) ? "the signature value does not match the certificate" : /digest/i.test(m) ? "the digest does not match: the message was changed after signing" : "the signature cannot be checked" };
  }
}
