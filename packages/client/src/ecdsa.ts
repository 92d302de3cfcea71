import { createPrivateKey, createPublicKey, createSign, createVerify, KeyObject, type KeyLike } from "node:crypto";

export const ECDSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
export const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";

/**
 * ECDSA-P256-SHA256 for xml-crypto, which ships RSA and HMAC only. XML-DSig carries an ECDSA
 * SignatureValue as r||s, each 32 bytes (RFC 4050, XMLDSig 1.1 section 6.4.3), not DER: hence
 * `ieee-p1363`. (The gateway has its own class: this package imports nothing of the gateway.)
 */
export class EcdsaSha256 {
  getSignature(signedInfo: string, privateKey: KeyLike): string {
    return createSign("SHA256").update(signedInfo).sign({ key: privateKey instanceof KeyObject ? privateKey : createPrivateKey(privateKey as string), dsaEncoding: "ieee-p1363" }, "base64");
  }

  verifySignature(material: string, key: KeyLike, signatureValue: string): boolean {
    return createVerify("SHA256").update(material).verify({ key: key instanceof KeyObject ? key : createPublicKey(key as string), dsaEncoding: "ieee-p1363" }, signatureValue, "base64");
  }

  getAlgorithmName(): string {
    return ECDSA_SHA256;
  }
}
