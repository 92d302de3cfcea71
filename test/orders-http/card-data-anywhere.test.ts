import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { databaseText } from "../support/stored-rows";
import { airShoppingRQ, all } from "../shopping/shop-requests";
import { CARD_NUMBER, gateway, orderCreateRQ, shopOffer, TRAVEL_DATE } from "./helpers";

/**
 * PCI DSS 3.3/3.4 over HTTP: a Luhn-valid card number anywhere in a request (a name, an email,
 * a phone, a remark, CorrelationID, an attribute, foreign content) is refused with
 * card_data_refused naming where it was, before anything is read, stored or logged.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const GROUPED = "4111 1111 1111 1111";
const DASHED = "4111-1111-1111-1111";
// American Express test number: 15 digits, another length and brand.
const AMEX = "378282246310005";
const PAX = "Request/DataLists/PaxList/Pax";
const forms = [CARD_NUMBER, GROUPED, DASHED, AMEX];

function must(xml: string, from: string, to: string): string {
  const out = xml.replace(from, to);
  if (out === xml) throw new Error(`${from} not found in the request`);
  return out;
}

/** [case, how the OrderCreateRQ is edited, TagText expected] */
const cases: [string, (rq: string) => string, string][] = [
  ["GivenName", (rq) => must(rq, "<cns:GivenName>Alex<", `<cns:GivenName>${CARD_NUMBER}<`), `${PAX}/Individual/GivenName`],
  ["Surname", (rq) => must(rq, "<cns:Surname>TRAVELLER<", `<cns:Surname>${GROUPED}<`), `${PAX}/Individual/Surname`],
  [
    "EmailAddressText",
    (rq) => must(rq, "<cns:PaxList>", `<cns:ContactInfoList><cns:ContactInfo><cns:ContactInfoID>CI1</cns:ContactInfoID><cns:EmailAddress><cns:EmailAddressText>${CARD_NUMBER}@example.test</cns:EmailAddressText></cns:EmailAddress></cns:ContactInfo></cns:ContactInfoList><cns:PaxList>`),
    "Request/DataLists/ContactInfoList/ContactInfo/EmailAddress/EmailAddressText",
  ],
  [
    "PhoneNumber",
    (rq) => must(rq, "<cns:PaxList>", `<cns:ContactInfoList><cns:ContactInfo><cns:ContactInfoID>CI1</cns:ContactInfoID><cns:Phone><cns:PhoneNumber>${DASHED}</cns:PhoneNumber></cns:Phone></cns:ContactInfo></cns:ContactInfoList><cns:PaxList>`),
    "Request/DataLists/ContactInfoList/ContactInfo/Phone/PhoneNumber",
  ],
  ["Remark (never read by the decoder)", (rq) => must(rq, "<cns:PTC>ADT</cns:PTC>", `<cns:PTC>ADT</cns:PTC><cns:Remark><cns:RemarkText>pay with ${AMEX} please</cns:RemarkText></cns:Remark>`), `${PAX}/Remark/RemarkText`],
  ["CorrelationID", (rq) => must(rq, "<cns:CorrelationID>CARD-CASE</cns:CorrelationID>", `<cns:CorrelationID>${CARD_NUMBER}</cns:CorrelationID>`), "PayloadAttributes/CorrelationID"],
  ["TrxID", (rq) => must(rq, "<cns:TrxID>T1</cns:TrxID>", `<cns:TrxID>${CARD_NUMBER}</cns:TrxID>`), "PayloadAttributes/TrxID"],
  ["an attribute value", (rq) => must(rq, "<cns:Pax>", `<cns:Pax note="${GROUPED}">`), `${PAX}/@note`],
  ["foreign content in AugmentationPoint", (rq) => must(rq, "</Request>", `</Request><AugmentationPoint><x:Note xmlns:x="urn:example:seller">${CARD_NUMBER}</x:Note></AugmentationPoint>`), "AugmentationPoint/Note"],
];

describe("OrderCreateRQ: a card number outside PaymentFunctions is refused", () => {
  cases.forEach(([name, edit, element], i) => {
    test(name, async () => {
      const shopped = await shopOffer(t, { n: i });
      const rq = edit(orderCreateRQ({ shopped, correlationId: "CARD-CASE", trxId: "T1" }));
      const before = t.logs.length;
      const r = await t.ndc("OrderCreateRQ", rq);
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("card_data_refused");
      expect(all(r.body, "TagText")).toEqual([element]);
      for (const f of forms) expect(r.body).not.toContain(f);
      // The refusal's log line: the code, no CorrelationID (not even when it was a plain one), no number.
      const lines = t.logs.slice(before);
      const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.errorCode === "card_data_refused");
      expect(line).toBeDefined();
      expect(line!.correlationId).toBeUndefined();
      for (const l of lines) for (const f of forms) expect(l).not.toContain(f);
    });
  });
});

test("any message: a card number as AirShoppingRQ's CorrelationID is refused and not echoed", async () => {
  const r = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: TRAVEL_DATE }], correlationId: AMEX }));
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("card_data_refused");
  expect(all(r.body, "TagText")).toEqual(["PayloadAttributes/CorrelationID"]);
  expect(r.body).not.toContain(AMEX);
  expect(all(r.body, "CorrelationID")).toEqual([]);
});

test("numbers that are not card numbers pass: a non-Luhn 16-digit remark, zero padding, dates, an IATA number", async () => {
  const shopped = await shopOffer(t, { n: cases.length });
  const rq = must(orderCreateRQ({ shopped, correlationId: "NOT-A-CARD", trxId: "T1" }), "<cns:PTC>ADT</cns:PTC>", "<cns:PTC>ADT</cns:PTC><cns:Remark><cns:RemarkText>ref 4111111111111112, agency 12345678, file 00000000000000000000</cns:RemarkText></cns:Remark>");
  const r = await t.ndc("OrderCreateRQ", rq);
  expect(r.status).toBe(200);
  expect(all(r.body, "OrderID").length).toBeGreaterThan(0);
});

test("the card numbers of the refused requests are in no table (nor, on SQLite, in any byte of its file)", async () => {
  const stored = await databaseText(t.gw.store, t.dataDir);
  for (const f of forms) expect(stored).not.toContain(f);
});

test("the one exemption: xmldsig's X509SerialNumber (a CA's decimal serial) passes even when it passes Luhn", async () => {
  const sig = `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:KeyInfo><ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>CN=Seller CA</ds:X509IssuerName><ds:X509SerialNumber>${CARD_NUMBER}</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data></ds:KeyInfo></ds:Signature>`;
  // OrderCreateRQ: its XSD ends the root with an enveloped Signature (docs/decisions/0012-root-forms.md).
  const create = must(orderCreateRQ({ shopped: await shopOffer(t), correlationId: "SIG-X509", trxId: "T1" }), "</Request>", `</Request>${sig}`);
  expect((await t.ndc("OrderCreateRQ", create)).status).toBe(200);
  // The same digits anywhere else in the signature are refused.
  const elsewhere = must(create, "CN=Seller CA", `CN=${CARD_NUMBER}`);
  const r = await t.ndc("OrderCreateRQ", elsewhere);
  expect(errorCode(r.body)).toBe("card_data_refused");
  expect(all(r.body, "TagText")).toEqual(["Signature/KeyInfo/X509Data/X509IssuerSerial/X509IssuerName"]);
});
