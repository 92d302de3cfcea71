import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { ALL_SCOPES } from "./registry/scopes";
import { ensurePrivateDir, narrowIfPresent, PRIVATE_FILE_MODE, type GatewayConfig } from "@ndc/config";
import type { Store } from "@ndc/store";
import * as tables from "./tables";
import { apiKeyDigest, verifySecret } from "./secrets";
import { findAgency, registerAgency } from "./registry/agencies";
import { isRegistryError } from "./registry/errors";
import { registerClient, rotateSecret } from "./registry/clients";
import { createApiKey, revokeApiKeys } from "./registry/api-keys";
import { loadCaller } from "./access/lookup";

/** What a local gateway hands its developer: exactly the fields of sandbox-credentials.json. */
export interface SandboxCredentials {
  client_id: string;
  client_secret: string;
  api_key: string;
  agency_id: string;
  iata_number: string;
}

export const SANDBOX_AGENCY_ID = "SANDBOX-AGENCY";
export const SANDBOX_IATA_NUMBER = "99999999";
export const SANDBOX_CLIENT_ID = "sandbox-local";
export const SANDBOX_CREDENTIALS_FILE = "sandbox-credentials.json";
/** Every seller scope; acting for other agencies is not something the sandbox seller does. */
const SANDBOX_SCOPES = ALL_SCOPES.filter((s) => s !== "ndc:aggregator");

/**
 * Local mode (spec 5.8): makes sure the shared sandbox agency, client and API key exist and that
 * $GATEWAY_DATA_DIR/sandbox-credentials.json holds working credentials. Secrets are shown once,
 * so a later start reuses the file when it still verifies, and rotates and rewrites it otherwise.
 * The client and key are marked local-only: other modes refuse them even if the rows exist.
 */
export async function ensureSandbox(opts: { store: Store; config: GatewayConfig }): Promise<SandboxCredentials | null> {
  return (await provisionSandbox(opts))?.credentials ?? null;
}

/** ensureSandbox, also saying whether the secrets were issued by this call (created or rotated). */
export interface SandboxProvision {
  credentials: SandboxCredentials;
  /** True when this call wrote new secrets to the file; false when the saved ones still verify. */
  issued: boolean;
  /** $GATEWAY_DATA_DIR/sandbox-credentials.json */
  file: string;
}

/**
 * ensureSandbox's work. A terminal shows the secrets only when `issued` (DESIGN 5: a secret is
 * shown once): a restart that reuses the saved file names the file instead of printing them.
 */
export async function provisionSandbox(opts: { store: Store; config: GatewayConfig }): Promise<SandboxProvision | null> {
  const { store, config } = opts;
  if (config.mode !== "local") return null;
  const file = join(config.dataDir, SANDBOX_CREDENTIALS_FILE);
  // It holds a client secret and an API key: its owner's only, even if an earlier run left it wider.
  narrowIfPresent(file);

  if (!(await findAgency(store.db, SANDBOX_AGENCY_ID))) {
    // Another process starting on the same database may win the race: that is fine.
    await registerAgency(store, { agencyId: SANDBOX_AGENCY_ID, iataNumber: SANDBOX_IATA_NUMBER, name: "Sandbox Agency (local gateway)" }).catch(
      (e) => {
        if (!(isRegistryError(e) && e.code === "agency_exists")) throw e;
      },
    );
  }
  let existing = await loadCaller(store.db, SANDBOX_CLIENT_ID);
  if (!existing) {
    let failure: unknown;
    try {
      const issued = await registerClient(store, {
        clientId: SANDBOX_CLIENT_ID,
        agency: SANDBOX_AGENCY_ID,
        scopes: SANDBOX_SCOPES,
        name: "Shared sandbox client (local only)",
        localOnly: true,
      });
      const { apiKey } = await createApiKey(store, SANDBOX_CLIENT_ID);
      return { credentials: save(file, credentials(issued.clientSecret, apiKey)), issued: true, file };
    } catch (e) {
      failure = e;
    }
    // Created meanwhile by another process: fall through to the reuse-or-rotate path.
    existing = await loadCaller(store.db, SANDBOX_CLIENT_ID);
    if (!existing) throw failure;
  }

  const saved = readSaved(file);
  let secret = saved?.client_secret;
  let apiKey = saved?.api_key;
  if (!secret || !(await verifySecret(secret, existing.client.secretHash))) {
    secret = (await rotateSecret(store, SANDBOX_CLIENT_ID)).clientSecret;
  }
  if (!apiKey || !(await apiKeyLive(store, apiKey))) {
    await revokeApiKeys(store, SANDBOX_CLIENT_ID);
    apiKey = (await createApiKey(store, SANDBOX_CLIENT_ID)).apiKey;
  }
  const creds = credentials(secret, apiKey);
  const changed = !saved || saved.client_secret !== creds.client_secret || saved.api_key !== creds.api_key || saved.client_id !== creds.client_id;
  if (changed) save(file, creds);
  return { credentials: creds, issued: changed, file };
}

function credentials(clientSecret: string, apiKey: string): SandboxCredentials {
  return {
    client_id: SANDBOX_CLIENT_ID,
    client_secret: clientSecret,
    api_key: apiKey,
    agency_id: SANDBOX_AGENCY_ID,
    iata_number: SANDBOX_IATA_NUMBER,
  };
}

async function apiKeyLive(store: Store, apiKey: string): Promise<boolean> {
  const rows = await store.db
    .select({ keyId: tables.apiKeys.keyId })
    .from(tables.apiKeys)
    .where(
      and(eq(tables.apiKeys.keyHash, apiKeyDigest(apiKey)), eq(tables.apiKeys.clientId, SANDBOX_CLIENT_ID), eq(tables.apiKeys.revoked, false)),
    )
    .limit(1);
  return rows.length > 0;
}

function readSaved(file: string): Partial<SandboxCredentials> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const v = JSON.parse(readFileSync(file, "utf8"));
    return v && typeof v === "object" ? (v as Partial<SandboxCredentials>) : undefined;
  } catch {
    return undefined;
  }
}

/** Written beside the database, readable by its owner only (0600), replaced atomically. */
function save(file: string, creds: SandboxCredentials): SandboxCredentials {
  ensurePrivateDir(join(file, ".."));
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(creds, null, 2) + "\n", { mode: PRIVATE_FILE_MODE });
  chmodSync(tmp, PRIVATE_FILE_MODE);
  renameSync(tmp, file);
  return creds;
}
