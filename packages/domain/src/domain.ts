import { registryGrants, storeSellerClocks, type StoreSellerClocks } from "@ndc/auth";
import { ActorSystem } from "@ndc/actors";
import { BusinessClock, sandboxStartClock, systemClock, type Clock } from "@ndc/clock";
import { ensurePrivateDir, type GatewayConfig } from "@ndc/config";
import { InventoryService } from "@ndc/inventory";
import type { Logger } from "@ndc/log";
import { clearanceDeskOf, Dispatcher, Subscriptions, type Resolver, type WebhookAnswer, type WebhookRequest } from "@ndc/notifications";
import { OrdersService, type StoredViewEncoder } from "@ndc/orders";
import { ClearanceManager, OrderPayments, seedPayments } from "@ndc/payments";
import { loadFieldKey, type FieldKey } from "@ndc/pii";
import { OfferRepository } from "@ndc/shopping";
import { lazyAirlineKey, notificationSigner } from "@ndc/signatures";
import { migrate, openStore, type Store } from "@ndc/store";
import { createSupply, type Supply } from "@ndc/supply";
import { orderPersistHooks } from "./persist-hooks";
import { salesReporter } from "./sales-report";
import { storedViewKey, storedViewOf } from "./stored-view";

/**
 * The airline's domain over one store: what every process of a data directory builds the same
 * way (a gateway worker, the scheduler app, the web shop's CLI), so a job that changes an order
 * in the scheduler app goes through the same actors, persist hooks and notifications as a request
 * in a worker. Each process has its own actors; they agree through the store (decision 0040).
 */
export interface Domain {
  config: GatewayConfig;
  logger: Logger;
  store: Store;
  /** Business time (payment time limits, fee bands, departures): real time plus the sandbox offset of the seller whose work is under way. */
  clock: Clock;
  /** Real time (tokens, TOTP, staff sessions, rate limits, webhook-timestamp): the injected clock, which the sandbox never moves. */
  securityClock: Clock;
  /** Each seller client's sandbox clock, in the store (local and sandbox modes; null in production). */
  sellerClocks: StoreSellerClocks | null;
  fieldKey: FieldKey;
  /** The airline's XML-signature key, read (or made, outside production) at first use. */
  airlineKey: ReturnType<typeof lazyAirlineKey>;
  /** The simulated airline. */
  supply: Supply;
  offers: OfferRepository;
  /** This process's actors (order, seat and partner-stock). */
  actors: ActorSystem;
  inventory: InventoryService;
  payments: OrderPayments;
  /** The simulated Clearance Manager (settlement-plan clearances, PaymentClearanceRQ). */
  clearances: ClearanceManager;
  orders: OrdersService;
  subscriptions: Subscriptions;
  dispatcher: Dispatcher;
  /** Waits for deliveries in flight, closes the actors (their queued commands still need the store), then the store. */
  close(): Promise<void>;
}

export interface DomainOptions {
  config: GatewayConfig;
  logger: Logger;
  /** Real time (tests inject a ManualClock): the security clock, and the base business time is moved from. */
  clock?: Clock;
  /** The view each order write stores; default the plain encoder (a gateway passes one that also keeps it for its answers). */
  viewEncoder?: StoredViewEncoder;
  /** The HTTP POST of a pushed notification, kept at the edge (@ndc/scheduler postWebhook): domains hold no HTTP. */
  post: (req: WebhookRequest) => Promise<WebhookAnswer>;
  /** Tests only: resolves subscription host names (a name pointing at 10.x). */
  resolve?: Resolver;
}

/**
 * Business time's base: the wall clock, or, with SANDBOX_CLOCK_START (local mode only), the wall
 * clock started at that instant (at the real instant SANDBOX_CLOCK_STARTED_AT, so every process of one
 * data directory agrees), so tests book fixed dates whatever the real date (docs/testing.md).
 * An injected clock (tests) is used as it is.
 */
export function businessBase(config: GatewayConfig, wallClock: Clock): Clock {
  return wallClock === systemClock ? sandboxStartClock(config) : wallClock;
}

