import { expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { chargeCommission, commissionBase, saleCommission, type CommissionAgreement } from "@ndc/payments";
import { convert } from "@ndc/supply";
import { eur } from "./helpers";

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof GatewayError) return e.code;
    throw e;
  }
  return "ok";
};

const pct: CommissionAgreement = { kind: "percentage", basisPoints: 750 };
const tiered: CommissionAgreement = { kind: "tiered", currency: "EUR", tiers: [{ from: 0, basisPoints: 300 }, { from: 100_000, basisPoints: 500 }, { from: 500_000, basisPoints: 800 }] };
const flat: CommissionAgreement = { kind: "flat", amount: eur(1500) };

test("sale commission is computed on the order total including surcharges", () => {
  const total = commissionBase(eur(40_000), { surcharges: [eur(2_000), eur(1_333)], discounts: [eur(1_000)] });
  expect(total).toEqual(eur(42_333));
  // 7.5% of 423.33 = 31.74975 -> 31.75 (half away from zero, exact integers).
  expect(saleCommission(pct, total)).toMatchObject({ amount: eur(3_175), basis: eur(42_333) });
  expect(saleCommission(pct, commissionBase(eur(40_000))).amount).toEqual(eur(3_000));
});

test("tiered: the tier reached by the amount applies to the whole amount", () => {
  expect(saleCommission(tiered, eur(99_999)).amount).toEqual(eur(3_000)); // 3% of 999.99 = 29.9997 -> 30.00
  expect(saleCommission(tiered, eur(100_000)).amount).toEqual(eur(5_000));
  expect(saleCommission(tiered, eur(600_000)).amount).toEqual(eur(48_000));
  // A sale in another currency compares its total with the EUR thresholds converted to its currency.
  const threshold = convert(eur(100_000), "USD").amount;
  expect(saleCommission(tiered, { amount: threshold - 1, currency: "USD" }).amount.amount).toBe(Math.round(((threshold - 1) * 3) / 100));
  expect(saleCommission(tiered, { amount: threshold, currency: "USD" }).amount).toEqual({ amount: Math.round((threshold * 5) / 100), currency: "USD" });
  const gbpTiers: CommissionAgreement = { kind: "tiered", currency: "GBP", tiers: [{ from: 0, basisPoints: 300 }] };
  expect(code(() => saleCommission(gbpTiers, { amount: 1000, currency: "USD" }))).toBe("commission_rule_not_applicable");
});

test("flat: the agreement's amount on a sale", () => {
  expect(saleCommission(flat, eur(99_000)).amount).toEqual(eur(1_500));
});

test("post-sale charges: percentage or tier on the charge's own amount; flat and foreign-currency tiers refused", () => {
  expect(chargeCommission(pct, eur(5_000)).amount).toEqual(eur(375));
  expect(chargeCommission(tiered, eur(5_000)).amount).toEqual(eur(150));
  expect(code(() => chargeCommission(flat, eur(5_000)))).toBe("commission_rule_not_applicable");
  expect(code(() => chargeCommission(tiered, { amount: 5_000, currency: "GBP" }))).toBe("commission_rule_not_applicable");
  expect(chargeCommission(pct, { amount: 5_000, currency: "GBP" }).amount).toEqual({ amount: 375, currency: "GBP" });
});
