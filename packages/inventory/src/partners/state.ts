import type { Channel, ClaimStatus } from "../types";

/** One unit of a partner product taken by one order. */
export interface PartnerHoldRecord {
  holdId: string;
  orderId: string;
  /** The stock slot (0 .. stock - 1) the unit occupies; the store refuses two live rows on one. */
  unit: number;
  channel: Channel;
  expiresAt: number;
  status: ClaimStatus;
}

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

export type PartnerEvent =
  | { type: "held"; holdId: string; orderId: string; unit: number; channel: Channel; expiresAt: number; at: number }
  | { type: "sold"; holdId: string; at: number }
  | { type: "released"; holdId: string; at: number }
  | { type: "expired"; holdId: string; at: number };

export function evolvePartner(value: PartnerStockValue, e: PartnerEvent): PartnerStockValue {
  if (e.type === "held") {
    const hold: PartnerHoldRecord = { holdId: e.holdId, orderId: e.orderId, unit: e.unit, channel: e.channel, expiresAt: e.expiresAt, status: "held" };
    return {
      ...value,
      holds: { ...value.holds, [e.holdId]: hold },
      units: { ...value.units, [e.unit]: e.holdId },
      orders: { ...value.orders, [e.orderId]: e.holdId },
    };
  }
  const hold = value.holds[e.holdId];
  if (!hold) return value;
  const holds = { ...value.holds, [e.holdId]: { ...hold, status: e.type } };
  if (e.type === "sold") return { ...value, holds };
  const units = { ...value.units };
  const orders = { ...value.orders };
  if (units[hold.unit] === e.holdId) delete units[hold.unit];
  if (orders[hold.orderId] === e.holdId) delete orders[hold.orderId];
  return { ...value, holds, units, orders };
}

export function isLapsedUnit(hold: PartnerHoldRecord, now: number): boolean {
  return hold.status === "held" && hold.expiresAt <= now;
}