/** Opens and migrates the store and assembles the domain over it. */
export async function openDomain(opts: DomainOptions): Promise<Domain> {
  const { config, logger } = opts;
  const wallClock = opts.clock ?? systemClock;
  // Security time is never the movable clock: a staff member's authenticator, a token's holder and a
  // webhook receiver all read real time (issue 19 item 22).
  const securityClock = wallClock;
  // Business time: real time plus the offset of the seller whose work is under way, which only
  // that seller's POST /sandbox/clock moves (docs/sandbox-controls.md). Production has no offsets.
  const clock = new BusinessClock(businessBase(config, wallClock));
  // The data directory holds the database, the field key and the sandbox secret: its owner's only.
  ensurePrivateDir(config.dataDir);
  // Fail at start, not at the first booking, when the field-encryption key is unusable.
  const fieldKey = loadFieldKey(config);
  const store = await openStore(config.databaseUrl, { driver: config.databaseDriver, authToken: config.databaseAuthToken });
  try {
    await migrate(store);
  } catch (e) {
    await store.close();
    throw e;
  }
  const sellerClocks = config.mode === "production" ? null : storeSellerClocks(store);
  // The simulated airline sells from today (the business clock's day) for 330 days.
  const supply = createSupply({
    seed: config.shopping.supplySeed,
    startDate: new Date(clock.now()).toISOString().slice(0, 10),
    designator: config.airline.designator,
    airlineName: config.airline.name,
  });
  const offers = new OfferRepository(store, clock);
  const actors = new ActorSystem({ store, clock, limits: config.actors });
  const inventory = new InventoryService({ system: actors, store, supply, clock });
  // Settlement legs' clearances: requested at capture, cancelled by a refund before clearing, each
  // with its payment.clearance notification in the ledger step's own transaction (docs/payments.md).
  const clearanceDesk = clearanceDeskOf(config.airline);
  const payments = new OrderPayments(store, clock, undefined, clearanceDesk);
  const clearances = new ClearanceManager({ store, clock, desk: clearanceDesk });
  // The sandbox's vouchers, settlement accounts and loyalty certificates (docs/payments.md).
  if (config.mode !== "production") await seedPayments(store);
  const designator = config.airline.designator;
  const orders: OrdersService = new OrdersService({
    system: actors,
    store,
    clock,
    inventory,
    payments,
    offers,
    supply,
    fieldKey,
    ownerCode: designator,
    // An order change sellers (or the airline's revenue accounting) are told about writes its notification in the change's transaction.
    persistHook: orderPersistHooks(config.airline, (order, tx) => orders.detailsIn(order, tx)),
    viewEncoder: opts.viewEncoder ?? ((details) => storedViewOf(details, designator)),
    // Stored views are served only under the key of what encoded them (build, designator, name, seed).
    viewKey: storedViewKey(config),
    // Every sale, change, refund and void is reported to accounting in the write that records it.
    salesReporter: salesReporter(designator),
    sellerClocks: sellerClocks ?? undefined,
  });
  // Liveness: another process takes over this one's running operations at once if it dies (decision 0040).
  const heartbeat = await orders.announce();
  const subscriptions = new Subscriptions({ store, clock, fieldKey, mode: config.mode, resolve: opts.resolve, maxPerAgency: config.notifySubscriptionsMax });
  // Read (or made, outside production) at first use: a process that never signs makes no key.
  const airlineKey = lazyAirlineKey(config);
  const dispatcher = new Dispatcher({
    store,
    clock,
    logger,
    subscriptions,
    mode: config.mode,
    resolve: opts.resolve,
    post: opts.post,
    claimMs: config.notifyClaimMs,
    holdsGrant: registryGrants(store),
    // The airline's XML signature for agencies whose agreement asks (docs/signatures.md).
    signBody: notificationSigner(store, airlineKey),
    securityClock,
    // The sellers' sandbox clocks: a moved seller's pushes fall due on its time.
    sellerClocks: sellerClocks ?? undefined,
  });
  return {
    config,
    logger,
    store,
    clock,
    securityClock,
    sellerClocks,
    fieldKey,
    airlineKey,
    supply,
    offers,
    actors,
    inventory,
    payments,
    clearances,
    orders,
    subscriptions,
    dispatcher,
    async close() {
      await dispatcher.drain();
      await actors.close();
      await heartbeat.stop();
      await store.close();
    },
  };
}
