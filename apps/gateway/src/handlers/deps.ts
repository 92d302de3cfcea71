import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Logger } from "@ndc/log";
import type { Store } from "@ndc/store";
import type { Supply } from "@ndc/supply";
import type { OfferRepository } from "@ndc/shopping";
import type { ActorSystem } from "@ndc/actors";
import type { InventoryService } from "@ndc/inventory";
import type { ClearanceManager, OrderPayments } from "@ndc/payments";
import type { OrdersService } from "@ndc/orders";
import type { FieldKey } from "@ndc/pii";

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
  /** Payment ledger and PSP simulator. */
  payments: OrderPayments;
  /** The order domain: create, retry payment, retrieve, list, history. */
  orders: OrdersService;
  /** The field-encryption key identity-document numbers are sealed with (DESIGN 5). */
  fieldKey: FieldKey;
  /** The simulated Clearance Manager (settlement-plan payments under SwO; PaymentClearanceRQ). */
  clearances: ClearanceManager;
}
