import { afterAll, beforeAll, expect, test } from "bun:test";
import { tables } from "@ndc/store";
import { paymentSummary, seedPayments, SANDBOX_VOUCHERS, TEST_TOKENS } from "@ndc/payments";
import { eur, harness, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness("payments-mask");
});
afterAll(async () => {
  await h.close();
});

test("PAYSUM views: card brand, last four and PSP reference; masked voucher; settlement form; points and masked member", async () => {
  const r = await h.payments.authoriseAll("ORD-M", "sale", [
    { kind: "card", token: "tok_approve_mastercard", amount: eur(1000) },
    { kind: "voucher", code: "VCH-SANDBOX-EUR-0100", amount: eur(500) },
    { kind: "settlement", agencyId: "SANDBOX-AGENCY", amount: eur(300) },
    { kind: "loyalty", programme: "XB", memberAccount: "XB1000000001", certificateId: "900000000002", amount: eur(200) },
  ], "m-auth");
  expect(r.status).toBe("authorised");
  await h.payments.captureAll("ORD-M", "m-cap");
  const views = (await h.payments.ledger.legs("ORD-M")).map(paymentSummary);
  expect(views[0]).toMatchObject({ kind: "card", brand: "CA", lastFour: "4444", captured: eur(1000) });
  expect((views[0] as { pspReference: string }).pspReference).toMatch(/^PSP[0-9A-F]{20}$/);
  expect(views[1]).toMatchObject({ kind: "voucher", maskedVoucher: "****************0100" });
  expect(views[2]).toMatchObject({ kind: "settlement", method: "CA", methodName: "BSP cash" });
  expect(views[3]).toMatchObject({ kind: "loyalty", points: 200, maskedMemberAccount: "********0001" });
  const text = JSON.stringify(views);
  expect(text).not.toContain("VCH-SANDBOX");
  expect(text).not.toContain("XB1000000001");
});

test("seedPayments is idempotent and keeps what was spent", async () => {
  await seedPayments(h.store);
  await seedPayments(h.store);
  const vouchers = await h.store.db.select().from(tables.vouchers);
  expect(vouchers).toHaveLength(SANDBOX_VOUCHERS.length);
  expect(vouchers.find((v) => v.code === "VCH-SANDBOX-EUR-0100")!.balance).toBe(10_000 - 500);
  expect((await h.store.db.select().from(tables.loyaltyCertificates)).find((c) => c.certificateId === "900000000002")!.state).toBe("redeemed");
});

test("every documented test token is in docs/payments.md", async () => {
  const doc = await Bun.file(new URL("../../docs/payments.md", import.meta.url)).text();
  for (const token of Object.keys(TEST_TOKENS)) expect(doc).toContain(token);
  for (const v of SANDBOX_VOUCHERS) expect(doc).toContain(v.code);
});
