import { and, eq, inArray, sql } from "drizzle-orm";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import type { PartnerEvent } from "./state";

const { partnerStockUnits } = tables;

/**
 * Mirrors the events into partner_stock_units in event order, inside the actor's write. The
 * row carries the stock total so the table's CHECK refuses a unit beyond the stock even if
 * the actor were wrong.
 */
export async function persistPartnerRows(tx: StoreDb, productCode: string, stock: number, events: PartnerEvent[]): Promise<void> {
  for (const e of events) {
    if (e.type === "held") {
      await insertUnit(tx).run({ productCode, holdId: e.holdId, orderId: e.orderId, unit: e.unit, stockTotal: stock, channel: e.channel, expiresAt: e.expiresAt, at: e.at });
      continue;
    }
    await (e.type === "sold" ? sellHeld : endLive)(tx).run({ status: e.type, at: e.at, productCode, holdId: e.holdId });
  }
}

// Prepared once per connection, like the seat rows (seats/persist.ts): every partner hold, sale
// and release of a booking writes these (issue 8).
const insertUnit = preparedOnce((db) =>
  db
    .insert(partnerStockUnits)
    .values({
      productCode: sql.placeholder("productCode"),
      holdId: sql.placeholder("holdId"),
      orderId: sql.placeholder("orderId"),
      unit: sql.placeholder("unit"),
      stockTotal: sql.placeholder("stockTotal"),
      status: "held",
      channel: sql.placeholder("channel"),
      expiresAt: sql.placeholder("expiresAt"),
      createdAt: sql.placeholder("at"),
      updatedAt: sql.placeholder("at"),
    })
    .prepare(),
);
// Only live units move: a released unit stays released whatever is replayed.
const moveLive = (from: string[]) =>
  preparedOnce((db) =>
    db
      .update(partnerStockUnits)
      .set({ status: sql`${sql.placeholder("status")}`, updatedAt: sql`${sql.placeholder("at")}` })
      .where(and(eq(partnerStockUnits.productCode, sql.placeholder("productCode")), eq(partnerStockUnits.holdId, sql.placeholder("holdId")), inArray(partnerStockUnits.status, from)))
      .prepare(),
  );
const sellHeld = moveLive(["held"]);
const endLive = moveLive(["held", "sold"]);
