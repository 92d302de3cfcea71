import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { tables, type Store } from "@ndc/store";

const KEY_ID = "access-token-hmac-1";

/**
 * The token signing key: created once in the store (insert-or-ignore, so two processes starting
 * together agree on one), then read by every gateway on this database. Tokens survive restarts.
 */
export async function loadSigningKey(store: Store, now = Date.now()): Promise<Uint8Array> {
  const read = async () =>
    (await store.db.select().from(tables.tokenSigningKeys).where(eq(tables.tokenSigningKeys.keyId, KEY_ID)).limit(1))[0];
  let row = await read();
  if (!row) {
    await store.write(async (tx) => {
      await tx
        .insert(tables.tokenSigningKeys)
        .values({ keyId: KEY_ID, secret: randomBytes(32).toString("base64url"), createdAt: now })
        .onConflictDoNothing();
    });
    row = await read();
  }
  if (!row) throw new Error("token signing key could not be created");
  return new Uint8Array(Buffer.from(row.secret, "base64url"));
}
