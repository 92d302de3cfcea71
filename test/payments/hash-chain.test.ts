import { afterAll, beforeAll, expect, test } from "bun:test";
import { tables } from "@ndc/store";
import { verifyChain } from "@ndc/payments";
import { eur, harness, refundAsSagasDo, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness("payments-chain");
  await h.payments.authoriseAll("ORD-H", "sale", [
    { kind: "card", token: "tok_approve_visa", amount: eur(1000) },
    { kind: "voucher", code: "VCH-SANDBOX-EUR-0100", amount: eur(500) },
  ], "h-auth");
  await h.payments.captureAll("ORD-H", "h-cap");
  await refundAsSagasDo(h.payments, "ORD-H", eur(700), "h-rf")();
});
afterAll(async () => {
  await h.close();
});

test("every ledger entry links to the one before and the chain verifies", async () => {
  const entries = await h.store.db.select().from(tables.paymentLedgerEntries).orderBy(tables.paymentLedgerEntries.seq);
  expect(entries.map((e) => e.type)).toEqual(["authorise", "authorise", "capture", "capture", "refund", "refund"]);
  for (let i = 1; i < entries.length; i++) expect(entries[i]!.prevHash).toBe(entries[i - 1]!.hash);
  expect(await verifyChain(h.store.db)).toEqual({ ok: true, entries: 6 });
});

test("entries are append-only: UPDATE and DELETE are refused by the store", async () => {
  await expect(h.store.write((_tx, raw) => raw.exec("UPDATE payment_ledger_entries SET amount = 1 WHERE seq = 3"))).rejects.toThrow("payment_ledger_entries is append-only");
  await expect(h.store.write((_tx, raw) => raw.exec("DELETE FROM payment_ledger_entries WHERE seq = 6"))).rejects.toThrow("payment_ledger_entries is append-only");
});

test("tampering past the triggers is detected at the entry changed", async () => {
  // Someone with the database's owner rights (the SQLite file, PostgreSQL's owning role) drops
  // the guard and edits an amount. PostgreSQL names a trigger's table when dropping it.
  const drop = h.store.dialect === "postgres" ? "DROP TRIGGER payment_ledger_entries_no_update ON payment_ledger_entries" : "DROP TRIGGER payment_ledger_entries_no_update";
  await h.store.write(async (_tx, raw) => {
    await raw.exec(drop);
    await raw.exec("UPDATE payment_ledger_entries SET amount = amount + 1 WHERE seq = 4");
  });
  expect(await verifyChain(h.store.db)).toMatchObject({ ok: false, brokenAt: 4 });
});
