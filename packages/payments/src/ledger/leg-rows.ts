import { Column, eq, max, sql } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import type { LegKind, LegState, PaymentLeg, SettlementMethod } from "../legs/types";

const L = tables.paymentLegs;
type Row = typeof L.$inferSelect;

const opt = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function fromRow(r: Row): PaymentLeg {
  return {
    legId: r.legId,
    orderId: r.orderId,
    changeRef: r.changeRef,
    seq: r.seq,
    kind: r.kind as LegKind,
    state: r.state as LegState,
    currency: r.currency,
    requested: r.requested,
    authorised: r.authorised,
    captured: r.captured,
    refunded: r.refunded,
    authoriseKey: r.authoriseKey,
    cardBrand: opt(r.cardBrand),
    cardLast4: opt(r.cardLast4),
    pspReference: opt(r.pspReference),
    voucherCode: opt(r.voucherCode),
    settlementAccountId: opt(r.settlementAccountId),
    settlementMethod: opt(r.settlementMethod) as SettlementMethod | undefined,
    memberAccount: opt(r.memberAccount),
    certificateId: opt(r.certificateId),
    points: opt(r.points),
    pointsCaptured: r.pointsCaptured,
    pointsRefunded: r.pointsRefunded,
    declineCode: opt(r.declineCode),
    declineReason: opt(r.declineReason),
    createdAt: r.createdAt,
    endedAt: opt(r.endedAt),
  };
}

// Prepared once per connection: every payment step loads its leg (issue 8).
const selectLeg = preparedOnce((db) => db.select().from(L).where(eq(L.legId, sql.placeholder("legId"))).prepare());

export async function loadLeg(db: StoreDb, legId: string): Promise<PaymentLeg> {
  const rows = (await selectLeg(db).all({ legId })) as Row[];
  if (!rows[0]) throw new GatewayError("payment_leg_not_found", { detail: `Leg ${legId.slice(0, 40)}.` });
  return fromRow(rows[0]);
}

/**
 * Prepared once per connection: PAYSUM of every OrderViewRS reads an order's legs. Sorted here,
 * not by ORDER BY: an order has a handful of legs, and a statement with ORDER BY cost SQLite
 * 20-30 µs more per call on this path even where the index gives the order (docs/decisions/0009).
 */
const legsOf = preparedOnce((db) => db.select().from(L).where(eq(L.orderId, sql.placeholder("orderId"))).prepare());

export async function orderLegs(db: StoreDb, orderId: string): Promise<PaymentLeg[]> {
  return (await legsOf(db).all({ orderId })).sort((a, b) => a.seq - b.seq).map(fromRow);
}

/** Legs are numbered per order so "newest first" (refunds) is a plain sort. */
export async function nextSeq(tx: StoreDb, orderId: string): Promise<number> {
  const rows = (await legWrites(tx).topSeq.all({ orderId })) as { top: number | null }[];
  return (rows[0]?.top ?? 0) + 1;
}

export async function insertLeg(tx: StoreDb, leg: PaymentLeg): Promise<void> {
  await legWrites(tx).insert.run(rowOf(leg));
}

/** A planned leg (the sale's open phase): a run planned again finds its row and keeps it. */
export async function insertPlannedLeg(tx: StoreDb, leg: PaymentLeg): Promise<void> {
  await legWrites(tx).insertPlanned.run(rowOf(leg));
}

/** A planned card leg never sent to the PSP (a leg before it was declined): nothing to keep. */
export async function deleteLeg(tx: StoreDb, legId: string): Promise<void> {
  await legWrites(tx).remove.run({ legId });
}

export async function saveLeg(tx: StoreDb, leg: PaymentLeg): Promise<void> {
  await legWrites(tx).save.run(rowOf(leg));
}

// Every column of a leg, bound by name: the writes below are prepared once per connection
// (issue 8: each paid OrderCreate plans, answers and captures its legs).
const LEG_COLUMNS = Object.keys(L).filter((k) => (L as unknown as Record<string, unknown>)[k] instanceof Column) as (keyof Row)[];
const rowOf = (leg: PaymentLeg): Record<string, unknown> => Object.fromEntries(LEG_COLUMNS.map((c) => [c, (leg as unknown as Record<string, unknown>)[c] ?? null]));
/**
 * What a leg is, fixed when its row is inserted: every later save is the same leg with a new
 * balance or the PSP's answer (each caller spreads the leg it loaded). They are left out of the
 * save's SET because SQLite rewrites every index holding a column named in a SET, changed or
 * not: with order_id and seq named, each of a booking's two saves also rewrote its
 * payment_legs_order entry.
 */
const FIXED_AT_INSERT = new Set<keyof Row>(["legId", "orderId", "changeRef", "seq", "kind", "currency", "requested", "authoriseKey", "createdAt"]);
const placeholders = (cols: readonly (keyof Row)[]) => Object.fromEntries(cols.map((c) => [c, sql.placeholder(c)]));

const legWrites = preparedOnce((db) => ({
  topSeq: db.select({ top: max(L.seq) }).from(L).where(eq(L.orderId, sql.placeholder("orderId"))).prepare(),
  insert: db.insert(L).values(placeholders(LEG_COLUMNS) as never).prepare(),
  insertPlanned: db.insert(L).values(placeholders(LEG_COLUMNS) as never).onConflictDoNothing().prepare(),
  remove: db.delete(L).where(eq(L.legId, sql.placeholder("legId"))).prepare(),
  save: db
    .update(L)
    .set(placeholders(LEG_COLUMNS.filter((c) => !FIXED_AT_INSERT.has(c))) as never)
    .where(eq(L.legId, sql.placeholder("legId")))
    .prepare(),
}));
