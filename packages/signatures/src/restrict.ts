import { SignedXml } from "xml-crypto";
import { C14N, ECDSA_SHA256, EcdsaSha256, ENVELOPED, EXC_C14N, RSA_SHA256, SHA256 } from "./algorithms";

const library = new SignedXml();

/**
 * Only what docs/signatures.md accepts stays registered on an instance: no SHA-1, no
 * WithComments canonicalisation, no HMAC; ECDSA-P256-SHA256 added (xml-crypto has RSA only).
 */
export function restrictAlgorithms(sx: SignedXml): void {
  sx.SignatureAlgorithms = { [RSA_SHA256]: library.SignatureAlgorithms[RSA_SHA256]!, [ECDSA_SHA256]: EcdsaSha256 as never };
  sx.HashAlgorithms = { [SHA256]: library.HashAlgorithms[SHA256]! };
  sx.CanonicalizationAlgorithms = {
    [EXC_C14N]: library.CanonicalizationAlgorithms[EXC_C14N]!,
    [C14N]: library.CanonicalizationAlgorithms[C14N]!,
    [ENVELOPED]: library.CanonicalizationAlgorithms[ENVELOPED]!,
  };
}
