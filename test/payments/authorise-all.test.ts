import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { tables } from "@ndc/store";
import { declineError, type LegRequest } from "@ndc/payments";
import { eur, harness, refundAsSagasDo, refusal, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness("payments-all");
});
afterAll(async () => {
  await h.close();
});

const voucherRow = async (code: string) => (await h.store.db.select().from(tables.vouchers).where(eq(tables.vouchers.code, code)))[0]!;
const accountRow = async (id: string) => (await h.store.db.select().from(tables.settlementAccounts).where(eq(tables.settlementAccounts.accountId, id)))[0]!;
const memberRow = async (id: string) => (await h.store.db.select().from(tables.loyaltyAccounts).where(eq(tables.loyaltyAccounts.memberAccount, id)))[0]!;
const certRow = async (id: string) => (await h.store.db.select().from(tables.loyaltyCertificates).where(eq(tables.loyaltyCertificates.certificateId, id)))[0]!;

test("four legs, one declined: every authorised leg is voided with its own key and the decline reported", async () => {
  const legs: LegRequest[] = [
    { kind: "voucher", code: "VCH-SANDBOX-EUR-0100", amount: eur(2000) },
    { kind: "settlement", agencyId: "SANDBOX-AGENCY", amount: eur(3000) },
    { kind: "loyalty", programme: "XB", memberAccount: "XB1000000001", certificateId: "900000000002", amount: eur(1000) },
    { kind: "card", token: "tok_decline", amount: eur(4000) },
  ];
  const r = await h.payments.authoriseAll("ORD-DECL", "sale", legs, "decl-1");
  expect(r.status).toBe("declined");
  if (r.status !== "declined") return;
  expect(r.declinedIndex).toBe(3);
  expect(r.code).toBe("payment_declined");
  expect(r.voided.map((l) => l.state)).toEqual(["voided", "voided", "voided"]);
  expect(declineError(r).code).toBe("payment_declined");
  // Nothing stays reserved: the voucher, the credit and the points are as they were.
  expect((await voucherRow("VCH-SANDBOX-EUR-0100")).pending).toBe(0);
  expect((await accountRow("SA-SANDBOX-CA-EUR")).pending).toBe(0);
  expect((await memberRow("XB1000000001")).pending).toBe(0);
  expect((await certRow("900000000002")).state).toBe("issued");
  const voidKeys = (await h.store.db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, "ORD-DECL")))
    .filter((e) => e.type === "void")
    .map((e) => e.idempotencyKey);
  expect(voidKeys).toEqual(["decl-1/void/0", "decl-1/void/1", "decl-1/void/2"]);
  // A retry of the same call replays the answer and voids nothing twice.
  expect(await h.payments.authoriseAll("ORD-DECL", "sale", legs, "decl-1")).toEqual(r);
  // The seller retries the payment (OrderChangeRQ) with a good card: the certificate is usable again.
  const retry = await h.payments.authoriseAll("ORD-DECL", "sale", [...legs.slice(0, 3), { kind: "card", token: "tok_approve_mastercard", amount: eur(4000) }], "decl-2");
  expect(retry.status).toBe("authorised");
  const captured = await h.payments.captureAll("ORD-DECL", "decl-cap", { legIds: retry.status === "authorised" ? retry.legs.map((l) => l.legId) : [] });
  expect(captured.map((l) => l.state)).toEqual(["captured", "captured", "captured", "captured"]);
});

test("more than four legs, mixed currencies or a bad amount are refused before anything is authorised", async () => {
  const card = { kind: "card" as const, token: "tok_approve_visa", amount: eur(100) };
  expect(await refusal(() => h.payments.authoriseAll("ORD-X", "sale", [card, card, card, card, card], "x-1"))).toBe("payment_legs_invalid");
  expect(await refusal(() => h.payments.authoriseAll("ORD-X", "sale", [card, { ...card, amount: { amount: 100, currency: "USD" } }], "x-2"))).toBe("payment_legs_invalid");
  expect(await refusal(() => h.payments.authoriseAll("ORD-X", "sale", [{ ...card, amount: eur(0) }], "x-3"))).toBe("payment_legs_invalid");
  expect(await h.payments.ledger.legs("ORD-X")).toEqual([]);
});

