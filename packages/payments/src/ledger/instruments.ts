import { and, asc, eq, sql } from "drizzle-orm";
import type { ErrorCode } from "@ndc/errors";
import { tables, type StoreDb } from "@ndc/store";
import type { LegRequest, PaymentLeg, SettlementMethod } from "../legs/types";
import { SETTLEMENT_METHODS } from "../legs/types";
import { OWN_PROGRAMME, pointsNeeded } from "../loyalty/programme";

// The airline-held instruments (voucher, points, settlement credit). Authorising one reserves it
// as `pending` in the same transaction as the leg, so balance - pending can never go negative
// (the CHECK constraints in 0006_payments.sql back this up).

export type Reservation =
  | { declined: ErrorCode }
  | { fields: Pick<PaymentLeg, "voucherCode" | "settlementAccountId" | "settlementMethod" | "memberAccount" | "certificateId" | "points"> };

const V = tables.vouchers;
const LA = tables.loyaltyAccounts;
const LC = tables.loyaltyCertificates;
const SA = tables.settlementAccounts;

export async function reserve(tx: StoreDb, req: Exclude<LegRequest, { kind: "card" }>, legId: string, now: number): Promise<Reservation> {
  const amt = req.amount.amount;
  if (req.kind === "voucher") {
    const v = (await tx.select().from(V).where(eq(V.code, req.code)))[0];
    if (!v || !v.active || v.expiresAt <= now || v.currency !== req.amount.currency) return { declined: "voucher_invalid" };
    if (v.balance - v.pending < amt) return { declined: "voucher_insufficient" };
    await tx.update(V).set({ pending: sql`${V.pending} + ${amt}` }).where(eq(V.code, v.code));
    return { fields: { voucherCode: v.code } };
  }
  if (req.kind === "settlement") {
    const accounts = await tx
      .select()
      .from(SA)
      .where(and(eq(SA.agencyId, req.agencyId), eq(SA.active, 1), eq(SA.currency, req.amount.currency)))
      .orderBy(asc(SA.accountId));
    // Without a method, the first of CA, DP, MS the seller holds (documented in docs/payments.md).
    const byMethod = (m: SettlementMethod) => accounts.find((a) => a.method === m);
    const account = req.method ? byMethod(req.method) : SETTLEMENT_METHODS.map(byMethod).find(Boolean);
    if (!account) return { declined: "settlement_account_unavailable" };
    if (account.creditLimit - account.used - account.pending < amt) return { declined: "settlement_headroom_exceeded" };
    await tx.update(SA).set({ pending: sql`${SA.pending} + ${amt}` }).where(eq(SA.accountId, account.accountId));
    return { fields: { settlementAccountId: account.accountId, settlementMethod: account.method as SettlementMethod } };
  }
  // Loyalty: only the airline's own programme, only with a certificate the member issued.
  if (req.programme.toUpperCase() !== OWN_PROGRAMME) return { declined: "loyalty_programme_not_accepted" };
  const cert = (await tx.select().from(LC).where(eq(LC.certificateId, req.certificateId)))[0];
  // Unknown, someone else's, expired or used are answered alike: certificate ids reveal nothing.
  if (!cert || cert.memberAccount !== req.memberAccount || cert.expiresAt <= now || cert.state !== "issued") {
    return { declined: "loyalty_certificate_invalid" };
  }
  const account = (await tx.select().from(LA).where(eq(LA.memberAccount, req.memberAccount)))[0];
  if (!account || account.programme !== OWN_PROGRAMME) return { declined: "loyalty_certificate_invalid" };
  const points = pointsNeeded(req.amount);
  if (points > cert.points || account.points - account.pending < points) return { declined: "loyalty_points_insufficient" };
  await tx.update(LA).set({ pending: sql`${LA.pending} + ${points}` }).where(eq(LA.memberAccount, account.memberAccount));
  await tx.update(LC).set({ state: "reserved", legId }).where(eq(LC.certificateId, cert.certificateId));
  return { fields: { memberAccount: account.memberAccount, certificateId: cert.certificateId, points } };
}

/** Capture turns the reservation into a spend; any uncaptured rest is released. Returns points spent. */
export async function settleCapture(tx: StoreDb, leg: PaymentLeg, amount: number): Promise<number> {
  if (leg.kind === "voucher") {
    await tx.update(V).set({ balance: sql`${V.balance} - ${amount}`, pending: sql`${V.pending} - ${leg.authorised}` }).where(eq(V.code, leg.voucherCode!));
  } else if (leg.kind === "settlement") {
    await tx.update(SA).set({ used: sql`${SA.used} + ${amount}`, pending: sql`${SA.pending} - ${leg.authorised}` }).where(eq(SA.accountId, leg.settlementAccountId!));
  } else if (leg.kind === "loyalty") {
    // Same rounding rule as at authorisation, so a partial capture never spends more than reserved.
    const spent = Math.min(leg.points!, pointsNeeded({ amount, currency: leg.currency as never }));
    await tx.update(LA).set({ points: sql`${LA.points} - ${spent}`, pending: sql`${LA.pending} - ${leg.points!}` }).where(eq(LA.memberAccount, leg.memberAccount!));
    await tx.update(LC).set({ state: "redeemed" }).where(eq(LC.certificateId, leg.certificateId!));
    return spent;
  }
  return 0;
}

/** A void gives the whole reservation back; a certificate whose points were never spent can be used again. */
export async function release(tx: StoreDb, leg: PaymentLeg): Promise<void> {
  if (leg.kind === "voucher") {
    await tx.update(V).set({ pending: sql`${V.pending} - ${leg.authorised}` }).where(eq(V.code, leg.voucherCode!));
  } else if (leg.kind === "settlement") {
    await tx.update(SA).set({ pending: sql`${SA.pending} - ${leg.authorised}` }).where(eq(SA.accountId, leg.settlementAccountId!));
  } else if (leg.kind === "loyalty") {
    await tx.update(LA).set({ pending: sql`${LA.pending} - ${leg.points!}` }).where(eq(LA.memberAccount, leg.memberAccount!));
    await tx.update(LC).set({ state: "issued", legId: null }).where(eq(LC.certificateId, leg.certificateId!));
  }
}

/**
 * Gives `amount` back to the instrument. Points go back in proportion, rounded down, and the
 * refund that completes the leg returns the remainder, so a full refund returns every point spent.
 */
export async function refundInstrument(tx: StoreDb, leg: PaymentLeg, amount: number): Promise<number> {
  if (leg.kind === "voucher") {
    await tx.update(V).set({ balance: sql`${V.balance} + ${amount}` }).where(eq(V.code, leg.voucherCode!));
  } else if (leg.kind === "settlement") {
    await tx.update(SA).set({ used: sql`${SA.used} - ${amount}` }).where(eq(SA.accountId, leg.settlementAccountId!));
  } else if (leg.kind === "loyalty") {
    const completes = leg.refunded + amount === leg.captured;
    const back = completes
      ? leg.pointsCaptured - leg.pointsRefunded
      : Math.min(leg.pointsCaptured - leg.pointsRefunded, Number((BigInt(leg.pointsCaptured) * BigInt(amount)) / BigInt(leg.captured)));
    await tx.update(LA).set({ points: sql`${LA.points} + ${back}` }).where(eq(LA.memberAccount, leg.memberAccount!));
    return back;
  }
  return 0;
}
