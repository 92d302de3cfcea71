import { eq } from "drizzle-orm";
import type { Store } from "@ndc/store";
import * as tables from "../tables";
import { apiKeyDigest, newApiKey, newApiKeyId } from "../secrets";
import { requireClient } from "./clients";

/**
 * X-API-Key credentials for a local gateway (spec 5.8). The key is returned once; the store
 * keeps its SHA-256 digest. Every key is local-only: other modes refuse it outright.
 */
export async function createApiKey(store: Store, clientId: string, now = Date.now()): Promise<{ keyId: string; apiKey: string }> {
  const apiKey = newApiKey();
  const keyId = newApiKeyId();
  await store.write(async (tx) => {
    await requireClient(tx, clientId);
    await tx.insert(tables.apiKeys).values({ keyId, keyHash: apiKeyDigest(apiKey), clientId, localOnly: true, revoked: false, createdAt: now });
  });
  return { keyId, apiKey };
}

export async function revokeApiKeys(store: Store, clientId: string): Promise<void> {
  await store.write(async (tx) => {
    await tx.update(tables.apiKeys).set({ revoked: true }).where(eq(tables.apiKeys.clientId, clientId));
  });
}