test("time-out after success: the caller sees a timeout, a status query by key finds the authorisation", async () => {
  const out = await h.payments.ledger.authorise("ORD-TMO", "sale", { kind: "card", token: "tok_timeout_after_success", amount: eur(5000) }, "tmo-1");
  expect(out.status).toBe("unknown");
  expect(out.leg.state).toBe("authorising");
  expect(await h.payments.psp.status("tmo-1")).toMatchObject({ status: "authorised", amount: 5000 });
  // Nothing can be captured or voided while the outcome is unknown.
  expect(await refusal(h.payments.ledger.capture(out.leg.legId, "tmo-cap-early"))).toBe("payment_leg_state_invalid");
  const captured = await h.payments.reconcileLeg(out.leg.legId, "capture", "tmo-cap");
  expect(captured).toMatchObject({ state: "captured", captured: 5000, cardBrand: "VI", cardLast4: "1881" });
  expect(captured.pspReference).toMatch(/^PSP/);
});

test("authoriseAll with a timed-out leg voids it once the PSP reports the authorisation", async () => {
  const r = await h.payments.authoriseAll(
    "ORD-TMO2",
    "sale",
    [
      { kind: "card", token: "tok_approve_visa", amount: eur(1000) },
      { kind: "card", token: "tok_timeout_after_success", amount: eur(2000) },
    ],
    "tmo2",
  );
  expect(r).toMatchObject({ status: "declined", declinedIndex: 1, code: "psp_unavailable", unresolved: [] });
  const legs = await h.payments.ledger.legs("ORD-TMO2");
  expect(legs.map((l) => l.state)).toEqual(["voided", "voided"]);
  const refs = legs.map((l) => l.pspReference!);
  const psp = (await h.store.db.select().from(tables.pspSimPayments)).filter((p) => refs.includes(p.pspReference));
  expect(psp.map((p) => p.state)).toEqual(["voided", "voided"]);
});

test("a late capture under a voided reference and a second capture for one change are refused", async () => {
  const a = await h.payments.authoriseAll("ORD-LATE", "seat-1", [{ kind: "settlement", agencyId: "SANDBOX-AGENCY", amount: eur(2500) }], "late-auth");
  if (a.status !== "authorised") throw new Error("expected authorised");
  await h.payments.voidAll("ORD-LATE", "late-void", { changeRef: "seat-1" });
  expect(await refusal(h.payments.captureAll("ORD-LATE", "late-cap", { changeRef: "seat-1" }))).toBe("payment_leg_voided");
  expect(await refusal(h.payments.ledger.capture(a.legs[0]!.legId, "late-cap-leg"))).toBe("payment_leg_voided");

  const b = await h.payments.authoriseAll("ORD-LATE", "bag-1", [{ kind: "card", token: "tok_approve_visa", amount: eur(4000) }], "bag-auth");
  if (b.status !== "authorised") throw new Error("expected authorised");
  const first = await h.payments.captureAll("ORD-LATE", "bag-cap-1", { changeRef: "bag-1" });
  expect(await h.payments.captureAll("ORD-LATE", "bag-cap-1", { changeRef: "bag-1" })).toEqual(first);
  expect(await refusal(h.payments.captureAll("ORD-LATE", "bag-cap-2", { changeRef: "bag-1" }))).toBe("payment_already_captured");
  expect(await refusal(h.payments.ledger.capture(b.legs[0]!.legId, "bag-cap-3"))).toBe("payment_already_captured");
  // The PSP captured once.
  const psp = (await h.store.db.select().from(tables.pspSimPayments).where(eq(tables.pspSimPayments.pspReference, b.legs[0]!.pspReference!)))[0]!;
  expect(psp.captured).toBe(4000);
});

