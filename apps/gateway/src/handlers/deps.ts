import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Logger } from "@ndc/log";
import type { Store } from "@ndc/store";
import type { Supply } from "@ndc/supply";
import type { OfferRepository } from "@ndc/shopping";
import type { ActorSystem } from "@ndc/actors";
import type { InventoryService } from "@ndc/inventory";

/** What message handlers may use. Built once in boot.ts. */
export interface HandlerDeps {
  config: GatewayConfig;
  store: Store;
  clock: Clock;
  logger: Logger;
  supply: Supply;
  offers: OfferRepository;
  /** Per-key actors (orders, seat inventory, partner stock) of this process. */
  actors: ActorSystem;
  /** Seats and partner stock: the one door every sales channel goes through. */
  inventory: InventoryService;
}
