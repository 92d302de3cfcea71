import { AsyncLocalStorage } from "node:async_hooks";
import type { Clock } from "./index";

/**
 * Each seller's sandbox clock (docs/sandbox-controls.md), after Stripe's test clocks: a seller's
 * business time is the base clock plus that seller's offset, which only its own POST
 * /sandbox/clock moves. The offset travels with the work done for the seller (its request, a
 * sweep over its orders) in an AsyncLocalStorage, so every component keeps reading one injected
 * `Clock` and none has to be handed the seller: outside any seller's work the offset is 0.
 */
const offsets = new AsyncLocalStorage<number>();

/** The sandbox offset of the work under way (0 outside a seller's work). */
export function sellerOffset(): number {
  return offsets.getStore() ?? 0;
}

/** Runs `fn` on business time moved by `offsetMs` (a seller's sandbox offset); no new context when already there. */
export function atSellerOffset<T>(offsetMs: number, fn: () => T): T {
  return sellerOffset() === offsetMs ? fn() : offsets.run(offsetMs, fn);
}

/** Business time: the base clock plus the sandbox offset of the seller whose work is under way. */
export class BusinessClock implements Clock {
  constructor(readonly base: Clock) {}
  now(): number {
    return this.base.now() + sellerOffset();
  }
}

/** Where the offsets are kept (the store: every process of a gateway sees the same clocks). */
export interface SellerClocks {
  /** The client's offset in ms (0 when its clock was never moved). */
  offsetOf(clientId: string): Promise<number>;
  /** Every client whose clock is moved, with its offset. */
  moved(): Promise<Map<string, number>>;
}
