import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SANDBOX_AGENCY } from "@ndc/payments";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "./helpers";

/**
 * OrderCreateRQ and OrderRetrieveRQ end to end (spec 4.4, 4.7): shop over HTTP, book what was
 * shopped, read it back. Every XML answer is XSD-checked by the test gateway.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

describe("OrderCreateRQ", () => {
  test("a card token leg books the order; OrderViewRS shows PAYSUM; OrderRetrieveRQ reads the same order", async () => {
    const shopped = await shopOffer(t, { pax: 2, seat: true });
    const rq = orderCreateRQ({
      shopped,
      pax: [
        { id: "PAX1", surname: "HOPPER", given: "Grace", email: "grace@example.test" },
        { id: "PAX2", surname: "LOVELACE", given: "Ada" },
      ],
      legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }],
      correlationId: "OC-BOOK-1",
      trxId: "TRX-1",
    });
    const r = await t.ndc("OrderCreateRQ", rq);
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const orderId = orderIdOf(r.body);
    expect(orderId).toMatch(/^ORD-/);
    // PAYSUM: brand, last four, PSP reference, captured after booking.
    const pf = blocks(r.body, "PaymentFunctions");
    expect(pf).toHaveLength(1);
    expect(all(pf[0]!, "CardBrandCode")[0]).toBe("VI");
    expect(all(pf[0]!, "MaskedCardID")[0]).toMatch(/^X+\d{4}$/);
    expect(all(pf[0]!, "TrxID")[0]!.length).toBeGreaterThan(0);
    expect(all(pf[0]!, "PaymentStatusCode")[0]).toBe("CAPTURED");
    expect(all(pf[0]!, "Amount")[0]).toBe((shopped.totalMinor / 100).toFixed(2));
    // Names come from the order; one seat per passenger.
    expect(r.body).toContain("HOPPER");
    expect(r.body).toContain("LOVELACE");
    expect(blocks(r.body, "SeatOnLeg")).toHaveLength(2);
    expect(r.body).toContain("grace@example.test");
    expect(all(r.body, "OrderVersionNumber")[0]).toMatch(/^\d+$/);

    const again = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId, { correlationId: "OR-1" }));
    expect(again.status).toBe(200);
    expect(orderIdOf(again.body)).toBe(orderId);
    expect(all(again.body, "TotalAmount").at(-1)).toBe((shopped.totalMinor / 100).toFixed(2));
    expect(blocks(again.body, "PaymentFunctions")).toHaveLength(1);
  });

  test("card, voucher and settlement plan legs together (PAYMIX) book the order; PAYSUM lists each masked", async () => {
    const shopped = await shopOffer(t, { n: 4 });
    const voucher = 2_500;
    const settlement = 5_000;
    const card = shopped.totalMinor - voucher - settlement;
    const r = await t.ndc(
      "OrderCreateRQ",
      orderCreateRQ({
        shopped,
        legs: [
          { kind: "voucher", code: "VCH-SANDBOX-EUR-0025", amountMinor: voucher },
          { kind: "settlement", method: "CA", amountMinor: settlement },
          { kind: "card", token: "tok_approve_visa", amountMinor: card },
        ],
        correlationId: "OC-MIX-1",
        trxId: "TRX-1",
        seller: SANDBOX_AGENCY,
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    const pf = blocks(r.body, "PaymentFunctions");
    expect(pf).toHaveLength(3);
    const voucherIds = pf.flatMap((p) => all(p, "VoucherID"));
    expect(voucherIds).toHaveLength(1);
    expect(voucherIds[0]).toMatch(/^\*+0025$/);
    expect(r.body).not.toContain("VCH-SANDBOX-EUR-0025");
    expect(pf.flatMap((p) => all(p, "PaymentTypeCode"))).toEqual(["CA"]);
    expect(pf.flatMap((p) => all(p, "CardBrandCode"))).toEqual(["VI"]);
    for (const p of pf) expect(all(p, "PaymentStatusCode")[0]).toBe("CAPTURED");
  });

  test("without PaymentFunctions the order is held unpaid (ORDWPM) with a payment time limit", async () => {
    const shopped = await shopOffer(t, { n: 1 });
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "OC-HOLD-1", trxId: "TRX-1" }));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>ORDWPM</cns:StatusCode>");
    const limit = all(r.body, "PaymentTimeLimitDateTime")[0]!;
    expect(Date.parse(limit)).toBeGreaterThan(Date.UTC(2026, 10, 21, 9, 0, 0));
    expect(blocks(r.body, "PaymentFunctions")).toHaveLength(0);
  });

  test("AcceptOrderItemList (CreateOrderItem with OwnerCode) books the flight items too", async () => {
    const shopped = await shopOffer(t, { n: 2 });
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, itemList: true, correlationId: "OC-ITEMS-1", trxId: "TRX-1" }));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>ORDWPM</cns:StatusCode>");
  });

  test("a declined card holds the order with the decline shown", async () => {
    const shopped = await shopOffer(t, { n: 3 });
    const r = await t.ndc(
      "OrderCreateRQ",
      orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_decline", amountMinor: shopped.totalMinor }], correlationId: "OC-DECL-1", trxId: "TRX-1" }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>PAYMENT_DECLINED</cns:StatusCode>");
    expect(r.body).toContain("<cns:Code>do_not_honour</cns:Code>"); // the PSP's reason (docs/payments.md)
    expect(all(r.body, "PaymentTimeLimitDateTime").length).toBeGreaterThan(0);
    const pf = blocks(r.body, "PaymentFunctions");
    for (const p of pf) expect(all(p, "PaymentStatusCode")[0]).toBe("DECLINED");
  });

  test("without TrxID the request is keyed on its CorrelationID; without either, on the request itself (issue 20 item 1)", async () => {
    const shopped = await shopOffer(t);
    const noTrx = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "OC-NOTRX" }));
    expect(noTrx.status).toBe(200);
    expect(orderIdOf((await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "OC-NOTRX" }))).body)).toBe(orderIdOf(noTrx.body));
    const none = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped }));
    expect(none.status).toBe(200);
    expect(orderIdOf(none.body)).not.toBe(orderIdOf(noTrx.body));
    expect(orderIdOf((await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped }))).body)).toBe(orderIdOf(none.body));
  });

  test("an unknown offer is refused, and the refusal is what a retry gets", async () => {
    const shopped = { offerId: "OFR-NOSUCHOFFER", itemIds: ["OFR-NOSUCHOFFER-ADT"], totalMinor: 1000 };
    const first = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "OC-UNKNOWN", trxId: "TRX-1" }));
    expect(first.status).toBe(404);
    expect(errorCode(first.body)).toBe("offer_not_found");
    const second = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "OC-UNKNOWN", trxId: "TRX-1" }));
    expect(second.status).toBe(first.status);
    expect(second.body).toBe(first.body);
  });

  test("OrderRetrieveRQ for an order that does not exist: 404 order_not_found", async () => {
    const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ("ORD-DOESNOTEXIST"));
    expect(r.status).toBe(404);
    expect(errorCode(r.body)).toBe("order_not_found");
  });
});
