import { GatewayError } from "@ndc/errors";
import { isChannel } from "../types";
import type { PartnerCommand, PartnerReply, PartnerStock } from "./commands";
import { evolvePartner, isLapsedUnit, type PartnerEvent, type PartnerStockValue } from "./state";

type Decision = { events: PartnerEvent[]; reply: PartnerReply };

/** Same shape as the seat actor's decide: throw to refuse, or events plus a refusal reply. */
export function decidePartner(value: PartnerStockValue, command: PartnerCommand, now: number, newHoldId: () => string): Decision {
  switch (command.op) {
    case "hold":
    case "sell":
      return hold(value, command, now, newHoldId);
    case "confirm":
      return confirm(value, command.holdId, now);
    case "release":
      return release(value, command.holdId, now);
    case "expire": {
      const events = lapsed(value, now);
      return { events, reply: { kind: "expired", holdIds: events.map((e) => e.holdId) } };
    }
    case "stock":
      return { events: [], reply: { kind: "stock", stock: stockOf(value, now) } };
  }
}

function lapsed(value: PartnerStockValue, now: number): PartnerEvent[] {
  return Object.values(value.holds)
    .filter((h) => isLapsedUnit(h, now))
    .map((h) => ({ type: "expired" as const, holdId: h.holdId, at: now }));
}

function hold(value: PartnerStockValue, c: Extract<PartnerCommand, { op: "hold" | "sell" }>, now: number, newHoldId: () => string): Decision {
  if (!c.orderId || typeof c.orderId !== "string") throw new GatewayError("request_invalid", { detail: "A partner product hold needs an order." });
  if (!isChannel(c.channel)) throw new GatewayError("request_invalid", { detail: `Unknown sales channel ${String(c.channel)}.` });
  if (!Number.isSafeInteger(c.expiresAt) || c.expiresAt <= now) {
    throw new GatewayError("request_invalid", { detail: "A hold's expiry must be in the future." });
  }
  if (value.stock === null) throw new GatewayError("partner_product_not_found", { detail: `(${value.productCode})` });
  if (c.holdId !== undefined && value.holds[c.holdId]) {
    const existing = value.holds[c.holdId]!;
    if (existing.orderId !== c.orderId) throw new GatewayError("request_invalid", { detail: `Hold id ${c.holdId} is already used by another order.` });
    if (existing.status === "held" && (c.op === "sell" || isLapsedUnit(existing, now))) return confirm(value, c.holdId, now);
    if (existing.status === "expired") throw new GatewayError("partner_product_hold_expired", { detail: `(${c.holdId})` });
    if (existing.status === "released") throw new GatewayError("partner_product_hold_not_found", { detail: `(${c.holdId} was released)` });
    return { events: [], reply: { kind: "hold", hold: { productCode: value.productCode, ...existing } } };
  }

  // Lapsed holds free their units (and their orders) first, in the same transaction.
  const expiries = lapsed(value, now);
  const fresh = expiries.reduce(evolvePartner, value);
  if (fresh.orders[c.orderId] !== undefined) {
    throw new GatewayError("partner_product_once_per_order", { detail: `(${value.productCode} on order ${c.orderId})` });
  }
  let unit = 0;
  while (unit < value.stock && fresh.units[unit] !== undefined) unit++;
  if (unit >= value.stock) throw new GatewayError("partner_product_sold_out", { detail: `(${value.productCode})` });

  const holdId = c.holdId ?? newHoldId();
  const events: PartnerEvent[] = [...expiries, { type: "held", holdId, orderId: c.orderId, unit, channel: c.channel, expiresAt: c.expiresAt, at: now }];
  if (c.op === "sell") events.push({ type: "sold", holdId, at: now });
  const after = events.reduce(evolvePartner, value);
  return { events, reply: { kind: "hold", hold: { productCode: value.productCode, ...after.holds[holdId]! } } };
}

function confirm(value: PartnerStockValue, holdId: string, now: number): Decision {
  const h = value.holds[holdId];
  if (!h) throw new GatewayError("partner_product_hold_not_found", { detail: `(${holdId} on ${value.productCode})` });
  if (h.status === "sold") return { events: [], reply: { kind: "hold", hold: { productCode: value.productCode, ...h } } };
  if (h.status === "expired") throw new GatewayError("partner_product_hold_expired", { detail: `(${holdId})` });
  if (h.status === "released") throw new GatewayError("partner_product_hold_not_found", { detail: `(${holdId} was released)` });
  if (isLapsedUnit(h, now)) {
    return { events: [{ type: "expired", holdId, at: now }], reply: { kind: "refused", code: "partner_product_hold_expired", detail: `(${holdId})` } };
  }
  return { events: [{ type: "sold", holdId, at: now }], reply: { kind: "hold", hold: { productCode: value.productCode, ...h, status: "sold" } } };
}

function release(value: PartnerStockValue, holdId: string, now: number): Decision {
  const h = value.holds[holdId];
  if (!h) throw new GatewayError("partner_product_hold_not_found", { detail: `(${holdId} on ${value.productCode})` });
  if (h.status === "released" || h.status === "expired") {
    return { events: [], reply: { kind: "hold", hold: { productCode: value.productCode, ...h } } };
  }
  return { events: [{ type: "released", holdId, at: now }], reply: { kind: "hold", hold: { productCode: value.productCode, ...h, status: "released" } } };
}

function stockOf(value: PartnerStockValue, now: number): PartnerStock {
  let held = 0;
  let sold = 0;
  for (const holdId of Object.values(value.units)) {
    const h = value.holds[holdId]!;
    if (h.status === "sold") sold++;
    else if (!isLapsedUnit(h, now)) held++;
  }
  const stock = value.stock ?? 0;
  return { productCode: value.productCode, stock, held, sold, available: stock - held - sold };
}
