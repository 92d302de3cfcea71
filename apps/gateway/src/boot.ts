import { signatureStep } from "./ndc/signature-step";
import { lazyAirlineKey, notificationSigner } from "@ndc/signatures";
import { ensurePrivateDir, loadConfig, type GatewayConfig } from "@ndc/config";
import { BusinessClock, startedAt, systemClock, type Clock } from "@ndc/clock";
import { createLogger, type Logger } from "@ndc/log";
import { openStore, migrate, type Store } from "@ndc/store";
import { createAuthService, createRateLimiter, provisionSandbox, storeSellerClocks, type RegistryReads, type SandboxCredentials, type StoreSellerClocks } from "@ndc/auth";
import { loadFieldKey } from "@ndc/pii";
import { auditChain } from "@ndc/staff";
import { createGateway, ndcEntry, type GatewayApp, type NdcEntry } from "./app";
import { messageHandlers } from "./handlers";
import { createSupply, type Supply } from "@ndc/supply";
import { OfferRepository } from "@ndc/shopping";
import { ActorSystem } from "@ndc/actors";
import { InventoryService } from "@ndc/inventory";
import { ClearanceManager, OrderPayments, seedPayments } from "@ndc/payments";
import { OrdersService, type OrderPersistHook } from "@ndc/orders";
import { keptViewEncoder } from "./handlers/order-view-cache";
import type { MessageHandler } from "@ndc/messages";
import { startOrdersBackground, type OrdersBackground } from "./background";
import { clearanceDeskOf, Dispatcher, orderNotifications, Subscriptions, type Resolver } from "@ndc/notifications";
import { encodeDeliveredOrder, encodeOrderSnapshot, serviceDeliveryViewOf } from "@ndc/messages";
import { startDispatchLoop, type DispatchLoop } from "./dispatch-loop";
import { postWebhook } from "@ndc/scheduler";
import { salesReporter } from "./sales-report";
import { serviceStatusReporter } from "./service-status-report";
import { registryGrants } from "@ndc/auth";
import { TrafficMeter } from "./metrics/meter";
import type { FigureSources } from "./metrics/figures";

export interface BootedGateway {
  config: GatewayConfig;
  app: GatewayApp;
  /** POST /24.4/<MessageName> without Elysia: the edge's direct path (edge.ts), the same function the app's route calls. */
  ndc: NdcEntry;
  store: Store;
  logger: Logger;
  /** Local mode only: the shared sandbox client and API key. */
  sandbox: SandboxCredentials | null;
  /** Local mode only: whether this start issued them (created or rotated), so `serve` prints them once. */
  sandboxIssued: boolean;
  /** The simulated airline (tests switch its promotions engine, read its schedule). */
  supply: Supply;
  /** Seats and partner stock for every channel of this process. */
  inventory: InventoryService;
  /** The order domain (tests drive expiry and the reconciler through it). */
  orders: OrdersService;
  /** Every actor of this process (order, seat and partner-stock): bench/memory.ts reads how many are resident. */
  actors: ActorSystem;
  /** Payment-time-limit expiry and the saga reconciler, every ORDERS_BACKGROUND_MS; null when off. */
  background: OrdersBackground | null;
  /** The simulated Clearance Manager (settlement-plan clearances, PaymentClearanceRQ). */
  clearances: ClearanceManager;
  /** Subscriptions and the notification dispatcher (issue 10). */
  notifications: { subscriptions: Subscriptions; dispatcher: Dispatcher; loop: DispatchLoop | null };
  /** Business time (payment time limits, fee bands, departures): real time plus the sandbox offset of the seller whose work is under way. */
  clock: Clock;
  /** Each seller client's sandbox clock, in the store (local and sandbox modes; null in production). */
  sellerClocks: StoreSellerClocks | null;
  /** Real time (tokens, TOTP, staff sessions, rate limits, webhook-timestamp): the injected clock, which the sandbox never moves. */
  securityClock: Clock;
  close(): Promise<void>;
}

/**
 * Opens and migrates the store, makes sure the local sandbox seller exists, and assembles
 * the gateway. Used by `serve`, by tests (in process) and by benchmarks.
 */