test("a refund goes to every leg newest first, keyed, and a retry gives nothing back twice", async () => {
  const legs: LegRequest[] = [
    { kind: "card", token: "tok_approve_visa", amount: eur(1000) },
    { kind: "voucher", code: "VCH-SANDBOX-EUR-0025", amount: eur(600) },
    { kind: "settlement", agencyId: "SANDBOX-AGENCY", amount: eur(400) },
  ];
  const voucherBefore = (await voucherRow("VCH-SANDBOX-EUR-0025")).balance;
  await h.payments.authoriseAll("ORD-RF", "sale", legs, "rf-auth");
  await h.payments.captureAll("ORD-RF", "rf-cap");
  // Through the sagas' phases (RefundPayments): the plan fixed once, the PSP paid, the shares recorded.
  const rf1 = refundAsSagasDo(h.payments, "ORD-RF", eur(1500), "rf-1");
  const r = await rf1();
  const [card, voucher, settlement] = await h.payments.ledger.legs("ORD-RF");
  expect(r).toEqual([
    { legId: settlement!.legId, amount: 400 },
    { legId: voucher!.legId, amount: 600 },
    { legId: card!.legId, amount: 500 },
  ]);
  expect([card!.state, voucher!.state, settlement!.state]).toEqual(["captured", "refunded", "refunded"]);
  expect(await rf1()).toEqual(r);
  expect((await voucherRow("VCH-SANDBOX-EUR-0025")).balance).toBe(voucherBefore);
  expect(await refusal(refundAsSagasDo(h.payments, "ORD-RF", eur(501), "rf-2")())).toBe("refund_exceeds_captured");
  expect(await refusal(refundAsSagasDo(h.payments, "ORD-RF", eur(499), "rf-1")())).toBe("idempotency_key_reused");
  await refundAsSagasDo(h.payments, "ORD-RF", eur(500), "rf-3")();
  expect((await h.payments.ledger.leg(card!.legId)).state).toBe("refunded");
  const psp = (await h.store.db.select().from(tables.pspSimPayments).where(eq(tables.pspSimPayments.pspReference, card!.pspReference!)))[0]!;
  expect(psp.refunded).toBe(1000);
});

test("voucher balance and settlement headroom count pending authorisations", async () => {
  const a = await h.payments.ledger.authorise("ORD-PEND", "sale", { kind: "voucher", code: "VCH-SANDBOX-USD-0200", amount: { amount: 15_000, currency: "USD" } }, "pend-1");
  expect(a.status).toBe("authorised");
  const b = await h.payments.ledger.authorise("ORD-PEND", "sale", { kind: "voucher", code: "VCH-SANDBOX-USD-0200", amount: { amount: 5_001, currency: "USD" } }, "pend-2");
  expect(b).toMatchObject({ status: "declined", code: "voucher_insufficient" });
  await h.store.write((tx) => tx.insert(tables.settlementAccounts).values({ accountId: "SA-SMALL", agencyId: "AG-SMALL", method: "MS", currency: "EUR", creditLimit: 1000 }));
  const c = await h.payments.ledger.authorise("ORD-PEND", "sale", { kind: "settlement", agencyId: "AG-SMALL", method: "MS", amount: eur(800) }, "pend-3");
  expect(c.leg).toMatchObject({ state: "authorised", settlementMethod: "MS" });
  const d = await h.payments.ledger.authorise("ORD-PEND", "sale", { kind: "settlement", agencyId: "AG-SMALL", amount: eur(201) }, "pend-4");
  expect(d).toMatchObject({ status: "declined", code: "settlement_headroom_exceeded" });
  const e = await h.payments.ledger.authorise("ORD-PEND", "sale", { kind: "settlement", agencyId: "SANDBOX-AGENCY", method: "MS", amount: eur(100) }, "pend-5");
  expect(e).toMatchObject({ status: "declined", code: "settlement_account_unavailable" });
  const f = await h.payments.ledger.authorise("ORD-PEND", "sale", { kind: "voucher", code: "VCH-SANDBOX-EXPIRED1", amount: eur(100) }, "pend-6");
  expect(f).toMatchObject({ status: "declined", code: "voucher_invalid" });
});

test("an idempotency key reused for a different request is refused", async () => {
  await h.payments.ledger.authorise("ORD-KEY", "sale", { kind: "card", token: "tok_approve_visa", amount: eur(100) }, "key-1");
  expect(await refusal(h.payments.ledger.authorise("ORD-KEY", "sale", { kind: "card", token: "tok_approve_visa", amount: eur(101) }, "key-1"))).toBe("idempotency_key_reused");
});
