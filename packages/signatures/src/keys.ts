import { createHash, createPublicKey, X509Certificate, type KeyObject } from "node:crypto";
import type { KeyAlgorithm } from "./algorithms";

/** A certificate or public key as the registry keeps it (migration 0046). */
export interface SigningKeyInfo {
  fingerprint: string;
  kind: "certificate" | "public_key";
  algorithm: KeyAlgorithm;
  pem: string;
  subject?: string;
  notBefore?: number;
  notAfter?: number;
}

/** Why a PEM file cannot be registered; the text names no key material. */
export class KeyRefused extends Error {}

/**
 * Reads one PEM certificate or public key. Accepted: RSA of at least 2048 bits (RSA-SHA256) and
 * EC on P-256 (ECDSA-P256-SHA256). A certificate signed with SHA-1 is refused like the SHA-1
 * signature methods. The fingerprint is the SHA-256 of the certificate's DER or of the key's
 * SubjectPublicKeyInfo, lower-case hex: what `agency signing revoke` and the evidence name.
 */
export function readSigningKey(pem: string): SigningKeyInfo {
  const text = pem.trim();
  if (text.includes("PRIVATE KEY")) throw new KeyRefused("The file holds a private key: register the certificate or public key only.");
  if (text.startsWith("-----BEGIN CERTIFICATE-----")) {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(text);
    } catch {
      throw new KeyRefused("The certificate could not be read as PEM X.509.");
    }
    if (/sha1/i.test(signatureAlgorithmOf(cert))) throw new KeyRefused("The certificate is signed with SHA-1, which is refused.");
    const der = cert.raw;
    const only = `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n").replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`;
    return {
      fingerprint: createHash("sha256").update(der).digest("hex"),
      kind: "certificate",
      algorithm: algorithmOf(cert.publicKey),
      pem: only,
      subject: cert.subject.replace(/\n/g, ", ").slice(0, 256),
      notBefore: Date.parse(cert.validFrom),
      notAfter: Date.parse(cert.validTo),
    };
  }
  if (text.startsWith("-----BEGIN PUBLIC KEY-----")) {
    let key: KeyObject;
    try {
      key = createPublicKey(text);
    } catch {
      throw new KeyRefused("The public key could not be read as PEM SubjectPublicKeyInfo.");
    }
    const spki = key.export({ type: "spki", format: "der" });
    return {
      fingerprint: createHash("sha256").update(spki).digest("hex"),
      kind: "public_key",
      algorithm: algorithmOf(key),
      pem: key.export({ type: "spki", format: "pem" }).toString(),
    };
  }
  throw new KeyRefused("Expected a PEM certificate (BEGIN CERTIFICATE) or public key (BEGIN PUBLIC KEY).");
}

export function algorithmOf(key: KeyObject): KeyAlgorithm {
  const d = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === "rsa") {
    if ((d.modulusLength ?? 0) < 2048) throw new KeyRefused("RSA keys must have at least 2048 bits.");
    return "rsa-sha256";
  }
  if (key.asymmetricKeyType === "ec" && d.namedCurve === "prime256v1") return "ecdsa-p256-sha256";
  throw new KeyRefused("Only RSA (2048 bits or more) and EC P-256 keys are accepted.");
}

/** The certificate's own signature algorithm, read from its DER (Node exposes no accessor). */
function signatureAlgorithmOf(cert: X509Certificate): string {
  // sha1WithRSAEncryption 1.2.840.113549.1.1.5, ecdsa-with-SHA1 1.2.840.10045.4.1, dsaWithSHA1 1.2.840.10040.4.3
  const der = cert.raw.toString("hex");
  const sha1 = ["06092a864886f70d010105", "06072a8648ce3d0401", "06072a8648ce380403"];
  return sha1.some((oid) => der.includes(oid)) ? "sha1" : "sha256-or-better";
}

/** The public key of a registered PEM, for verification. */
export function publicKeyOf(pem: string): KeyObject {
  return pem.includes("BEGIN CERTIFICATE") ? new X509Certificate(pem).publicKey : createPublicKey(pem);
}
