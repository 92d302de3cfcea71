import type { HoldableEvent, HoldRecord } from "../holdable/types";

/** What one partner hold takes: one unit, for one order. */
export interface PartnerClaim {
  orderId: string;
  /** The stock slot (0 .. stock - 1) the unit occupies; the store refuses two live rows on one. */
  unit: number;
}

/** One unit of a partner product taken by one order. */
export type PartnerHoldRecord = HoldRecord<PartnerClaim>;

/**
 * A partner product's stock. `stock` is what the partner released to the airline (null: no
 * such product); `units` maps each taken slot to its hold, `orders` each order to its live
 * hold, which is how "sold once per order" is checked.
 */
export interface PartnerStockValue {
  productCode: string;
  stock: number | null;
  holds: Record<string, PartnerHoldRecord>;
  units: Record<string, string>;
  orders: Record<string, string>;
}

export type PartnerEvent = HoldableEvent<PartnerClaim>;

/** Evolve: a new hold takes its unit and its order's one place; an ended one frees those it still has. */
export function claimUnit(value: PartnerStockValue, hold: PartnerHoldRecord): PartnerStockValue {
  return { ...value, units: { ...value.units, [hold.unit]: hold.holdId }, orders: { ...value.orders, [hold.orderId]: hold.holdId } };
}

export function freeUnit(value: PartnerStockValue, hold: PartnerHoldRecord): PartnerStockValue {
  const units = { ...value.units };
  const orders = { ...value.orders };
  if (units[hold.unit] === hold.holdId) delete units[hold.unit];
  if (orders[hold.orderId] === hold.holdId) delete orders[hold.orderId];
  return { ...value, units, orders };
}
