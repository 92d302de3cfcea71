import { and, eq, inArray } from "drizzle-orm";
import { tables, type StoreDb } from "@ndc/store";
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
      await tx.insert(partnerStockUnits).values({
        productCode,
        holdId: e.holdId,
        orderId: e.orderId,
        unit: e.unit,
        stockTotal: stock,
        status: "held",
        channel: e.channel,
        expiresAt: e.expiresAt,
        createdAt: e.at,
        updatedAt: e.at,
      });
      continue;
    }
    await tx
      .update(partnerStockUnits)
      .set({ status: e.type, updatedAt: e.at })
      .where(
        and(
          eq(partnerStockUnits.productCode, productCode),
          eq(partnerStockUnits.holdId, e.holdId),
          inArray(partnerStockUnits.status, e.type === "sold" ? ["held"] : ["held", "sold"]),
        ),
      );
  }
}
