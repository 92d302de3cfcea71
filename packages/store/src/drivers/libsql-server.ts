import type { Client } from "@libsql/client";
import { createClient } from "@libsql/client/web";
import { drizzle } from "drizzle-orm/libsql/web";
import type { Store, StoreDb } from "../open";
import { runCommitted, withEndOfWrite } from "../end-of-write";
import { assemble } from "./assemble";

/**
 * A libSQL server (sqld, Turso): libsql://, wss://, https://. The web flavour of the client
 * speaks HTTP/WebSocket only and needs no native addon, so even the compiled binary can use it.
 * Durability is the server's (its own WAL and replication settings); write() is an
 * interactive write transaction on one server stream.
 */
export async function openLibsqlServer(url: string, authToken?: string): Promise<Store> {
  const client: Client = createClient({ url, authToken });
  return assemble({
    db: drizzle({ client }) as unknown as StoreDb,
    exec: (sql) => client.executeMultiple(sql),
    transaction: async (fn) => {
      const t = await client.transaction("write");
      try {
        // Drizzle only calls execute/batch on its client, which a Transaction provides too.
        const tx = drizzle({ client: t as unknown as Client }) as unknown as StoreDb;
        const committed: (() => void)[] = [];
        const result = await withEndOfWrite(tx, () => fn(tx, { exec: (sql) => t.executeMultiple(sql) }), committed);
        await t.commit();
        runCommitted(committed);
        return result;
      } catch (e) {
        await t.rollback().catch(() => undefined);
        throw e;
      } finally {
        t.close();
      }
    },
    close: () => client.close(),
  });
}
