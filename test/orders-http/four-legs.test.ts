import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "./helpers";

/**
 * Spec 4.4 rules 4-6, 2.5: the four leg kinds in one order (points, voucher, settlement plan,
 * card token), authorised together and captured after booking; PAYSUM shows each masked.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const MEMBER = "XB1000000001";

test("points + voucher + settlement plan + card: Booked, every leg captured, PAYSUM masked", async () => {
  const shopped = await shopOffer(t);
  const points = 5_000; // 50.00 EUR = 5,000 points at the programme's rate (docs/payments.md)
  const voucher = 2_500;
  const settlement = 1_000;
  const card = shopped.totalMinor - points - voucher - settlement;
  expect(card).toBeGreaterThan(0);
  const r = await t.ndc(
    "OrderCreateRQ",
    orderCreateRQ({
      shopped,
      legs: [
        { kind: "loyalty", account: MEMBER, certificate: "900000000001", amountMinor: points },
        { kind: "voucher", code: "VCH-SANDBOX-EUR-0025", amountMinor: voucher },
        { kind: "settlement", method: "CA", amountMinor: settlement },
        { kind: "card", token: "tok_approve_visa", amountMinor: card },
      ],
      seller: t.gw.sandbox!.iata_number,
      correlationId: "LEGS-4",
      trxId: "T1",
    }),
  );
  expect(r.status).toBe(200);
  expect(all(r.body, "StatusCode")).toContain("BOOKED");
  const ledger = blocks(r.body, "PaymentFunctions");
  expect(ledger.length).toBe(4);
  // The member account and the voucher code are shown masked, never whole.
  expect(r.body).not.toContain(MEMBER);
  expect(r.body).not.toContain("VCH-SANDBOX-EUR-0025");
  const again = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(r.body)));
  expect(blocks(again.body, "PaymentFunctions").length).toBe(4);
});

test("a spent certificate declines its leg and every other authorised leg is voided: the order is held", async () => {
  const shopped = await shopOffer(t, { n: 2 });
  const r = await t.ndc(
    "OrderCreateRQ",
    orderCreateRQ({
      shopped,
      legs: [
        { kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor - 1_000 },
        { kind: "loyalty", account: MEMBER, certificate: "900000000001", amountMinor: 1_000 },
      ],
      correlationId: "LEGS-5",
      trxId: "T1",
    }),
  );
  expect(r.status).toBe(200);
  expect(all(r.body, "StatusCode")).toContain("PAYMENT_DECLINED");
  expect(errorCode(r.body) ?? "").not.toBe("internal_error");
});

test("a settlement plan naming another agency is refused: it pays through the seller's own account only", async () => {
  const shopped = await shopOffer(t, { n: 3 });
  const xml = orderCreateRQ({
    shopped,
    legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }],
    correlationId: "LEGS-6",
    trxId: "T1",
  }).replace("<cns:PaymentTypeCode>CA</cns:PaymentTypeCode>", "<cns:IATA_Number>12345678</cns:IATA_Number><cns:PaymentTypeCode>CA</cns:PaymentTypeCode>");
  const r = await t.ndc("OrderCreateRQ", xml);
  expect(r.status).toBe(403);
  expect(errorCode(r.body)).toBe("seller_not_authorised");
  expect(all(r.body, "TagText")[0]).toContain("SettlementPlan");
});

test("a settlement refusal is not the stored answer: the same CorrelationID and TrxID with the seller's own account then books", async () => {
  // The seller's terms are settled before the idempotent section (OrdersService.withSellerTerms,
  // docs/decisions/0010-order-boundaries.md): were the refusal stored, the corrected body would be
  // refused as another request under the same ids.
  const shopped = await shopOffer(t, { n: 3 });
  const ask = { shopped, legs: [{ kind: "settlement" as const, method: "CA" as const, amountMinor: shopped.totalMinor }], correlationId: "LEGS-6B", trxId: "T1" };
  const naming = (iata: string) => orderCreateRQ(ask).replace("<cns:PaymentTypeCode>CA</cns:PaymentTypeCode>", `<cns:IATA_Number>${iata}</cns:IATA_Number><cns:PaymentTypeCode>CA</cns:PaymentTypeCode>`);
  expect(errorCode((await t.ndc("OrderCreateRQ", naming("12345678"))).body)).toBe("seller_not_authorised");
  const own = await t.ndc("OrderCreateRQ", naming(t.gw.sandbox!.iata_number));
  // An order (booked, or held if the account's headroom is short), not a refusal of the ids.
  expect(own.status).toBe(200);
  expect(all(own.body, "OrderID").length).toBeGreaterThan(0);
});
