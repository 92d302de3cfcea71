import { join } from "node:path";
import { SANDBOX_CREDENTIALS_FILE, type SandboxCredentials } from "@ndc/auth";
import type { GatewayConfig } from "@ndc/config";
import type { CliIo } from "./io";

/**
 * Local mode only: shows the shared sandbox client on the terminal, where the person who
 * just started the binary looks first. ensureSandbox (packages/auth) keeps the same values in
 * the data directory for scripts; they never go through the logger.
 */
export function printSandboxCredentials(creds: SandboxCredentials, config: GatewayConfig, io: CliIo): void {
  io.out("sandbox credentials (local mode only):");
  io.out(`  client_id      ${creds.client_id}`);
  io.out(`  client_secret  ${creds.client_secret}`);
  io.out(`  api_key        ${creds.api_key}`);
  io.out(`  agency_id      ${creds.agency_id}`);
  io.out(`  iata_number    ${creds.iata_number}`);
  io.out(`  saved in       ${join(config.dataDir, SANDBOX_CREDENTIALS_FILE)}`);
}
