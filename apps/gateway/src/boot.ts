import { signatureStep } from "./ndc/signature-step";
import { loadConfig, type GatewayConfig } from "@ndc/config";
import type { Clock } from "@ndc/clock";
import { createLogger, type Logger } from "@ndc/log";
import type { Store } from "@ndc/store";
import { createAuthService, createRateLimiter, provisionSandbox, storeFailureBudget, type RegistryReads, type SandboxCredentials, type StoreSellerClocks } from "@ndc/auth";
import { auditChain } from "@ndc/staff";
import { createGateway, ndcEntry, type GatewayApp, type NdcEntry } from "./app";
import { messageHandlers } from "./handlers";
import type { Supply } from "@ndc/supply";
import type { ActorSystem } from "@ndc/actors";
import type { InventoryService } from "@ndc/inventory";
import type { ClearanceManager } from "@ndc/payments";
import type { OrdersService } from "@ndc/orders";
import { keptViewEncoder } from "./handlers/order-view-cache";
import type { MessageHandler } from "@ndc/messages";
import type { Dispatcher, Resolver, Subscriptions } from "@ndc/notifications";
import { openDomain, type Domain } from "@ndc/domain";
import { jobContextOf, jobsByName, postWebhook } from "@ndc/scheduler";
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
  /** The airline's domain this gateway serves (the same assembly as the scheduler app's: @ndc/domain). */
  domain: Domain;
  /** The simulated Clearance Manager (settlement-plan clearances, PaymentClearanceRQ). */
  clearances: ClearanceManager;
  /** Subscriptions and the notification dispatcher (issue 10). */
  notifications: { subscriptions: Subscriptions; dispatcher: Dispatcher };
  /** Business time (payment time limits, fee bands, departures): real time plus the sandbox offset of the seller whose work is under way. */
  clock: Clock;
  /** Each seller client's sandbox clock, in the store (local and sandbox modes; null in production). */
  sellerClocks: StoreSellerClocks | null;
  /** Real time (tokens, TOTP, staff sessions, rate limits, webhook-timestamp): the injected clock, which the sandbox never moves. */
  securityClock: Clock;
  close(): Promise<void>;
}

/**
 * The gateway: the domain (@ndc/domain: store, actors, orders, notifications), the sandbox seller
 * in local mode, auth and the HTTP app. It runs no scheduled work: expiry, the reconciler, dispatch
 * and every other job run in the scheduler app (`ndc-gateway scheduler`), and the sandbox controls
 * run the same job functions by name in this process. Used by `serve`, by tests (in process) and
 * by benchmarks.
 */
export async function bootGateway(
  opts: {
    config?: GatewayConfig;
    logger?: Logger;
    /** Real time (tests inject a ManualClock): the security clock, and the base business time is moved from. */
    clock?: Clock;
    handlers?: Map<string, MessageHandler>;
    /** More for /health/ready (serve passes the scheduler's job status). */
    readyDetail?: (store: Store) => Promise<Record<string, unknown>>;
    /** Tests only: resolves subscription host names (a name pointing at 10.x). */
    resolve?: Resolver;
    /** Tests only: wraps the registry reads behind the auth cache (to count what reaches the store). */
    registryReads?: (store: Store) => RegistryReads;
  } = {},
): Promise<BootedGateway> {
  const config = opts.config ?? loadConfig();
  const logger = opts.logger ?? createLogger({ level: config.logLevel });
  // The view each order write stores is also kept for this process's answers (handlers/order-view-cache.ts).
  const domain = await openDomain({ config, logger, clock: opts.clock, resolve: opts.resolve, viewEncoder: keptViewEncoder(config.airline.designator), post: postWebhook });
  const { store, clock, securityClock, sellerClocks, fieldKey, supply, offers, actors, inventory, payments, clearances, orders, subscriptions, dispatcher, airlineKey } = domain;
  const provision = config.mode === "local" ? await provisionSandbox({ store, config }) : null;
  const sandbox = provision?.credentials ?? null;
  const auth = await createAuthService({ store, config, clock: securityClock, fieldKey, registryReads: opts.registryReads?.(store) });
  const rateLimiter = createRateLimiter(config.rateLimits, securityClock);
  // Failed authentications, counted in the store: one budget for every process (docs/authentication.md).
  const failures = storeFailureBudget(store, config.rateLimits.tokenFailuresPerMinute, securityClock);
  // The dashboard's and /metrics' figures: NDC traffic counted in memory by this process, the rest
  // (the scheduler's jobs among them) read from the store.
  const meter = new TrafficMeter(clock);
  const figures: FigureSources = { store, clock, meter, rateLimits: config.rateLimits };
  const gatewayDeps = {
    config,
    auth,
    rateLimiter,
    failures,
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
    staff: { store, fieldKey, auditChain: auditChain(fieldKey, config.staffAuditAnchorFile), clock, securityClock, orders, failures, mode: config.mode, logger, figures },
    sellerClocks: sellerClocks ?? undefined,
    notifications: {
      subscriptions,
      clock,
      securityClock,
      sellerClocks,
      // The scheduler's jobs by name, over this process's domain: /sandbox/clock's sweeps and
      // /sandbox/scheduler/run run them here, whichever process answers (apps/scheduler/src/jobs).
      jobs: jobsByName(jobContextOf(domain, logger)),
      orders,
    },
  };
  const ndc = ndcEntry(gatewayDeps);
  const app = createGateway(gatewayDeps, ndc);
  return {
    config,
    clock,
    securityClock,
    sellerClocks,
    notifications: { subscriptions, dispatcher },
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
    domain,
    close: () => domain.close(),
  };
}
