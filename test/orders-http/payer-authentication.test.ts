import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CATALOGUE } from "@ndc/errors";
import { paymentCardAuthentications as A } from "@ndc/payments";
import { eq } from "drizzle-orm";
import { errorCode, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { tablesHolding } from "../support/stored-rows";
import { assertSchemaValid } from "../support/xsd";
import { all, blocks } from "../shopping/shop-requests";
import { decimal, gateway, orderCreateRQ, orderIdOf, shopOffer, type Shopped } from "./helpers";

/**
 * Issue 20 item 4, PAY3D2: the seller authenticates the payer with 3-D Secure 2 and sends the
 * results with the card (PaymentCard/SecurePaymentVersion2). The simulated PSP tells an
 * authenticated payment from one it would challenge (authentication_required) or refuse
 * (authentication_failed); the results are kept with the leg and the authentication value is
 * never echoed or logged. Requests are checked against IATA's XSDs, every answer too.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** A CAVV-shaped value (28 base64 characters) distinctive enough that finding it anywhere is a leak. */
const CAVV = "AAABCZIhcQAAAABZlyFxQ3DSxyz=";
const DS_TRX_ID = "f25084f0-5b16-4c0a-ae5d-b24808a95e4b";

interface Secure {
  eci: string;
  value?: string;
  status?: string;
  protocol?: string;
}

/** A card PaymentFunctions with the 3-D Secure 2 results, in the schema's order (SecurePaymentVersion2 before TokenizedCardID). */
function cardPf(token: string, amountMinor: number, s?: Secure, o: { orderId?: string; v1?: boolean } = {}): string {
  const v2 = s
    ? `<cns:SecurePaymentVersion2>${s.value ? `<cns:AuthenticationValue>${s.value}</cns:AuthenticationValue>` : ""}<cns:DirectoryServerTrxID>${DS_TRX_ID}</cns:DirectoryServerTrxID><cns:ElectronicCommerceInd>${s.eci}</cns:ElectronicCommerceInd><cns:ProgramProtocolText>${s.protocol ?? "2.2.0"}</cns:ProgramProtocolText>${s.status ? `<cns:TrxStatusText>${s.status}</cns:TrxStatusText>` : ""}</cns:SecurePaymentVersion2>`
    : "";
  const v1 = o.v1 ? `<cns:SecurePaymentVersion1><cns:PayerAuthenticationResponseText>eJzVWF</cns:PayerAuthenticationResponseText></cns:SecurePaymentVersion1>` : "";
  const assoc = o.orderId ? `<cns:OrderAssociation><cns:OrderRefID>${o.orderId}</cns:OrderRefID></cns:OrderAssociation>` : "";
  return `<cns:PaymentFunctions>${assoc}<cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">${decimal(amountMinor)}</cns:Amount><cns:PaymentMethod><cns:PaymentCard>${v1}${v2}<cns:TokenizedCardID>${token}</cns:TokenizedCardID></cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
}

function create(shopped: Shopped, id: string, token: string, s?: Secure, o: { v1?: boolean } = {}): string {
  const rq = orderCreateRQ({ shopped, correlationId: `3DS-${id}`, trxId: "TRX-1", paymentFunctionsXml: cardPf(token, shopped.totalMinor, s, o) });
  assertSchemaValid(rq);
  return rq;
}

function pay(orderId: string, amountMinor: number, token: string, trxId: string, s?: Secure): string {
  const rq = ndcRequest("OrderChangeRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>${cardPf(token, amountMinor, s, { orderId })}`, correlationId: `3DS-PAY-${orderId}`, trxId });
  assertSchemaValid(rq);
  return rq;
}

const statusOf = (body: string) => all(blocks(body, "Order")[0]!, "StatusCode").at(-1);
const warningCodes = (body: string) => blocks(body, "Warning").map((w) => all(w, "Code")[0]);
const authRows = (legId: string) => t.gw.store.db.select().from(A).where(eq(A.legId, legId));
const capturedIds = (body: string) => blocks(body, "PaymentFunctions").filter((pf) => all(pf, "PaymentStatusCode")[0] === "CAPTURED").map((pf) => all(pf, "PaymentID")[0]!);

test("discovery advertises PAY3D2", async () => {
  const res = await t.fetch("/24.4");
  expect(((await res.json()) as { capabilities: string[] }).capabilities).toContain("PAY3D2");
});

