import { loadConfig, type GatewayConfig } from "@ndc/config";
import { systemClock, type Clock } from "@ndc/clock";
import { createLogger, type Logger } from "@ndc/log";
import { openStore, migrate, type Store } from "@ndc/store";
import { createAuthService, createRateLimiter, ensureSandbox, type SandboxCredentials } from "@ndc/auth";
import { loadFieldKey } from "@ndc/pii";
import { createGateway, type GatewayApp } from "./app";
import { messageHandlers } from "./handlers";
import type { MessageHandler } from "@ndc/messages";

export interface BootedGateway {
  config: GatewayConfig;
  app: GatewayApp;
  store: Store;
  logger: Logger;
  /** Local mode only: the shared sandbox client and API key. */
  sandbox: SandboxCredentials | null;
  close(): Promise<void>;
}

/**
 * Opens and migrates the store, makes sure the local sandbox seller exists, and assembles
 * the gateway. Used by `serve`, by tests (in process) and by benchmarks.
 */
export async function bootGateway(
  opts: { config?: GatewayConfig; logger?: Logger; clock?: Clock; handlers?: Map<string, MessageHandler> } = {},
): Promise<BootedGateway> {
  const config = opts.config ?? loadConfig();
  const logger = opts.logger ?? createLogger({ level: config.logLevel });
  const clock = opts.clock ?? systemClock;
  // Fail at start, not at the first booking, when the field-encryption key is unusable.
  loadFieldKey(config);
  const store = await openStore(config.databaseUrl, { driver: config.databaseDriver, authToken: config.databaseAuthToken });
  await migrate(store);
  const sandbox = config.mode === "local" ? await ensureSandbox({ store, config }) : null;
  const auth = await createAuthService({ store, config, clock });
  const app = createGateway({
    config,
    auth,
    rateLimiter: createRateLimiter(config.rateLimits, clock),
    handlers: opts.handlers ?? messageHandlers(),
    logger,
    ready: async () => {
      await store.db.all("SELECT 1");
      return true;
    },
  });
  return { config, app, store, logger, sandbox, close: () => store.close() };
}
