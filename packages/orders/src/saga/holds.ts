import { isGatewayError } from "@ndc/errors";
import type { OrdersContext } from "../context";
import type { PartnerHoldRef, SeatHoldRef } from "../state";

/** Holds become sales (a booked order). */
export async function confirmHolds(ctx: OrdersContext, seats: SeatHoldRef[], partners: PartnerHoldRef[]): Promise<void> {
  for (const h of seats) await ctx.inventory.confirmSeats(h.flightKey, h.holdId);
  for (const p of partners) await ctx.inventory.confirmPartnerProduct(p.productCode, p.holdId);
}

/**
 * Frees every planned hold. A hold the crash kept from being taken is not found: nothing to
 * free. Releasing twice changes nothing.
 */
export async function releaseHolds(ctx: OrdersContext, seats: SeatHoldRef[], partners: PartnerHoldRef[]): Promise<void> {
  for (const h of seats) await tolerateMissing(() => ctx.inventory.releaseSeats(h.flightKey, h.holdId));
  for (const p of partners) await tolerateMissing(() => ctx.inventory.releasePartnerProduct(p.productCode, p.holdId));
}

async function tolerateMissing(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (isGatewayError(e) && RELEASED_ALREADY.has(e.code)) return;
    throw e;
  }
}

/** Refusals that mean the hold is not held any more: nothing left to free. */
const RELEASED_ALREADY = new Set<string>(["seat_hold_not_found", "partner_product_hold_not_found", "seat_hold_expired", "partner_product_hold_expired"]);
