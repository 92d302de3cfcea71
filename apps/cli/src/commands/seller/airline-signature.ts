import { airlineCertificate, verifyXml, type Discovery } from "@ndc-gateway/client";
import { rootOf } from "./xsd";

/**
 * An answer the airline signed (docs/signatures.md of the gateway: a ds:Signature in
 * AugmentationPoint) must verify with the certificate discovery publishes: true when it does,
 * a problem when it does not or there is nothing to check it with, undefined when unsigned.
 */
export function checkAirlineSignature(xml: string, d: Discovery | undefined): true | string | undefined {
  if (!/<(?:[\w.-]+:)?SignedInfo[\s>]/.test(xml)) return undefined;
  const cert = d && airlineCertificate(d);
  const root = rootOf(xml) ?? "the answer";
  if (!cert) return `${root} is signed, but discovery publishes no airline certificate to check it with (signatures.airline.certificate)`;
  const v = verifyXml(xml, cert);
  return v.ok ? true : `the airline's signature on ${root} does not verify: ${v.reason}`;
}
