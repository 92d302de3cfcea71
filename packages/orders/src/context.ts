import type { ActorRef, Journaled } from "@ndc/actors";
import type { Clock } from "@ndc/clock";
import type { InventoryService } from "@ndc/inventory";
import type { OrderPayments } from "@ndc/payments";
import type { FieldKey } from "@ndc/pii";
import type { OfferRepository } from "@ndc/shopping";
import type { Store } from "@ndc/store";
import type { Supply } from "@ndc/supply";
import type { OrderCommand, OrderReply } from "./actor/commands";
import type { KeyedLock } from "@ndc/actors";
import type { SagaStore } from "./saga/store";
import type { Order } from "./state";

/** What the order operations work with; built once by OrdersService. */
export interface OrdersContext {
  store: Store;
  clock: Clock;
  orders: ActorRef<Journaled<Order | null>, OrderCommand, OrderReply>;
  sagas: SagaStore;
  inventory: InventoryService;
  payments: OrderPayments;
  offers: OfferRepository;
  /** The simulated airline: its schedule (the flights an order's view shows) and its id seed. */
  supply: Supply;
  fieldKey: FieldKey;
  /** This airline's designator: the OwnerCode of every offer it sells. */
  ownerCode: string;
  paymentTimeLimitMs: number;
  /** One saga step sequence at a time per saga id (the request and the reconciler). */
  sagaLock: KeyedLock;
  /** This process's instance id, new at every boot: the owner of the request locks it takes. */
  instanceId: string;
}
