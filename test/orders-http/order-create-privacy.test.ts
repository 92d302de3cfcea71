import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { databaseText } from "../support/stored-rows";
import { all, blocks } from "../shopping/shop-requests";
import { CARD_NUMBER, DOC_NUMBER, gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "./helpers";

/**
 * DESIGN 5 Money and Personal data through HTTP: a card number is refused and kept nowhere; an
 * identity document number is stored sealed and shown in no response and no log line.
 */
let t: TestGateway;
const responses: string[] = [];
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

test("a full card number in PaymentFunctions is refused and appears in no response, log line or stored row (nor, on SQLite, the file)", async () => {
  const shopped = await shopOffer(t);
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "cardNumber", number: CARD_NUMBER, amountMinor: shopped.totalMinor }], correlationId: "PCI-1", trxId: "T1" }));
  responses.push(r.body);
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("card_data_refused");
  // Nothing was booked for it, and a retry is refused the same way.
  const again = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "cardNumber", number: CARD_NUMBER, amountMinor: shopped.totalMinor }], correlationId: "PCI-1", trxId: "T1" }));
  expect(errorCode(again.body)).toBe("card_data_refused");
  responses.push(again.body);
  for (const body of responses) expect(body).not.toContain(CARD_NUMBER);
  for (const line of t.logs) expect(line).not.toContain(CARD_NUMBER);
  expect(await databaseText(t.gw.store, t.dataDir)).not.toContain(CARD_NUMBER);
});

test("an identity document is shown masked in OrderViewRS; its number is in no response, log line or stored row in clear (nor, on SQLite, the file)", async () => {
  const shopped = await shopOffer(t, { n: 1 });
  const rq = orderCreateRQ({
    shopped,
    pax: [{ id: "PAX1", surname: "CURIE", given: "Marie", doc: { number: DOC_NUMBER, type: "PT", expiry: "2031-07-04" } }],
    legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }],
    correlationId: "PII-1",
    trxId: "T1",
  });
  const created = await t.ndc("OrderCreateRQ", rq);
  expect(created.status).toBe(200);
  const replay = await t.ndc("OrderCreateRQ", rq);
  const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(created.body)));
  expect(read.status).toBe(200);
  for (const r of [created, replay, read]) {
    responses.push(r.body);
    const doc = blocks(r.body, "IdentityDoc");
    expect(doc).toHaveLength(1);
    // The masked document: type, citizenship, issuing country, expiry, holder surname; the
    // schema requires IdentityDocID, so it holds the fixed word MASKED.
    expect(all(doc[0]!, "IdentityDocID")).toEqual(["MASKED"]);
    expect(all(doc[0]!, "IdentityDocTypeCode")).toEqual(["PT"]);
    expect(all(doc[0]!, "ExpiryDate")).toEqual(["2031-07-04"]);
    expect(all(doc[0]!, "Surname")).toEqual(["CURIE"]);
  }
  for (const body of responses) expect(body).not.toContain(DOC_NUMBER);
  for (const line of t.logs) expect(line).not.toContain(DOC_NUMBER);
  const db = await databaseText(t.gw.store, t.dataDir);
  // The scan reads what was written: the order is there, its document number is not.
  expect(db).toContain(orderIdOf(created.body));
  expect(db).not.toContain(DOC_NUMBER);
});

test("a stored document whose type the airline cannot name is omitted with warning identity_document_not_shown", async () => {
  const shopped = await shopOffer(t, { n: 2 });
  // "P" is in PADIS 7365 (a processing indicator), so it is accepted, but it names no document.
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "NOETHER", doc: { number: DOC_NUMBER, type: "P" } }], correlationId: "PII-2", trxId: "T1" }));
  expect(r.status).toBe(200);
  expect(blocks(r.body, "IdentityDoc")).toHaveLength(0);
  expect(all(blocks(r.body, "Warning")[0] ?? "", "Code")).toEqual(["identity_document_not_shown"]);
  expect(r.body).not.toContain(DOC_NUMBER);
  const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(r.body)));
  expect(read.body).toContain("identity_document_not_shown");
});
