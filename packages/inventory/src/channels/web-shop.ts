import { randomUUID } from "node:crypto";
import type { SeatAvailability, SeatHold } from "../seats/commands";
import type { InventoryService } from "../service";
import { channelInventory, type ChannelInventory } from "./channel";

/**
 * The airline's own web shop: the second sales channel, selling seats straight to the public
 * (spec 4.4 rule 3: a seat is sold once across every channel). It has no offers, orders or
 * seller: the shop has taken the customer's money before it asks, so a seat is held and
 * confirmed in one command, through the same flight actor NDC uses.
 */
export class WebShopChannel {
  private readonly inventory: ChannelInventory;

  constructor(service: InventoryService) {
    this.inventory = channelInventory(service, "web_shop");
  }

  /** Sells one seat; throws seat_unavailable if any channel holds or sold it. */
  sellSeat(flightKey: string, seatId: string, opts: { customerRef?: string } = {}): Promise<SeatHold> {
    return this.sellSeats(flightKey, [seatId], opts);
  }

  /** Several seats for one customer, all or none. */
  sellSeats(flightKey: string, seatIds: string[], opts: { customerRef?: string } = {}): Promise<SeatHold> {
    const holder = `web-shop:${opts.customerRef ?? randomUUID()}`;
    return this.inventory.sellSeats({ flightKey, seatIds, holder });
  }

  /** Gives back a sold seat (a web-shop refund). */
  refundSeat(flightKey: string, holdId: string): Promise<SeatHold> {
    return this.inventory.releaseSeats(flightKey, holdId);
  }

  seats(flightKey: string): Promise<SeatAvailability> {
    return this.inventory.seatAvailability(flightKey);
  }
}
