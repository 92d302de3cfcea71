import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { all } from "../shopping/shop-requests";
import { gateway, orderCreateRQ, shopOffer, type Shopped } from "./helpers";

/**
 * Spec 2.4 / 7.3 through HTTP: each identity-document rule refuses the whole OrderCreate with its
 * wire code and the element at fault, the refusal never quotes the number, and nothing is booked.
 * (Every limit at and beyond its edge is covered in test/pii; this checks the wire.)
 */
let t: TestGateway;
let shopped: Shopped;
beforeAll(async () => {
  ({ t } = await gateway());
  shopped = await shopOffer(t);
});
afterAll(() => t.close());

const NUMBER = "ZX90017733";
const cases: { name: string; doc: { number: string; type?: string; surname?: string; expiry?: string }; code: string }[] = [
  { name: "type 711 (driver's licence)", doc: { number: NUMBER, type: "711" }, code: "identity_document_type_unknown" },
  { name: "type 9PT", doc: { number: NUMBER, type: "9PT" }, code: "identity_document_type_unknown" },
  { name: "type outside PADIS 7365", doc: { number: NUMBER, type: "QQ" }, code: "identity_document_type_unknown" },
  { name: "impossible expiry date", doc: { number: NUMBER, expiry: "2031-02-30" }, code: "identity_document_invalid" },
  { name: "number of 61 characters", doc: { number: "N".repeat(61) }, code: "identity_document_invalid" },
  { name: "holder surname of 65 characters", doc: { number: NUMBER, surname: "S".repeat(65) }, code: "identity_document_invalid" },
];

cases.forEach((c, i) => {
  test(`${c.name}: 400 ${c.code}, nothing booked, number not quoted`, async () => {
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "TRAVELLER", doc: c.doc }], correlationId: `DOC-${i}`, trxId: "T1" }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe(c.code);
    expect(all(r.body, "TagText")[0]).toContain("IdentityDoc");
    expect(r.body).not.toContain(c.doc.number);
  });
});

test("a country code that is not ISO 3166-1 alpha-2 is identity_document_country_invalid", async () => {
  const xml = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "TRAVELLER", doc: { number: NUMBER } }], correlationId: "DOC-C", trxId: "T1" }).replace(
    "<cns:CitizenshipCountryCode>GB</cns:CitizenshipCountryCode>",
    "<cns:CitizenshipCountryCode>XX</cns:CitizenshipCountryCode>",
  );
  const r = await t.ndc("OrderCreateRQ", xml);
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("identity_document_country_invalid");
});

test("none of the refused requests left an order", async () => {
  const list = await t.gw.orders.list({ clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id });
  expect(list.orders.length).toBe(0);
  for (const line of t.logs) expect(line).not.toContain(NUMBER);
});
