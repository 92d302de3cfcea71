import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CATALOGUE } from "@ndc/errors";
import { DECLINE_REASONS, TEST_TOKENS } from "@ndc/payments";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { gateway, orderCreateRQ, orderIdOf, shopOffer } from "./helpers";
import { paymentRetryRQ } from "./order-list-helpers";

/**
 * The PSP's decline reason reaches the seller and the log (issue 7 item 16): each test token
 * that declines gives a held order whose Warning Code is the PSP's reason (a catalogue warning
 * with what to do), never one generic warning; the request log line carries the same reason.
 * Every XML answer is XSD-checked by the test gateway.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const DECLINING = Object.entries(TEST_TOKENS).filter(([, v]) => v.behaviour === "decline");
const requestLines = () => t.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "request");

function declineWarning(body: string): { code: string; desc: string; tag: string; type: string } {
  const w = blocks(body, "Warning").find((b) => !all(b, "Code")[0]!.startsWith("identity"));
  expect(w).toBeDefined();
  return { code: all(w!, "Code")[0]!, desc: all(w!, "DescText")[0]!, tag: all(w!, "TagText")[0]!, type: all(w!, "TypeCode")[0]! };
}

describe("OrderCreateRQ with a declined card", () => {
  test("every decline reason has a test token, and the catalogue gives each an English text", () => {
    // The 3-D Secure reasons come from approving cards whose issuer requires authentication (test/orders-http/payer-authentication.test.ts).
    const threeDs = ["authentication_required", "authentication_failed"];
    expect(DECLINING.map(([, v]) => v.reason).sort()).toEqual(DECLINE_REASONS.filter((r) => r !== "unknown_token" && !threeDs.includes(r)).sort());
    for (const r of DECLINE_REASONS) expect(CATALOGUE[r]).toMatchObject({ status: 200, kind: "warning" });
  });

  for (const [token, { reason, brand, lastFour }] of DECLINING) {
    test(`${token}: the held order's Warning names ${reason}, and so does the log line`, async () => {
      const shopped = await shopOffer(t, { n: DECLINING.findIndex(([k]) => k === token) + 1 });
      const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token, amountMinor: shopped.totalMinor }], correlationId: `OC-${token}`, trxId: "TRX-1" });
      t.logs.length = 0;
      const r = await t.ndc("OrderCreateRQ", rq);
      expect(r.status).toBe(200);
      expect(r.body).toContain("<cns:StatusCode>PAYMENT_DECLINED</cns:StatusCode>");
      const w = declineWarning(r.body);
      expect(w.code).toBe(reason!);
      expect(w.desc).toBe(`${CATALOGUE[reason!].text} The order is held until its payment time limit.`);
      expect(w.tag).toBe("PaymentFunctions");
      expect(w.type).toBe("warning");
      // PAYSUM still shows which card failed, masked.
      const pf = blocks(r.body, "PaymentFunctions");
      expect(all(pf[0]!, "PaymentStatusCode")[0]).toBe("DECLINED");
      expect(all(pf[0]!, "CardBrandCode")[0]).toBe(brand);
      expect(all(pf[0]!, "MaskedCardID")[0]).toEndWith(lastFour);
      // ...and never says it paid: a declined leg took nothing.
      expect(all(pf[0]!, "DescText")[0]).toStartWith(`Declined, nothing taken: Card ${brand} ending ${lastFour}:`);
      const line = requestLines().at(-1);
      expect(line).toMatchObject({ message: "OrderCreateRQ", status: 200, errorCode: "payment_declined", declineReason: reason });
      expect(line.correlationId).toBe(`OC-${token}`);

      // The stored answer is replayed byte for byte, and its log line says the same.
      t.logs.length = 0;
      const again = await t.ndc("OrderCreateRQ", rq);
      expect(again.body).toBe(r.body);
      expect(requestLines().at(-1)).toMatchObject({ status: 200, errorCode: "payment_declined", declineReason: reason });
      expect(orderIdOf(again.body)).toBe(orderIdOf(r.body));
    });
  }

  test("tok_decline and tok_decline_insufficient_funds no longer answer the same warning", async () => {
    const codes: string[] = [];
    for (const [i, token] of ["tok_decline", "tok_decline_insufficient_funds"].entries()) {
      const shopped = await shopOffer(t, { n: 10 + i });
      const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token, amountMinor: shopped.totalMinor }], correlationId: `OC-PAIR-${i}`, trxId: "TRX-1" }));
      codes.push(declineWarning(r.body).code);
    }
    expect(codes).toEqual(["do_not_honour", "insufficient_funds"]);
  });

  test("a token the PSP does not hold: unknown_token", async () => {
    const shopped = await shopOffer(t, { n: 12 });
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_nobody_has_this", amountMinor: shopped.totalMinor }], correlationId: "OC-UNKNOWN-TOKEN", trxId: "TRX-1" }));
    expect(r.status).toBe(200);
    expect(declineWarning(r.body).code).toBe("unknown_token");
  });
});

test("OrderChangeRQ: a declined retry names the new reason; a later approval clears the warning", async () => {
  const shopped = await shopOffer(t, { n: 13 });
  const created = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_decline", amountMinor: shopped.totalMinor }], correlationId: "OC-RETRY", trxId: "TRX-1" }));
  expect(declineWarning(created.body).code).toBe("do_not_honour");
  const orderId = orderIdOf(created.body);
  const amount = (shopped.totalMinor / 100).toFixed(2);
  t.logs.length = 0;
  const expired = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, amount, "tok_decline_expired_card", { trxId: "retry-1" }));
  expect(expired.status).toBe(200);
  expect(expired.body).toContain("<cns:StatusCode>PAYMENT_DECLINED</cns:StatusCode>");
  expect(declineWarning(expired.body).code).toBe("expired_card");
  expect(requestLines().at(-1)).toMatchObject({ message: "OrderChangeRQ", status: 200, errorCode: "payment_declined", declineReason: "expired_card" });
  t.logs.length = 0;
  const paid = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, amount, "tok_approve_visa", { trxId: "retry-2" }));
  expect(paid.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  expect(blocks(paid.body, "Warning").map((w) => all(w, "Code")[0])).not.toContain("expired_card");
  // PAYSUM tells the legs apart: the two declined cards took nothing, the approved one paid.
  const summary = blocks(paid.body, "PaymentFunctions").map((pf) => [all(pf, "PaymentStatusCode")[0], all(pf, "DescText")[0]!.split(":")[0]]);
  expect(summary).toEqual(expect.arrayContaining([["DECLINED", "Declined, nothing taken"], ["CAPTURED", "Paid by Card VI ending 4242"]]));
  expect(summary.filter(([status]) => status === "DECLINED")).toHaveLength(2);
  const line = requestLines().at(-1);
  expect(line.status).toBe(200);
  expect(line.errorCode).toBeUndefined();
  expect(line.declineReason).toBeUndefined();
});
