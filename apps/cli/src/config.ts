import { loadConfig, type GatewayConfig } from "@ndc/config";
import { createLogger, type Logger } from "@ndc/log";
import type { CliIo } from "./io";

/** Config and logger the way every command builds them: from the environment, nothing else. */
export function loadRuntime(io: CliIo): { config: GatewayConfig; logger: Logger } {
  const config = loadConfig(io.env);
  return { config, logger: createLogger({ level: config.logLevel }) };
}
