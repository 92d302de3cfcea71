import { expect } from "bun:test";
import { eq } from "drizzle-orm";
import { tables, type Store } from "@ndc/store";
import { balanceOf, legBalance, type EntryType, type LegState } from "@ndc/payments";

/** Everything the ledger writes, for "a retry changes nothing" comparisons. */
export async function snapshot(store: Store) {
  const db = store.db;
  return {
    legs: await db.select().from(tables.paymentLegs).orderBy(tables.paymentLegs.legId),
    entries: (await db.select().from(tables.paymentLedgerEntries)).length,
    vouchers: await db.select().from(tables.vouchers).orderBy(tables.vouchers.code),
    members: await db.select().from(tables.loyaltyAccounts).orderBy(tables.loyaltyAccounts.memberAccount),
    certificates: await db.select().from(tables.loyaltyCertificates).orderBy(tables.loyaltyCertificates.certificateId),
    accounts: await db.select().from(tables.settlementAccounts).orderBy(tables.settlementAccounts.accountId),
    psp: await db.select().from(tables.pspSimPayments).orderBy(tables.pspSimPayments.pspReference),
  };
}

const ENDED = new Set(["captured", "voided", "refunded"]);
const AUTHORISED_ONCE = new Set(["authorised", "captured", "voided", "refunded"]);

/**
 * The ledger invariants of DESIGN 5, checked from the stored rows of one order and the
 * instruments it used. `initial` holds each instrument's starting balance.
 */
export async function checkInvariants(store: Store, orderId: string, initial: { voucher: string; voucherBalance: number; member: string; memberPoints: number; account: string }) {
  const db = store.db;
  const legs = await db.select().from(tables.paymentLegs).where(eq(tables.paymentLegs.orderId, orderId));
  const entries = await db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, orderId));
  await expectLegsMatchEntries(store, orderId);
  for (const leg of legs) {
    const mine = entries.filter((e) => e.legId === leg.legId);
    const count = (t: string) => mine.filter((e) => e.type === t).length;
    // Each leg ends exactly once: one capture or one void, never both, never twice.
    expect(count("capture") + count("void")).toBe(ENDED.has(leg.state) ? 1 : 0);
    expect(count("authorise")).toBe(AUTHORISED_ONCE.has(leg.state) ? 1 : 0);
    expect(leg.captured).toBeLessThanOrEqual(leg.authorised);
    expect(leg.refunded).toBeLessThanOrEqual(leg.captured);
    expect(mine.filter((e) => e.type === "capture").reduce((s, e) => s + e.amount, 0)).toBe(leg.captured);
    expect(mine.filter((e) => e.type === "refund").reduce((s, e) => s + e.amount, 0)).toBe(leg.refunded);
    if (leg.state === "refunded") expect(leg.refunded).toBe(leg.captured);
  }
  const on = (pred: (l: (typeof legs)[number]) => boolean) => legs.filter(pred);
  const pendingOf = (ls: typeof legs) => on((l) => ls.includes(l) && l.state === "authorised").reduce((s, l) => s + l.authorised, 0);
  const netOf = (ls: typeof legs) => ls.reduce((s, l) => s + l.captured - l.refunded, 0);

  const voucher = (await db.select().from(tables.vouchers).where(eq(tables.vouchers.code, initial.voucher)))[0]!;
  const vLegs = on((l) => l.voucherCode === initial.voucher);
  expect(voucher.balance - voucher.pending).toBeGreaterThanOrEqual(0);
  expect(voucher.pending).toBe(pendingOf(vLegs));
  expect(voucher.balance).toBe(initial.voucherBalance - netOf(vLegs));

  const member = (await db.select().from(tables.loyaltyAccounts).where(eq(tables.loyaltyAccounts.memberAccount, initial.member)))[0]!;
  const pLegs = on((l) => l.memberAccount === initial.member);
  expect(member.points - member.pending).toBeGreaterThanOrEqual(0);
  expect(member.pending).toBe(pLegs.filter((l) => l.state === "authorised").reduce((s, l) => s + (l.points ?? 0), 0));
  expect(member.points).toBe(initial.memberPoints - pLegs.reduce((s, l) => s + l.pointsCaptured - l.pointsRefunded, 0));

  const account = (await db.select().from(tables.settlementAccounts).where(eq(tables.settlementAccounts.accountId, initial.account)))[0]!;
  const sLegs = on((l) => l.settlementAccountId === initial.account);
  expect(account.creditLimit - account.used - account.pending).toBeGreaterThanOrEqual(0);
  expect(account.pending).toBe(pendingOf(sLegs));
  expect(account.used).toBe(netOf(sLegs));
}

/**
 * The entries are the truth, the leg rows their cache (payments' ledger/balance.ts): every leg's
 * stored state and amounts are exactly what its entries, folded in order, make them.
 */
export async function expectLegsMatchEntries(store: Store, orderId: string) {
  const db = store.db;
  const legs = await db.select().from(tables.paymentLegs).where(eq(tables.paymentLegs.orderId, orderId));
  const entries = await db.select().from(tables.paymentLedgerEntries).where(eq(tables.paymentLedgerEntries.orderId, orderId)).orderBy(tables.paymentLedgerEntries.seq);
  for (const leg of legs) {
    const folded = legBalance(entries.filter((e) => e.legId === leg.legId).map((e) => ({ type: e.type as EntryType, amount: e.amount })));
    expect({ legId: leg.legId, ...balanceOf({ ...leg, state: leg.state as LegState }) }).toEqual({ legId: leg.legId, ...folded });
  }
}