describe("OrderCreateRQ with a card whose issuer requires 3-D Secure", () => {
  test("without the results: held, declined authentication_required with the catalogue's advice", async () => {
    const shopped = await shopOffer(t, { n: 0 });
    const r = await t.ndc("OrderCreateRQ", create(shopped, "NONE", "tok_3ds_required_visa"));
    expect(r.status).toBe(200);
    expect(statusOf(r.body)).toBe("PAYMENT_DECLINED");
    expect(warningCodes(r.body)).toContain("authentication_required");
    expect(r.body).toContain(CATALOGUE.authentication_required.text);
  });

  test("authenticated (ECI 05, authentication value): booked, the results kept with the leg, the value nowhere else", async () => {
    const shopped = await shopOffer(t, { n: 1 });
    t.logs.length = 0;
    const r = await t.ndc("OrderCreateRQ", create(shopped, "OK", "tok_3ds_required_visa", { eci: "05", value: CAVV, status: "Y" }));
    expect(r.status).toBe(200);
    expect(statusOf(r.body)).toBe("BOOKED");
    const [legId] = capturedIds(r.body);
    expect(await authRows(legId!)).toEqual([
      { legId: legId!, eci: "05", authenticationValue: CAVV, protocolVersion: "2.2.0", dsTrxId: DS_TRX_ID, trxStatus: "Y", createdAt: expect.any(Number) },
    ]);
    // Stored, not echoed: not in the answer, not in a log line, in no other table (the PSP judged it and kept its answer only).
    expect(r.body).not.toContain(CAVV);
    expect(t.logs.join("\n")).not.toContain(CAVV);
    expect(await tablesHolding(t.gw.store, CAVV)).toEqual(["payment_card_authentications"]);
  });

  test("Mastercard authenticated (ECI 02): booked", async () => {
    const shopped = await shopOffer(t, { n: 2 });
    const r = await t.ndc("OrderCreateRQ", create(shopped, "MC", "tok_3ds_required_mastercard", { eci: "02", value: CAVV }));
    expect(statusOf(r.body)).toBe("BOOKED");
  });

  test("a frictionless failure (ECI 07, status N, no value) is refused on any card: authentication_failed", async () => {
    for (const [i, token] of ["tok_3ds_required_visa", "tok_approve_visa"].entries()) {
      const shopped = await shopOffer(t, { n: 3 + i });
      const r = await t.ndc("OrderCreateRQ", create(shopped, `FAIL-${i}`, token, { eci: "07", status: "N" }));
      expect(r.status).toBe(200);
      expect(statusOf(r.body)).toBe("PAYMENT_DECLINED");
      expect(warningCodes(r.body)).toContain("authentication_failed");
    }
  });

  test("an authenticated ECI without the authentication value proves nothing: authentication_failed", async () => {
    const shopped = await shopOffer(t, { n: 5 });
    const r = await t.ndc("OrderCreateRQ", create(shopped, "NOVALUE", "tok_3ds_required_visa", { eci: "05" }));
    expect(warningCodes(r.body)).toContain("authentication_failed");
  });
});

describe("malformed results are refused naming the element, never quoting the value", () => {
  const at = "Request/PaymentFunctions[1]/PaymentProcessingDetails/PaymentMethod/PaymentCard";
  const refused = async (rq: string, tag: string) => {
    const r = await t.ndc("OrderCreateRQ", rq);
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(all(r.body, "TagText")[0]).toBe(tag);
    return r.body;
  };

  test("an ECI that is not two digits", async () => {
    const shopped = await shopOffer(t, { n: 6 });
    await refused(create(shopped, "BADECI", "tok_3ds_required_visa", { eci: "5", value: CAVV }), `${at}/SecurePaymentVersion2/ElectronicCommerceInd`);
  });

  test("an authentication value that is no cryptogram", async () => {
    const shopped = await shopOffer(t, { n: 6 });
    const body = await refused(create(shopped, "BADCAVV", "tok_3ds_required_visa", { eci: "05", value: "not%a%cryptogram" }), `${at}/SecurePaymentVersion2/AuthenticationValue`);
    expect(body).not.toContain("not%a%cryptogram");
  });

  test("3-D Secure 1 results", async () => {
    const shopped = await shopOffer(t, { n: 6 });
    await refused(create(shopped, "V1", "tok_3ds_required_visa", undefined, { v1: true }), `${at}/SecurePaymentVersion1`);
  });
});

test("OrderChangeRQ pays a held order with the results; without them the issuer's card is declined again", async () => {
  const shopped = await shopOffer(t, { n: 7 });
  const created = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "3DS-HELD", trxId: "TRX-1" }));
  const orderId = orderIdOf(created.body);
  expect(statusOf(created.body)).toBe("ORDWPM");

  const without = await t.ndc("OrderChangeRQ", pay(orderId, shopped.totalMinor, "tok_3ds_required_visa", "pay-1"));
  expect(without.status).toBe(200);
  expect(statusOf(without.body)).toBe("PAYMENT_DECLINED");
  expect(warningCodes(without.body)).toContain("authentication_required");

  t.logs.length = 0;
  const paid = await t.ndc("OrderChangeRQ", pay(orderId, shopped.totalMinor, "tok_3ds_required_visa", "pay-2", { eci: "06", value: CAVV, status: "A" }));
  expect(paid.status).toBe(200);
  expect(statusOf(paid.body)).toBe("BOOKED");
  const [legId] = capturedIds(paid.body);
  expect((await authRows(legId!)).map((a) => [a.eci, a.trxStatus, a.authenticationValue])).toEqual([["06", "A", CAVV]]);
  expect(paid.body).not.toContain(CAVV);
  expect(t.logs.join("\n")).not.toContain(CAVV);
});