export async function bootGateway(
  opts: {
    config?: GatewayConfig;
    logger?: Logger;
    /** Real time (tests inject a ManualClock): the security clock, and the base business time is moved from. */
    clock?: Clock;
    handlers?: Map<string, MessageHandler>;
    background?: boolean;
    /** Runs the operations jobs (feed, delivery, partner read-back) in the background pass: `serve --no-scheduler` (decision 0025). */
    operationsInBackground?: boolean;
    /** More for /health/ready (serve passes the scheduler's job status). */
    readyDetail?: (store: Store) => Promise<Record<string, unknown>>;
    /**
     * The closing check in the background pass, for a gateway with no scheduler beside its actors
     * (serve --no-scheduler, decision 0027); default true. serve with its in-process scheduler passes false.
     */
    closingInBackground?: boolean;
    /** Tests only: resolves subscription host names (a name pointing at 10.x). */
    resolve?: Resolver;
    /** Tests only: wraps the registry reads behind the auth cache (to count what reaches the store). */
    registryReads?: (store: Store) => RegistryReads;
  } = {},
): Promise<BootedGateway> {
  const config = opts.config ?? loadConfig();
  const logger = opts.logger ?? createLogger({ level: config.logLevel });
  const wallClock = opts.clock ?? systemClock;
  // Security time is never the movable clock: a staff member's authenticator, a token's holder and a
  // webhook receiver all read real time (issue 19 item 22).
  const securityClock = wallClock;
  // Business time: real time plus the offset of the seller whose work is under way, which only
  // that seller's POST /sandbox/clock moves (docs/sandbox-controls.md). Production has no offsets.
  // SANDBOX_CLOCK_START (local mode only) starts business time at a chosen instant, so tests book
  // fixed dates whatever the real date (docs/testing.md); security time stays real even then.
  const clock = new BusinessClock(wallClock === systemClock && config.sandboxClockStart !== undefined ? startedAt(config.sandboxClockStart) : wallClock);
  // The data directory holds the database, the field key and the sandbox secret: its owner's only.
  ensurePrivateDir(config.dataDir);
  // Fail at start, not at the first booking, when the field-encryption key is unusable.
  const fieldKey = loadFieldKey(config);
  const store = await openStore(config.databaseUrl, { driver: config.databaseDriver, authToken: config.databaseAuthToken });
  await migrate(store);
  const provision = config.mode === "local" ? await provisionSandbox({ store, config }) : null;
  const sellerClocks = config.mode === "production" ? null : storeSellerClocks(store);
  const sandbox = provision?.credentials ?? null;
  const auth = await createAuthService({ store, config, clock: securityClock, fieldKey, registryReads: opts.registryReads?.(store) });
  // The simulated airline sells from today (the injected clock's day) for 330 days.
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
  const orders = new OrdersService({
    system: actors,
    store,
    clock,
    inventory,
    payments,
    offers,
    supply,
    fieldKey,
    ownerCode: config.airline.designator,
    // An order change sellers (or the airline's revenue accounting) are told about writes its notification in the change's transaction.
    persistHook: allHooks(
      orderNotifications(config.airline.designator, {
        // ServiceDeliveryNotifRQ's Order: the delivered items as ServiceDeliveryRS shows them, read in the write.
        deliveredOrder: async (tx, order, ids) => {
          const view = serviceDeliveryViewOf(await orders.detailsIn(order, tx), { code: config.airline.designator, name: config.airline.name });
          const items = view.items.filter((i) => ids.includes(i.orderItemId));
          return items.length ? encodeDeliveredOrder({ ...view, items }) : null;
        },
        // OrderChangeNotifRQ's CurrentOrder: the changed order as OrderViewRS shows it, without identity documents (spec 6).
        currentOrder: async (tx, order) => encodeOrderSnapshot("CurrentOrder", await orders.detailsIn(order, tx), config.airline.designator),
      }),
      serviceStatusReporter(config.airline.designator, (tx, order) => orders.detailsIn(order, tx)),
    ),
    viewEncoder: keptViewEncoder(config.airline.designator),
    // Every sale, change, refund and void is reported to accounting in the write that records it.
    salesReporter: salesReporter(config.airline.designator),
    sellerClocks: sellerClocks ?? undefined,
  });
  // Views stored by an earlier process were placed on its schedule with its encoder.
  await orders.clearStoredViews();
  const heartbeat = await orders.announce(); // liveness: others take over this process's operations at once if it dies (decision 0040)
  const subscriptions = new Subscriptions({ store, clock, fieldKey, mode: config.mode, resolve: opts.resolve, maxPerAgency: config.notifySubscriptionsMax });
  // Read (or made, outside production) at first use: a boot that never signs makes no key.
  const airlineKey = lazyAirlineKey(config);
  const dispatcher = new Dispatcher({ store, clock, logger, subscriptions, mode: config.mode, resolve: opts.resolve, post: postWebhook, claimMs: config.notifyClaimMs, holdsGrant: registryGrants(store), signBody: notificationSigner(store, airlineKey), securityClock, sellerClocks: sellerClocks ?? undefined });
  const rateLimiter = createRateLimiter(config.rateLimits, securityClock);
  // The operations jobs, under the scheduler's names (apps/scheduler/src/jobs/operations.ts): the same domain calls.
  const operations = {
    "operations.feed": async () => await orders.operationsFeed(config.operationsFeedPerMille, config.shopping.supplySeed, clock.now()),
    // Each order at its owner's business time (its sandbox clock).
    "delivery.flown": async () => await orders.deliverFlown(),
    "partners.read-back": async () => await orders.partnerReadBack(),
  };
  // The dashboard's and /metrics' figures: NDC traffic counted in memory by this process, the rest read from the store.
  const meter = new TrafficMeter(clock);
  let background: OrdersBackground | null = null;
  const figures: FigureSources = { store, clock, meter, rateLimits: config.rateLimits, backgroundPass: () => background?.lastPass() ?? null };
  const gatewayDeps = {
    config,
    auth,
    rateLimiter,
    meter,
    figures,
    handlers: opts.handlers ?? messageHandlers({ config, store, clock, logger, supply, offers, actors, inventory, payments, orders, fieldKey, clearances }),
    logger,
    signatures: signatureStep({ store, clock: securityClock }),
    airlineKey,
    ready: async () => {
      await store.db.all("SELECT 1");
      return true;
    },
    readyDetail: opts.readyDetail ? () => opts.readyDetail!(store) : undefined,
    staff: { store, fieldKey, auditChain: auditChain(fieldKey, config.staffAuditAnchorFile), clock, securityClock, orders, rateLimiter, mode: config.mode, logger, figures },
    sellerClocks: sellerClocks ?? undefined,
    notifications: {
      subscriptions,
      clock,
      securityClock,
      sellerClocks,
      // The sweeps POST /sandbox/clock runs after moving time, in this order, and /sandbox/scheduler/run names.
      jobs: {
        "orders.expire-unpaid": async () => ({ cancelled: (await orders.expireUnpaid()).length }),
        "orders.retained-lapse": async () => ({ refunded: (await orders.lapseRetained()).length }),
        // Named as the scheduler's jobs (apps/scheduler/src/jobs): the same domain calls. In this
        // order: the airline's changes and deliveries, clearance, then the closing check that waits
        // for both.
        ...operations,
        "payments.clearance": async () => await clearances.clearDue(),
        "orders.closing": async () => {
          const { closed, waiting } = await orders.closeSettled();
          return { closed: closed.length, waiting };
        },
        "notifications.dispatch": async () => await dispatcher.tick(),
      },
      orders,
    },
  };
  const ndc = ndcEntry(gatewayDeps);
  const app = createGateway(gatewayDeps, ndc);
  // On by default on the wall clock (serve). A gateway on an injected clock (tests, benchmarks)
  // has it off unless asked: there the caller moves time and drives expiry itself, and a pass
  // firing between two steps of a test would race it.
  const onWallClock = wallClock === systemClock;
  background =
    (opts.background ?? onWallClock) && config.ordersBackgroundMs > 0
      ? startOrdersBackground(
          { orders, clock, logger, sweeps: opts.operationsInBackground ? { ...operations, "partners.read-back": every(config.partnerReadbackMinutes * 60_000, clock, operations["partners.read-back"]) } : undefined },
          { everyMs: config.ordersBackgroundMs, minAgeMs: config.ordersReconcileMinAgeMs, closing: opts.closingInBackground ?? true },
        )
      : null;
  // Same rule as the background pass: on by default on the wall clock only.
  const loop = (opts.background ?? onWallClock) && config.notifyDispatchMs > 0 ? startDispatchLoop({ dispatcher, logger }, { everyMs: config.notifyDispatchMs }) : null;
  return {
    config,
    clock,
    securityClock,
    sellerClocks,
    notifications: { subscriptions, dispatcher, loop },
    clearances,
    app,
    ndc,
    store,
    logger,
    sandbox,
    sandboxIssued: provision?.issued ?? false,
    supply,
    inventory,
    orders,
    actors,
    background,
    close: async () => {
      // The background pass asks actors to act: it stops (and finishes its pass) before they close.
      await background?.stop();
      await loop?.stop();
      // Actors first: their queued commands still need the store.
      await actors.close();
      await heartbeat.stop();
      await store.close();
    },
  };
}

/** Runs `run` at most once every `ms` of `clock` (the partner read-back's interval inside a faster pass); otherwise an empty summary. */
function every(ms: number, clock: Clock, run: () => Promise<Record<string, number>>): () => Promise<Record<string, number>> {
  let last = -Infinity;
  return async () => {
    const now = clock.now();
    if (now - last < ms) return {};
    last = now;
    return run();
  };
}

/** Several persist hooks as one, run in turn inside the order's write. */
function allHooks(...hooks: OrderPersistHook[]): OrderPersistHook {
  return async (tx, change) => {
    for (const hook of hooks) await hook(tx, change);
  };
}
