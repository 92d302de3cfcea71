import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { ECDSA_SHA256, EcdsaSha256, RSA_SHA256 } from "./ecdsa";
import { kids, parseXml, type Element } from "./xml/dom";
import { CNS_NS } from "./xml/envelope";

/**
 * Enveloped XML signatures in the 24.4 form (the layout of the gateway's docs/signatures.md):
 * the message ends with `<Signature><cns:SignatureType>`, whose content is what a W3C
 * `ds:Signature` holds (SignedInfo, SignatureValue, KeyInfo). Its single Reference has URI ""
 * (the whole message) with the enveloped-signature transform and exclusive canonicalisation, and
 * the digest is computed over the message WITH the empty `<Signature/>` wrapper in place: so a
 * signature a standard tool makes as `<Signature><ds:Signature>...` verifies once its content
 * is moved into `cns:SignatureType`, and the reverse. RSA-SHA256 or ECDSA-P256-SHA256, chosen
 * from the key; SHA-1 is never used.
 */
const DSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
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

/** The message's root children named `Signature` (in the message namespace) and every SignatureType or ds:Signature in it. */
function signatureParts(root: Element): { wrappers: Element[]; signatures: Element[] } {
  const wrappers = kids(root, "Signature").filter((e) => e.namespaceURI !== DSIG_NS);
  const signatures: Element[] = [];
  const walk = (e: Element) => {
    for (const k of kids(e)) {
      if ((k.localName === "SignatureType" && k.namespaceURI === CNS_NS) || (k.localName === "Signature" && k.namespaceURI === DSIG_NS)) signatures.push(k);
      walk(k);
    }
  };
  walk(root);
  return { wrappers, signatures };
}

/** Signs a request document in the 24.4 form. The document must not be signed already. */
export function signXml(xml: string, key: SigningKey): string {
  const doc = parseXml(xml);
  const root = doc.documentElement!;
  if (signatureParts(root).signatures.length || signatureParts(root).wrappers.length) throw new Error("the document already has a Signature");
  // The empty wrapper, last child of the root (the 24.4 request form ends with it).
  root.appendChild(doc.createElementNS(root.namespaceURI, root.prefix ? `${root.prefix}:Signature` : "Signature"));
  const withWrapper = new XMLSerializer().serializeToString(doc);
  const sig = signedXml({ privateKey: key.privateKeyPem, publicCert: key.certificatePem, signatureAlgorithm: signatureMethodFor(key.privateKeyPem), canonicalizationAlgorithm: EXC_C14N });
  sig.addReference({ xpath: "/*", transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: SHA256, isEmptyUri: true });
  sig.computeSignature(withWrapper, { prefix: "ds", location: { reference: "/*/*[local-name(.)='Signature']", action: "append" } });
  return moveIntoSignatureType(sig.getSignedXml());
}

