import { join } from "node:path";
import { SANDBOX_CREDENTIALS_FILE, type SandboxCredentials } from "@ndc/auth";
import type { GatewayConfig } from "@ndc/config";
import type { CliIo } from "./io";

/**
 * Local mode only: shows the shared sandbox client on the terminal, where the person who
 * just started the binary looks first. The secrets (client_secret, api_key) are printed only by
 * the start that issued them (created, or rotated because the saved file no longer verified):
 * every later start names the file that holds them instead, so they do not end up in every
 * terminal scroll-back and captured service log. They never go through the logger.
 */
export function printSandboxCredentials(creds: SandboxCredentials, issued: boolean, config: GatewayConfig, io: CliIo): void {
  const file = join(config.dataDir, SANDBOX_CREDENTIALS_FILE);
  if (!issued) {
    io.out(`sandbox credentials (local mode only): client ${creds.client_id}, agency ${creds.agency_id}`);
    io.out(`  client_secret and api_key are unchanged and kept in ${file} (printed only when they are created)`);
    return;
  }
  io.out("sandbox credentials (local mode only), created now and printed this once:");
  io.out(`  client_id      ${creds.client_id}`);
  io.out(`  client_secret  ${creds.client_secret}`);
  io.out(`  api_key        ${creds.api_key}`);
  io.out(`  agency_id      ${creds.agency_id}`);
  io.out(`  iata_number    ${creds.iata_number}`);
  io.out(`  saved in       ${file}`);
}
