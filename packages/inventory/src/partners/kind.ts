import { randomUUID } from "node:crypto";
import { defineJournaledKind } from "@ndc/actors";
import { partnerProduct } from "@ndc/supply";
import type { PartnerCommand, PartnerReply } from "./commands";
import { decidePartner } from "./decide";
import { persistPartnerRows } from "./persist";
import { evolvePartner, type PartnerEvent, type PartnerStockValue } from "./state";

export const PARTNER_STOCK_KIND = "inventory.partner-stock";

/**
 * One actor per partner product (key: its code, e.g. PP-LOUNGE-LHR), counting units down from
 * the stock the partner released (supply's initialStock). Every order's hold of the product,
 * from any channel, is decided here one at a time.
 */
export function partnerStockKind(opts: { stockOf?: (code: string) => number | undefined; snapshotEvery?: number } = {}) {
  const stockOf = opts.stockOf ?? ((code: string) => partnerProduct(code)?.initialStock);
  return defineJournaledKind<PartnerStockValue, PartnerCommand, PartnerEvent, PartnerReply>({
    name: PARTNER_STOCK_KIND,
    snapshotEvery: opts.snapshotEvery ?? 200,
    initial: (productCode) => ({ productCode, stock: stockOf(productCode) ?? null, holds: {}, units: {}, orders: {} }),
    decide: (value, command, ctx) => decidePartner(value, command, ctx.now, () => `PH-${randomUUID()}`),
    evolve: evolvePartner,
    persistAlso: (tx, key, events, ctx) => persistPartnerRows(tx, key, ctx.state.value.stock ?? 0, events),
  });
}
