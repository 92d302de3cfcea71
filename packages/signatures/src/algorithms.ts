import { createPublicKey, sign, verify, type KeyLike } from "node:crypto";

/** The W3C identifiers the gateway accepts (docs/signatures.md). SHA-1 in any role is refused. */
export const DSIG = "http://www.w3.org/2000/09/xmldsig#";
export const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
export const ECDSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
export const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
export const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
export const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
export const C14N = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";

export const CANONICALISATIONS: ReadonlySet<string> = new Set([EXC_C14N, C14N]);

/** A registered key's algorithm, as stored (migration 0046). */
export type KeyAlgorithm = "rsa-sha256" | "ecdsa-p256-sha256";

export const SIGNATURE_METHOD: Readonly<Record<KeyAlgorithm, string>> = {
  "rsa-sha256": RSA_SHA256,
  "ecdsa-p256-sha256": ECDSA_SHA256,
};

/**
 * ECDSA-P256-SHA256 for xml-crypto, which ships RSA only. XML-DSig carries an ECDSA signature
 * as r || s (RFC 4050, RFC 6931), not DER, hence ieee-p1363.
 */
export class EcdsaSha256 {
  getSignature(signedInfo: string | Buffer, privateKey: KeyLike): string {
    return sign("sha256", Buffer.from(signedInfo), { key: privateKey as never, dsaEncoding: "ieee-p1363" }).toString("base64");
  }
  verifySignature(material: string, key: KeyLike, signatureValue: string): boolean {
    const publicKey = createPublicKey(key as never);
    return verify("sha256", Buffer.from(material), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signatureValue, "base64"));
  }
  getAlgorithmName(): string {
    return ECDSA_SHA256;
  }
}
