import { partnerProduct } from "@ndc/supply";
import { holdableKind } from "../holdable/kind";
import { persistPartnerRows } from "./persist";
import { PARTNER_STOCK } from "./shape";

export const PARTNER_STOCK_KIND = "inventory.partner-stock";

/**
 * One actor per partner product (key: its code, e.g. PP-LOUNGE-LHR), counting units down from
 * the stock the partner released (supply's initialStock). Every order's hold of the product,
 * from any channel, is decided here one at a time.
 */
export function partnerStockKind(opts: { stockOf?: (code: string) => number | undefined; snapshotEvery?: number } = {}) {
  const stockOf = opts.stockOf ?? ((code: string) => partnerProduct(code)?.initialStock);
  return holdableKind(PARTNER_STOCK, {
    name: PARTNER_STOCK_KIND,
    holdIdPrefix: "PH",
    snapshotEvery: opts.snapshotEvery,
    initial: (productCode) => ({ productCode, stock: stockOf(productCode) ?? null, holds: {}, units: {}, orders: {} }),
    persistAlso: (tx, key, events, ctx) => persistPartnerRows(tx, key, ctx.state.value.stock ?? 0, events),
  });
}
