// Verifying a signed OrderCreateRQ (docs/signatures.md) against the gateway's own strict parse of
// the same bytes, in one process: what a signed request costs over an unsigned one.
import { generateKeyPairSync, sign } from "node:crypto";
import { SignedXml } from "xml-crypto";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { verifySignedMessage, readSigningKey } from "@ndc/signatures";
import { parseXml } from "@ndc/xml";

const N = Number(process.env.BENCH_N ?? 200);
const MSG = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
const CNS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";
const DSIG = "http://www.w3.org/2000/09/xmldsig#";

// About the size of a four-passenger OrderCreateRQ with documents (7-8 KB).
const pax = Array.from({ length: 4 }, (_, i) => `<cns:Pax><cns:Birthdate>1980-02-03</cns:Birthdate><cns:IdentityDoc><cns:IdentityDocID>QZ77${i}</cns:IdentityDocID><cns:IdentityDocTypeCode>PT</cns:IdentityDocTypeCode><cns:Surname>NAME${i}</cns:Surname></cns:IdentityDoc><cns:Individual><cns:GivenName>Given${i}</cns:GivenName><cns:Surname>NAME${i}</cns:Surname></cns:Individual><cns:PaxID>PAX${i}</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax>`).join("");
const body = `<IATA_OrderCreateRQ xmlns="${MSG}" xmlns:cns="${CNS}"><DistributionChain><DistributionChainLink><Ordinal>1</Ordinal><OrgRole>Carrier</OrgRole><ParticipatingOrg><OrgID>XB</OrgID></ParticipatingOrg></DistributionChainLink></DistributionChain><Request><cns:CreateOrder/><cns:DataLists><cns:PaxList>${pax.repeat(5)}</cns:PaxList></cns:DataLists></Request><Signature><cns:SignatureType/></Signature></IATA_OrderCreateRQ>`;

function signed(kind: "rsa" | "ec"): { xml: string; publicPem: string } {
  const { privateKey, publicKey } = kind === "rsa" ? generateKeyPairSync("rsa", { modulusLength: 2048 }) : generateKeyPairSync("ec", { namedCurve: "P-256" });
  const method = kind === "rsa" ? "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256" : "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
  const sx = new SignedXml({ privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), signatureAlgorithm: method, canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#" });
  if (kind === "ec") {
    sx.SignatureAlgorithms[method] = class {
      getSignature(data: string, key: string) {
        return sign("sha256", Buffer.from(data), { key, dsaEncoding: "ieee-p1363" }).toString("base64");
      }
      getAlgorithmName() {
        return method;
      }
    } as never;
  }
  sx.addReference({ xpath: "/*", transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"], digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256", uri: "", isEmptyUri: true });
  sx.computeSignature(body, { prefix: "ds", location: { reference: "//*[local-name()='SignatureType']", action: "append" } });
  const doc = new DOMParser().parseFromString(sx.getSignedXml(), "text/xml");
  const sig = doc.getElementsByTagNameNS(DSIG, "Signature")[0]!;
  while (sig.firstChild) sig.parentNode!.insertBefore(sig.firstChild, sig);
  sig.parentNode!.removeChild(sig);
  return { xml: new XMLSerializer().serializeToString(doc), publicPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

const limits = { maxBodyBytes: 10_000_000, maxInflatedBytes: 10_000_000, maxDepth: 64, maxElements: 1_000_000 };
const perCall = (f: () => unknown) => {
  for (let i = 0; i < 5; i++) f();
  const t = performance.now();
  for (let i = 0; i < N; i++) f();
  return (performance.now() - t) / N;
};
const out: Record<string, number> = {};
for (const kind of ["rsa", "ec"] as const) {
  const s = signed(kind);
  const key = readSigningKey(s.publicPem);
  const verify = perCall(() => {
    if (!verifySignedMessage(s.xml, [key], Date.now()).ok) throw new Error("did not verify");
  });
  const parse = perCall(() => parseXml(s.xml, limits as never));
  console.log(`${kind}: ${s.xml.length} bytes, verify ${verify.toFixed(2)} ms, strict parse ${(parse * 1000).toFixed(0)} µs, ${(verify / parse).toFixed(0)}x`);
  out[`${kind}VerifyMs`] = Math.round(verify * 100) / 100;
  out[`${kind}Ratio`] = Math.round(verify / parse);
}
console.log(JSON.stringify({ bench: "signatures", bytes: body.length, ...out }));