/** `<Signature><ds:Signature>X</ds:Signature></Signature>` -> `<Signature><cns:SignatureType>X</cns:SignatureType></Signature>`. */
export function moveIntoSignatureType(xml: string): string {
  const doc = parseXml(xml);
  const root = doc.documentElement!;
  const wrapper = kids(root, "Signature").find((e) => e.namespaceURI !== DSIG_NS);
  const ds = wrapper && kids(wrapper, "Signature").find((e) => e.namespaceURI === DSIG_NS);
  if (!wrapper || !ds) throw new Error("no <Signature><ds:Signature> to move");
  // Each ds child declares ds once on SignatureType, not again on itself: the form a person reads and xmlsec1 writes.
  const ser = new XMLSerializer();
  const content = kids(ds)
    .map((k) => ser.serializeToString(k).replace(/^(<ds:\w+)\s+xmlns:ds="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"/, "$1"))
    .join("");
  const marker = doc.createElementNS(CNS_NS, "cns:SignatureType");
  wrapper.replaceChild(marker, ds);
  // The serializer declares cns on the marker when the document binds it to no prefix or another one.
  return ser.serializeToString(doc).replace(/<cns:SignatureType((?: xmlns:cns="[^"]*")?)\s*\/>/, (_m, decl: string) => `<cns:SignatureType${decl} xmlns:ds="${DSIG_NS}">${content}</cns:SignatureType>`);
}

export interface VerifyResult {
  ok: boolean;
  /** Why not, in English (never key material). */
  reason?: string;
  signatureMethod?: string;
  /** SHA-256 fingerprint of the certificate that verified, hex with colons. */
  fingerprint?: string;
}

const ALLOWED_METHODS = new Set([RSA_SHA256, ECDSA_SHA256]);
const ALLOWED_C14N = new Set([EXC_C14N, C14N]);

/** The namespace declarations in scope at `e` (nearest wins), as attributes text. */
function inScopeNamespaces(e: Element): string {
  const seen = new Map<string, string>();
  for (let n: Element | null = e; n && n.nodeType === 1; n = n.parentNode as Element | null) {
    for (let i = 0; i < n.attributes.length; i++) {
      const a = n.attributes.item(i)!;
      if ((a.name === "xmlns" || a.name.startsWith("xmlns:")) && !seen.has(a.name)) seen.set(a.name, a.value);
    }
  }
  seen.set("xmlns:ds", DSIG_NS);
  return [...seen].map(([k, v]) => `${k}="${v.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`).join(" ");
}

/**
 * Verifies a document signed in the 24.4 form against the certificate the caller trusts (the
 * airline's from discovery, or the seller's own), never against one the document carries in
 * KeyInfo. Checks: one Signature; SignedInfo with RSA-SHA256 or ECDSA-SHA256, exclusive or
 * inclusive canonicalisation, one Reference to the whole message (URI "" or the root's Id) with
 * SHA-256; the digest over the message with the empty wrapper; the SignatureValue.
 */
export function verifyXml(xml: string, certificatePem: string): VerifyResult {
  let doc;
  try {
    doc = parseXml(xml);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  const root = doc.documentElement!;
  const { wrappers, signatures } = signatureParts(root);
  if (wrappers.length !== 1 || signatures.length !== 1) return { ok: false, reason: `expected one Signature with one SignatureType, found ${wrappers.length} Signature and ${signatures.length} signature elements` };
  const st = signatures[0]!;
  if (st.parentNode !== wrappers[0]) return { ok: false, reason: "the signature is not in the message's own Signature element" };
  const signedInfo = kids(st, "SignedInfo")[0];
  const method = signedInfo && kids(signedInfo, "SignatureMethod")[0]?.getAttribute("Algorithm");
  const c14n = signedInfo && kids(signedInfo, "CanonicalizationMethod")[0]?.getAttribute("Algorithm");
  const refs = signedInfo ? kids(signedInfo, "Reference") : [];
  if (!method || !ALLOWED_METHODS.has(method)) return { ok: false, reason: `signature method not accepted: ${method ?? "none"} (RSA-SHA256 or ECDSA-SHA256 only)` };
  if (!c14n || !ALLOWED_C14N.has(c14n)) return { ok: false, reason: `canonicalisation not accepted: ${c14n ?? "none"}` };
  if (refs.length !== 1) return { ok: false, reason: `expected one Reference, found ${refs.length}` };
  const uri = refs[0]!.getAttribute("URI") ?? "";
  const rootId = root.getAttribute("Id") || root.getAttribute("ID") || root.getAttribute("id");
  if (uri !== "" && !(rootId && uri === `#${rootId}`)) return { ok: false, reason: `the Reference must cover the whole message (URI "" or the root's Id), not ${uri}` };
  if (kids(refs[0]!, "DigestMethod")[0]?.getAttribute("Algorithm") !== SHA256) return { ok: false, reason: "digest method not accepted (SHA-256 only)" };
  const dsSignature = `<ds:Signature ${inScopeNamespaces(st)}>${kids(st).map((k) => new XMLSerializer().serializeToString(k)).join("")}</ds:Signature>`;
  // The message as it was digested: the wrapper in place, empty.
  while (wrappers[0]!.firstChild) wrappers[0]!.removeChild(wrappers[0]!.firstChild);
  const digested = new XMLSerializer().serializeToString(doc);
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certificatePem);
  } catch {
    return { ok: false, reason: "the trusted certificate cannot be read" };
  }
  const sig = signedXml({ publicCert: createPublicKey(cert.publicKey.export({ type: "spki", format: "pem" })).export({ type: "spki", format: "pem" }), getCertFromKeyInfo: () => null });
  try {
    sig.loadSignature(dsSignature);
    const ok = sig.checkSignature(digested);
    return ok ? { ok, signatureMethod: method, fingerprint: cert.fingerprint256 } : { ok, reason: "the digest or the signature value does not match" };
  } catch (e) {
    // xml-crypto's texts quote the signature value: say what failed, not the bytes.
    const m = (e as Error).message;
    return { ok: false, reason: /signature value/i.test(m) ? "the signature value does not match the certificate" : /digest/i.test(m) ? "the digest does not match the message" : "the signature cannot be checked" };
  }
}
