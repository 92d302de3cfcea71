import { eq, ne, sql } from "drizzle-orm";
import type { SellerClocks } from "@ndc/clock";
import { preparedOnce, type Store } from "@ndc/store";
import * as tables from "./tables";

const T = tables.sandboxClocks;

/** Read on every NDC call of local and sandbox gateways: prepared once per connection (decision 0008's per-call floor). */
const selectOffset = preparedOnce((db) => db.select({ offsetMs: T.offsetMs }).from(T).where(eq(T.clientId, sql.placeholder("clientId"))).limit(1).prepare());

/** The seller clocks of docs/sandbox-controls.md, kept in the store (table sandbox_clocks). */
export interface StoreSellerClocks extends SellerClocks {
  /** Moves the client's clock forward by `ms`, in one statement (two calls at once both count); the new offset. */
  advance(clientId: string, ms: number, at: number): Promise<number>;
  /** Puts the client's clock at `offsetMs` ahead of real time (`seller certify` restores the one it found). */
  set(clientId: string, offsetMs: number, at: number): Promise<void>;
}

/**
 * Read at every use, not cached: a clock moved by one process (a gateway's /sandbox/clock) is the
 * clock another (a scheduler, a second gateway) reads next. Local and sandbox modes only: a
 * production gateway has no sandbox clocks and never reads the table.
 */
export function storeSellerClocks(store: Store): StoreSellerClocks {
  return {
    async offsetOf(clientId) {
      const rows = (await selectOffset(store.db).all({ clientId })) as { offsetMs: number }[];
      return rows[0]?.offsetMs ?? 0;
    },
    async moved() {
      const rows = await store.db.select({ clientId: T.clientId, offsetMs: T.offsetMs }).from(T).where(ne(T.offsetMs, 0)).all();
      return new Map(rows.map((r) => [r.clientId, r.offsetMs]));
    },
    async advance(clientId, ms, at) {
      const row = await store.write((tx) =>
        tx
          .insert(T)
          .values({ clientId, offsetMs: ms, updatedAt: at })
          .onConflictDoUpdate({ target: T.clientId, set: { offsetMs: sql`${T.offsetMs} + ${ms}`, updatedAt: at } })
          .returning({ offsetMs: T.offsetMs })
          .get(),
      );
      return row!.offsetMs;
    },
    async set(clientId, offsetMs, at) {
      await store.write((tx) => tx.insert(T).values({ clientId, offsetMs, updatedAt: at }).onConflictDoUpdate({ target: T.clientId, set: { offsetMs, updatedAt: at } }).run());
    },
  };
}
