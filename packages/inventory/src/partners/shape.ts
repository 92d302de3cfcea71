import { GatewayError } from "@ndc/errors";
import type { HoldableShape } from "../holdable/shape";
import { isLapsed } from "../holdable/types";
import type { PartnerHold, PartnerStock } from "./commands";
import { claimUnit, freeUnit, type PartnerClaim, type PartnerStockValue } from "./state";

/** A partner product's units as a holdable stock: a hold takes the first free unit, once per order. */
export const PARTNER_STOCK: HoldableShape<PartnerStockValue, PartnerClaim, { orderId: string }, PartnerHold, "stock", { kind: "stock"; stock: PartnerStock }> = {
  queryOp: "stock",
  holdNotFound: "partner_product_hold_not_found",
  holdExpired: "partner_product_hold_expired",
  keyOf: (value) => value.productCode,

  checkRequest(c) {
    if (!c.orderId || typeof c.orderId !== "string") throw new GatewayError("request_invalid", { detail: "A partner product hold needs an order." });
  },

  checkExists(value) {
    if (value.stock === null) throw new GatewayError("partner_product_not_found", { detail: `(${value.productCode})` });
  },

  replayConflict: (existing, c) => (existing.orderId === c.orderId ? undefined : `Hold id ${existing.holdId} is already used by another order.`),

  take(value, fresh, c) {
    // Lapsed holds have freed their units (and their orders) in `fresh`.
    if (fresh.orders[c.orderId] !== undefined) {
      throw new GatewayError("partner_product_once_per_order", { detail: `(${value.productCode} on order ${c.orderId})` });
    }
    const stock = value.stock ?? 0;
    let unit = 0;
    while (unit < stock && fresh.units[unit] !== undefined) unit++;
    if (unit >= stock) throw new GatewayError("partner_product_sold_out", { detail: `(${value.productCode})` });
    return { orderId: c.orderId, unit };
  },

  claim: claimUnit,
  free: freeUnit,
  answer: (value, hold): PartnerHold => ({ productCode: value.productCode, ...hold }),
  query: (value, now) => ({ kind: "stock", stock: stockOf(value, now) }),
};

function stockOf(value: PartnerStockValue, now: number): PartnerStock {
  let held = 0;
  let sold = 0;
  for (const holdId of Object.values(value.units)) {
    const h = value.holds[holdId]!;
    if (h.status === "sold") sold++;
    else if (!isLapsed(h, now)) held++;
  }
  const stock = value.stock ?? 0;
  return { productCode: value.productCode, stock, held, sold, available: stock - held - sold };
}
