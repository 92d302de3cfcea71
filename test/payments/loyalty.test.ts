import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { eq } from "drizzle-orm";
import { tables } from "@ndc/store";
import { issueCertificate, pointsNeeded, pointsValue } from "@ndc/payments";
import type { CurrencyCode } from "@ndc/money";
import { eur, harness, refundAsSagasDo, refusal, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness("payments-loyalty");
});
afterAll(async () => {
  await h.close();
});

const points = (memberAccount: string, certificateId: string, amount = eur(1000), programme = "XB") =>
  ({ kind: "loyalty", programme, memberAccount, certificateId, amount }) as const;

test("redemption rate rounding: points needed round up, value of points rounds down", () => {
  expect(pointsNeeded(eur(1234))).toBe(1234); // 100 points per EUR
  expect(pointsNeeded({ amount: 1, currency: "USD" })).toBe(1); // 0.9 point -> 1
  expect(pointsNeeded({ amount: 101, currency: "JPY" })).toBe(71); // 70.7 -> 71
  expect(pointsValue(71, "JPY")).toEqual({ amount: 101, currency: "JPY" }); // 101.43 -> 101
  expect(pointsValue(1, "USD")).toEqual({ amount: 1, currency: "USD" }); // 1.11 cents -> 1
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom<CurrencyCode>("EUR", "USD", "GBP", "JPY", "AED", "BRL"), (amount, currency) => {
      const p = pointsNeeded({ amount, currency });
      expect(pointsValue(p, currency).amount).toBeGreaterThanOrEqual(amount);
      expect(pointsValue(p - 1, currency).amount).toBeLessThan(amount);
      expect(pointsNeeded(pointsValue(amount, currency))).toBeLessThanOrEqual(amount);
    }),
  );
});

test("a certificate is bound to the member who issued it", async () => {
  const other = await h.payments.ledger.authorise("ORD-L1", "sale", points("XB1000000002", "900000000001"), "l1-a");
  expect(other).toMatchObject({ status: "declined", code: "loyalty_certificate_invalid" });
  const unknown = await h.payments.ledger.authorise("ORD-L1", "sale", points("XB1000000001", "CERT-NOPE"), "l1-b");
  expect(unknown).toMatchObject({ status: "declined", code: "loyalty_certificate_invalid" });
  const expired = await h.payments.ledger.authorise("ORD-L1", "sale", points("XB1000000001", "900000000099"), "l1-c");
  expect(expired).toMatchObject({ status: "declined", code: "loyalty_certificate_invalid" });
  const foreign = await h.payments.ledger.authorise("ORD-L1", "sale", points("XB1000000001", "900000000001", eur(1000), "LH"), "l1-d");
  expect(foreign).toMatchObject({ status: "declined", code: "loyalty_programme_not_accepted" });
});

test("a certificate is used once; its points are spent at capture and given back by a refund", async () => {
  const a = await h.payments.ledger.authorise("ORD-L2", "sale", points("XB1000000001", "900000000001", eur(12_345)), "l2-a");
  expect(a.leg).toMatchObject({ state: "authorised", points: 12_345 });
  const again = await h.payments.ledger.authorise("ORD-L3", "sale", points("XB1000000001", "900000000001", eur(100)), "l2-b");
  expect(again).toMatchObject({ status: "declined", code: "loyalty_certificate_invalid" });
  await h.payments.ledger.capture(a.leg.legId, "l2-cap");
  const member = async () => (await h.store.db.select().from(tables.loyaltyAccounts).where(eq(tables.loyaltyAccounts.memberAccount, "XB1000000001")))[0]!;
  expect(await member()).toMatchObject({ points: 100_000 - 12_345, pending: 0 });
  const after = await h.payments.ledger.authorise("ORD-L3", "sale", points("XB1000000001", "900000000001", eur(100)), "l2-c");
  expect(after).toMatchObject({ status: "declined", code: "loyalty_certificate_invalid" });
  await refundAsSagasDo(h.payments, "ORD-L2", eur(5000), "l2-rf1")();
  expect((await member()).points).toBe(100_000 - 12_345 + 5000);
  await refundAsSagasDo(h.payments, "ORD-L2", eur(7345), "l2-rf2")();
  expect((await member()).points).toBe(100_000);
});

test("points are checked against the certificate and the member's free points", async () => {
  // 900000000003 carries 10,000 points but its member holds 2,000.
  const r = await h.payments.ledger.authorise("ORD-L4", "sale", points("XB1000000002", "900000000003", eur(2001)), "l4-a");
  expect(r).toMatchObject({ status: "declined", code: "loyalty_points_insufficient" });
  await issueCertificate(h.store, { certificateId: "CERT-T-SMALL", memberAccount: "XB1000000002", points: 500, expiresAt: h.clock.now() + 1e9, issuedAt: h.clock.now() });
  const over = await h.payments.ledger.authorise("ORD-L4", "sale", points("XB1000000002", "CERT-T-SMALL", eur(501)), "l4-b");
  expect(over).toMatchObject({ status: "declined", code: "loyalty_points_insufficient" });
  expect(await refusal(issueCertificate(h.store, { certificateId: "CERT-T-X", memberAccount: "XB-NOBODY", points: 5, expiresAt: 0, issuedAt: 0 }))).toBe("loyalty_certificate_invalid");
});
