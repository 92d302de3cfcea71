import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequest, envelope, liftSignature, newId, party, selectAll, signXml, verifyXml } from "@ndc-gateway/client";
import { assertSchemaValid } from "../support/xsd";
import { asStandardSignature, sellerKey } from "./keys";
import { sandboxClient, startListeningGateway, travelDate, type ListeningGateway } from "./support";

/**
 * Issue 11 item 6: the client's signatures interoperate with a standard tool, xmlsec1 (Debian's
 * xmlsec1, which the test setup installs): what the client signs verifies in xmlsec1 once its
 * children are put back into a `ds:Signature`, and what xmlsec1 signs over the 24.4 template
 * `<Signature><cns:SignatureType><ds:Signature>` verifies in the client once lifted, and books
 * through the gateway.
 */
let g: ListeningGateway;
const dir = mkdtempSync(join(tmpdir(), "ndc-xmlsec1-"));
beforeAll(async () => {
  g = await startListeningGateway();
});
afterAll(async () => {
  await g.close();
  rmSync(dir, { recursive: true, force: true });
});

function xmlsec1(args: string[]): { code: number; out: string } {
  const r = Bun.spawnSync(["xmlsec1", ...args]);
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
}

const TEMPLATE = (method: string) =>
  `<Signature><cns:SignatureType><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/><ds:SignatureMethod Algorithm="${method}"/><ds:Reference URI=""><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference></ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data/></ds:KeyInfo></ds:Signature></cns:SignatureType></Signature>`;

for (const kind of ["rsa", "ec"] as const) {
  describe(kind === "rsa" ? "RSA-SHA256" : "ECDSA-P256-SHA256", () => {
    const key = sellerKey(kind);
    const method = kind === "rsa" ? "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256" : "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
    const files = { key: join(dir, `${kind}.key`), cert: join(dir, `${kind}.crt`) };
    writeFileSync(files.key, key.privateKeyPem);
    writeFileSync(files.cert, key.certificatePem);
    const request = () =>
      envelope("OrderCreateRQ", { carrier: "XB", correlationId: `X-${kind}-${Date.now()}`, trxId: `T-${Date.now()}` }, createRequest({ offers: [{ offerId: "OFR-1", ownerCode: "XB", items: [{ offerItemId: "OFR-1-ADT", paxRefIds: ["PAX1"] }] }], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE", title: "MS" }] }));

    test("signed by the client, verified by xmlsec1; changed after signing, refused by xmlsec1", () => {
      const signed = signXml(request(), key);
      writeFileSync(join(dir, "client-signed.xml"), asStandardSignature(signed));
      const ok = xmlsec1(["--verify", "--pubkey-cert-pem", files.cert, "--enabled-reference-uris", "empty", join(dir, "client-signed.xml")]);
      expect(ok.out).toContain("SignedInfo References (ok/all): 1/1");
      expect(ok.code).toBe(0);
      writeFileSync(join(dir, "client-changed.xml"), asStandardSignature(signed.replace("LOVELACE", "LOVELACF")));
      const bad = xmlsec1(["--verify", "--pubkey-cert-pem", files.cert, "--enabled-reference-uris", "empty", join(dir, "client-changed.xml")]);
      expect(bad.code).not.toBe(0);
    });

    test("signed by xmlsec1, verified by the client, and booked through the gateway in the 24.4 form", async () => {
      const c = sandboxClient(g);
      const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
      const ids = { correlationId: newId(`XMLSEC-${kind}`), trxId: newId("TRX") };
      const unsigned = envelope("OrderCreateRQ", { carrier: "XB", ...ids }, createRequest({ offers: [selectAll(shop.offers[0]!)], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE", title: "MS" }] }));
      writeFileSync(join(dir, "template.xml"), unsigned.replace("</IATA_OrderCreateRQ>", `${TEMPLATE(method)}</IATA_OrderCreateRQ>`));
      const signing = xmlsec1(["--sign", "--privkey-pem", `${files.key},${files.cert}`, "--output", join(dir, "xmlsec1-signed.xml"), join(dir, "template.xml")]);
      expect(signing.code).toBe(0);
      const wrapped = liftSignature(await Bun.file(join(dir, "xmlsec1-signed.xml")).text());
      expect(verifyXml(wrapped, key.certificatePem)).toMatchObject({ ok: true, signatureMethod: method });
      assertSchemaValid(wrapped);
      const booked = await c.send("OrderCreateRQ", wrapped, ids);
      expect(booked.xml).toMatch(/<cns:OrderID>ORD-/);
    }, 60_000);
  });
}

test("an answer signed as the airline signs OrderViewRS (a ds:Signature in AugmentationPoint), by xmlsec1, verifies in the client", () => {
  const key = sellerKey("rsa");
  writeFileSync(join(dir, "airline.key"), key.privateKeyPem);
  writeFileSync(join(dir, "airline.crt"), key.certificatePem);
  const template = TEMPLATE("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256").replace(/^<Signature><cns:SignatureType>/, "").replace(/<\/cns:SignatureType><\/Signature>$/, "");
  const answer = `<?xml version="1.0" encoding="UTF-8"?>\n<IATA_OrderViewRS xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage" xmlns:cns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes"><Response><cns:Order><cns:OrderID>ORD-1</cns:OrderID></cns:Order></Response><AugmentationPoint>${template}</AugmentationPoint></IATA_OrderViewRS>`;
  writeFileSync(join(dir, "answer.xml"), answer);
  expect(xmlsec1(["--sign", "--privkey-pem", `${join(dir, "airline.key")},${join(dir, "airline.crt")}`, "--output", join(dir, "answer-signed.xml"), join(dir, "answer.xml")]).code).toBe(0);
  const signed = readFileSync(join(dir, "answer-signed.xml"), "utf8");
  expect(verifyXml(signed, key.certificatePem)).toMatchObject({ ok: true });
  expect(verifyXml(signed.replace("ORD-1", "ORD-2"), key.certificatePem).ok).toBe(false);
  // Anywhere else than the root or its AugmentationPoint, it is refused before any check.
  const block = signed.match(/<ds:Signature[\s\S]*<\/ds:Signature>/)![0];
  const elsewhere = verifyXml(signed.replace(block, "").replace("<cns:Order>", `<cns:Order>${block}`), key.certificatePem);
  expect(elsewhere).toMatchObject({ ok: false, reason: expect.stringContaining("must be the message's Signature/SignatureType") });
});

