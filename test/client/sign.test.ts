import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createVerify } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import { SignedXml } from "xml-crypto";
import { party, selectAll, signXml, verifyXml, signatureMethodFor } from "@ndc-gateway/client";
import { assertSchemaValid } from "../support/xsd";
import { asStandardSignature, DSIG, ed25519Pem, sellerKey } from "./keys";
import { sandboxClient, startListeningGateway, travelDate, type ListeningGateway } from "./support";

/**
 * Issue 11 item 6: optional request signing, in the layout of the 24.4 `Signature/SignatureType`
 * wrapper with the digest over the message with the empty wrapper `<Signature><cns:SignatureType/>`
 * in place (docs/seller-toolkit.md, and the gateway's signatures page). Checked three ways: the
 * client's own verifier, xml-crypto's standard verification of the same signature put back into a
 * `ds:Signature` (what a standard tool makes), and a booking through the real gateway, whose
 * request is valid against IATA_OrderCreateRQ.xsd.
 */
let g: ListeningGateway;
beforeAll(async () => {
  g = await startListeningGateway();
});
afterAll(async () => {
  await g.close();
});

function standardCheck(xml: string, certificatePem: string): boolean {
  const std = asStandardSignature(xml);
  const sig = new SignedXml({ publicCert: certificatePem, getCertFromKeyInfo: () => null });
  (sig.SignatureAlgorithms as Record<string, unknown>)["http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"] = class {
    verifySignature(m: string, k: string, v: string) {
      return createVerify("SHA256").update(m).verify({ key: k, dsaEncoding: "ieee-p1363" }, v, "base64");
    }
    getAlgorithmName() {
      return "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
    }
  };
  const node = new DOMParser().parseFromString(std, "text/xml").getElementsByTagNameNS(DSIG, "Signature")[0]!;
  sig.loadSignature(node as unknown as Node);
  return sig.checkSignature(std);
}

for (const kind of ["rsa", "ec"] as const) {
  describe(kind === "rsa" ? "RSA-SHA256" : "ECDSA-P256-SHA256", () => {
    const key = sellerKey(kind);

    test("a signed OrderCreateRQ books through the gateway; its request is valid 24.4 and verifies", async () => {
      const c = sandboxClient(g, { signingKey: key });
      const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
      const order = await c.create({ offers: [selectAll(shop.offers[0]!)], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE", title: "MS" }] });
      expect(order.orderId).toMatch(/^ORD-/);
      assertSchemaValid(order.request);
      expect(order.request).toMatch(/<Signature><cns:SignatureType><ds:SignedInfo xmlns:ds="http:\/\/www.w3.org\/2000\/09\/xmldsig#">/);
      expect(order.request).toContain(`Algorithm="${signatureMethodFor(key.privateKeyPem)}"`);
      expect(order.request).toContain('<ds:Reference URI="">');
      const v = verifyXml(order.request, key.certificatePem);
      expect(v).toMatchObject({ ok: true, signatureMethod: signatureMethodFor(key.privateKeyPem) });
      expect(standardCheck(order.request, key.certificatePem)).toBe(true);
    }, 60_000);

    test("a message changed after signing, or checked against another certificate, does not verify", () => {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<IATA_OrderCreateRQ xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage" xmlns:cns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes"><PayloadAttributes><cns:CorrelationID>C1</cns:CorrelationID></PayloadAttributes><Request><cns:Amount CurCode="EUR">100.00</cns:Amount></Request></IATA_OrderCreateRQ>`;
      const signed = signXml(xml, key);
      expect(verifyXml(signed, key.certificatePem).ok).toBe(true);
      const changed = signed.replace("100.00", "1.00");
      expect(verifyXml(changed, key.certificatePem)).toMatchObject({ ok: false });
      expect(standardCheck(changed, key.certificatePem)).toBe(false);
      const other = sellerKey(kind === "rsa" ? "ec" : "rsa");
      const r = verifyXml(signed, other.certificatePem);
      expect(r.ok).toBe(false);
      // The reason names what failed, never the signature bytes or the key.
      expect(r.reason).not.toContain(signed.match(/<ds:SignatureValue[^>]*>([^<]{20})/)![1]!);
      // A second signature is refused before anything is checked.
      const twice = signed.replace("</IATA_OrderCreateRQ>", `<Signature>${signed.match(/<cns:SignatureType[\s\S]*<\/cns:SignatureType>/)![0]}</Signature></IATA_OrderCreateRQ>`);
      expect(verifyXml(twice, key.certificatePem)).toMatchObject({ ok: false });
    });
  });
}

test("keys the client will not sign with: RSA under 2048 bits, Ed25519", () => {
  expect(() => signatureMethodFor(sellerKey("rsa1024").privateKeyPem)).toThrow(/2048/);
  expect(() => signatureMethodFor(ed25519Pem())).toThrow(/unsupported/);
});
