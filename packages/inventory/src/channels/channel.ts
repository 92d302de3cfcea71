import type { PartnerRequest, SeatRequest, InventoryService } from "../service";
import type { Channel } from "../types";

/**
 * The inventory as one sales channel sees it: the same service, with the channel filled in,
 * so a channel cannot record its sales under another's name.
 */
export interface ChannelInventory {
  readonly channel: Channel;
  holdSeats(r: Omit<SeatRequest, "channel">): ReturnType<InventoryService["holdSeats"]>;
  sellSeats(r: Omit<SeatRequest, "channel">): ReturnType<InventoryService["sellSeats"]>;
  confirmSeats: InventoryService["confirmSeats"];
  releaseSeats: InventoryService["releaseSeats"];
  seatAvailability: InventoryService["seatAvailability"];
  holdPartnerProduct(r: Omit<PartnerRequest, "channel">): ReturnType<InventoryService["holdPartnerProduct"]>;
  confirmPartnerProduct: InventoryService["confirmPartnerProduct"];
  releasePartnerProduct: InventoryService["releasePartnerProduct"];
}

export function channelInventory(service: InventoryService, channel: Channel): ChannelInventory {
  return {
    channel,
    holdSeats: (r) => service.holdSeats({ ...r, channel }),
    sellSeats: (r) => service.sellSeats({ ...r, channel }),
    confirmSeats: (f, h) => service.confirmSeats(f, h),
    releaseSeats: (f, h) => service.releaseSeats(f, h),
    seatAvailability: (f) => service.seatAvailability(f),
    holdPartnerProduct: (r) => service.holdPartnerProduct({ ...r, channel }),
    confirmPartnerProduct: (p, h) => service.confirmPartnerProduct(p, h),
    releasePartnerProduct: (p, h) => service.releasePartnerProduct(p, h),
  };
}

/** What OrderCreate uses: holds per order, confirmed after payment, released on failure. */
export const ndcInventory = (service: InventoryService) => channelInventory(service, "ndc");
