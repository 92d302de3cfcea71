import { signatureStep } from "./ndc/signature-step";
import { lazyAirlineKey, notificationSigner } from "@ndc/signatures";
import { ensurePrivateDir, loadConfig, type GatewayConfig } from "@ndc/config";
import { OffsetClock, systemClock, type Clock } from "@ndc/clock";
import { createLogger, type Logger } from "@ndc/log";
import { openStore, migrate, type Store } from "@ndc/store";
import { createAuthService, createRateLimiter, provisionSandbox, type RegistryReads, type SandboxCredentials } from "@ndc/auth";
import { loadFieldKey } from "@ndc/pii";
import { createGateway, ndcEntry, type GatewayApp, type NdcEntry } from "./app";
import { messageHandlers } from "./handlers";
import { createSupply, type Supply } from "@ndc/supply";
import { OfferRepository } from "@ndc/shopping";
import { ActorSystem } from "@ndc/actors";
import { InventoryService } from "@ndc/inventory";
import { ClearanceManager, OrderPayments, seedPayments, type ClearanceDesk } from "@ndc/payments";
import { OrdersService } from "@ndc/orders";
import { keptViewEncoder } from "./handlers/order-view-cache";
import type { MessageHandler } from "@ndc/messages";
import { startOrdersBackground, type OrdersBackground } from "./background";
import { clearanceNotifications, Dispatcher, orderNotifications, Subscriptions, type Resolver } from "@ndc/notifications";
import { encodeDeliveredOrder, serviceDeliveryViewOf } from "@ndc/messages";
import { startDispatchLoop, type DispatchLoop } from "./dispatch-loop";
import { postWebhook } from "./webhook-post";
import { salesReporter } from "./sales-report";
import { registryGrants } from "./grants";
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
  /** The clock this gateway reads: in local mode on the wall clock, one POST /sandbox/clock moves. */
  clock: Clock;
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
  // Local mode on the wall clock: the sandbox controls may move it forward (docs/sandbox-controls.md).
  // SANDBOX_CLOCK_START starts it at a chosen instant (tests book fixed dates whatever the real date).
  const clock = wallClock === systemClock && config.mode === "local" ? new OffsetClock(config.sandboxClockStart === undefined ? 0 : config.sandboxClockStart - Date.now()) : wallClock;
  // The data directory holds the database, the field key and the sandbox secret: its owner's only.
  ensurePrivateDir(config.dataDir);
  // Fail at start, not at the first booking, when the field-encryption key is unusable.
  const fieldKey = loadFieldKey(config);
  const store = await openStore(config.databaseUrl, { driver: config.databaseDriver, authToken: config.databaseAuthToken });
  await migrate(store);
  const provision = config.mode === "local" ? await provisionSandbox({ store, config }) : null;
  const sandbox = provision?.credentials ?? null;
  const auth = await createAuthService({ store, config, clock, fieldKey, registryReads: opts.registryReads?.(store) });
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
  const clearanceDesk = clearanceDeskOf(config);
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
    // An order change sellers are told about writes its notification in the change's transaction.
    persistHook: orderNotifications(config.airline.designator, {
      // ServiceDeliveryNotifRQ's Order: the delivered items as ServiceDeliveryRS shows them, read in the write.
      deliveredOrder: async (tx, order, ids) => {
        const view = serviceDeliveryViewOf(await orders.detailsIn(order, tx), { code: config.airline.designator, name: config.airline.name });
        const items = view.items.filter((i) => ids.includes(i.orderItemId));
        return items.length ? encodeDeliveredOrder({ ...view, items }) : null;
      },
    }),
    viewEncoder: keptViewEncoder(config.airline.designator),
    // Every sale, change, refund and void is reported to accounting in the write that records it.
    salesReporter: salesReporter(config.airline.designator),
  });
  // Views stored by an earlier process were placed on its schedule with its encoder.
  await orders.clearStoredViews();
  const subscriptions = new Subscriptions({ store, clock, fieldKey, mode: config.mode, resolve: opts.resolve });
  // Read (or made, outside production) at first use: a boot that never signs makes no key.
  const airlineKey = lazyAirlineKey(config);
  const dispatcher = new Dispatcher({ store, clock, logger, subscriptions, mode: config.mode, resolve: opts.resolve, post: postWebhook, claimMs: config.notifyClaimMs, holdsGrant: registryGrants(store), signBody: notificationSigner(store, airlineKey) });
  const rateLimiter = createRateLimiter(config.rateLimits, clock);
  // The operations jobs, under the scheduler's names (apps/scheduler/src/jobs/operations.ts): the same domain calls.
  const operations = {
    "operations.feed": async () => await orders.operationsFeed(config.operationsFeedPerMille, config.shopping.supplySeed, clock.now()),
    "delivery.flown": async () => await orders.deliverFlown(clock.now()),
    "partners.read-back": async () => await orders.partnerReadBack(clock.now()),
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
    signatures: signatureStep({ store, clock }),
    airlineKey,
    ready: async () => {
      await store.db.all("SELECT 1");
      return true;
    },
    readyDetail: opts.readyDetail ? () => opts.readyDetail!(store) : undefined,
    staff: { store, fieldKey, clock, orders, rateLimiter, mode: config.mode, logger, figures },
    notifications: {
      subscriptions,
      clock,
      // The sweeps POST /sandbox/clock runs after moving time, in this order, and /sandbox/scheduler/run names.
      jobs: {
        "orders.expire-unpaid": async () => ({ cancelled: (await orders.expireUnpaid(clock.now())).length }),
        // Named as the scheduler's jobs (apps/scheduler/src/jobs): the same domain calls. In this
        // order: the airline's changes and deliveries, clearance, then the closing check that waits
        // for both.
        ...operations,
        "payments.clearance": async () => await clearances.clearDue(),
        "orders.closing": async () => {
          const { closed, waiting } = await orders.closeSettled(clock.now());
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
      await store.close();
    },
  };
}

/** The airline as clearance payee, and the hook that writes each clearance event's notification. */
export function clearanceDeskOf(config: GatewayConfig): ClearanceDesk {
  const carrier = { accountingCode: config.airline.accountingCode, designator: config.airline.designator };
  return { carrier, hook: clearanceNotifications(carrier) };
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
