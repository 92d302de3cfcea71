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
import type { ClaimReleases } from "./liveness/release";
import type { OperationStore } from "./operation/store";
import type { Order } from "./state";

/** What the order operations work with; built once by OrdersService. */
export interface OrdersContext {
  store: Store;
  clock: Clock;
  orders: ActorRef<Journaled<Order | null>, OrderCommand, OrderReply>;
  operations: OperationStore;
  inventory: InventoryService;
  payments: OrderPayments;
  offers: OfferRepository;
  /** The simulated airline: its schedule (the flights an order's view shows) and its id seed. */
  supply: Supply;
  fieldKey: FieldKey;
  /** This airline's designator: the OwnerCode of every offer it sells. */
  ownerCode: string;
  paymentTimeLimitMs: number;
  /**
   * The one per-operation serialiser (reentrant): the request layer, the saga it runs and the
   * reconciler take it by operation id, so one operation's steps never interleave in this process.
   */
  operationLock: KeyedLock;
  /** This process's instance id, new at every boot: the owner of the request locks it takes. */
  instanceId: string;
  /** The operations this process gave up part-way, their claim released in the background (liveness/release.ts). */
  releases: ClaimReleases;
}
