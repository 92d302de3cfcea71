import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";

/**
 * The seller's side of docs/signatures.md, written from that page and not from the gateway's
 * code: keys made by openssl, a signature made with xml-crypto (or xmlsec1) as a standard
 * ds:Signature inside the empty Signature/SignatureType wrapper, then lifted into the wrapper.
 */
export const DSIG = "http://www.w3.org/2000/09/xmldsig#";
export const CNS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";

export interface TestKey {
  key: string;
  cert: string;
  certFile: string;
  keyFile: string;
}

export const keyDir = mkdtempSync(join(tmpdir(), "ndc-sign-"));

/** A self-signed certificate: rsa (2048) or ec (P-256), signed with SHA-256 (or SHA-1 when asked). */
export function makeKey(name: string, kind: "rsa" | "ec", digest: "sha256" | "sha1" = "sha256"): TestKey {
  const keyFile = join(keyDir, `${name}.key`);
  const certFile = join(keyDir, `${name}.crt`);
  const newkey = kind === "rsa" ? ["-newkey", "rsa:2048"] : ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"];
  execFileSync("openssl", ["req", "-x509", ...newkey, "-nodes", `-${digest}`, "-keyout", keyFile, "-out", certFile, "-days", "60", "-subj", `/CN=${name}`], { stdio: "ignore" });
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile, keyFile };
}

/** The request with the empty 24.4 wrapper as the root's last child, where the XSD puts it. */
export function withEmptyWrapper(xml: string, root = "IATA_OrderCreateRQ"): string {
  return xml.replace(`</${root}>`, `<Signature><cns:SignatureType xmlns:cns="${CNS}"/></Signature></${root}>`);
}

/** SignatureType's ds:Signature replaced by its children (the 24.4 form). */
export function lift(signed: string): string {
  const doc = new DOMParser().parseFromString(signed, "text/xml");
  const sig = doc.getElementsByTagNameNS(DSIG, "Signature")[0]!;
  const parent = sig.parentNode!;
  while (sig.firstChild) parent.insertBefore(sig.firstChild, sig);
  parent.removeChild(sig);
  return new XMLSerializer().serializeToString(doc);
}

export interface SignOpts {
  algorithm?: string;
  digest?: string;
  uri?: string;
  xpath?: string;
  keyInfoCert?: string;
  canonicalization?: string;
  /** The root element's name, for the wrapper's place; default IATA_OrderCreateRQ. */
  root?: string;
}

/** Signs as a seller: a standard ds:Signature appended to the empty SignatureType, then lifted. */
export function sellerSign(xml: string, k: Pick<TestKey, "key">, o: SignOpts = {}): string {
  const sx = new SignedXml({
    privateKey: k.key,
    publicCert: o.keyInfoCert,
    signatureAlgorithm: o.algorithm ?? "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: o.canonicalization ?? "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  if (o.algorithm === "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256") sx.SignatureAlgorithms[o.algorithm] = EcdsaP256 as never;
  sx.addReference({
    xpath: o.xpath ?? "/*",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", o.canonicalization ?? "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: o.digest ?? "http://www.w3.org/2001/04/xmlenc#sha256",
    uri: o.uri ?? "",
    isEmptyUri: (o.uri ?? "") === "",
  });
  sx.computeSignature(withEmptyWrapper(xml, o.root), { prefix: "ds", location: { reference: `//*[local-name()='SignatureType']`, action: "append" } });
  return lift(sx.getSignedXml());
}

/** ECDSA as XML-DSig carries it (r || s), written here from RFC 4050 for the seller side. */
class EcdsaP256 {
  getSignature(data: string, key: string): string {
    const { sign } = require("node:crypto") as typeof import("node:crypto");
    return sign("sha256", Buffer.from(data), { key, dsaEncoding: "ieee-p1363" }).toString("base64");
  }
  verifySignature(): boolean {
    return false;
  }
  getAlgorithmName(): string {
    return "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
  }
}
