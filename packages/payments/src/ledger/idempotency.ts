import { eq, sql } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import { sha256Hex, stableJson } from "../util";

export type KeyState = "in_flight" | "done";

export interface KeyRecord<R> {
  state: KeyState;
  /** done: the stored answer; in_flight: the recovery point (plan), if any. */
  response?: R;
}

export function fingerprint(request: unknown): string {
  return sha256Hex(stableJson(request));
}

/**
 * The stored record for a key, checked against the request's fingerprint (formance/Stripe): the
 * same key with a different request is refused rather than answered with someone else's result.
 */
export async function readKey<R>(tx: StoreDb, key: string, operation: string, fp: string): Promise<KeyRecord<R> | undefined> {
  const rows = (await selectKey(tx).all({ key })) as (typeof tables.paymentIdempotency.$inferSelect)[];
  const row = rows[0];
  if (!row) return undefined;
  if (row.operation !== operation || row.fingerprint !== fp) throw new GatewayError("idempotency_key_reused", { detail: `Operation ${operation}.` });
  return { state: row.state as KeyState, response: row.response ? (JSON.parse(row.response) as R) : undefined };
}

export async function writeKey(tx: StoreDb, key: string, operation: string, fp: string, state: KeyState, response: unknown, now: number): Promise<void> {
  const text = response === undefined ? null : JSON.stringify(response);
  await upsertKey(tx).run({ key, operation, fp, state, text, now });
}

// Prepared once per connection: every payment step reads and writes its key (issue 8).
const K = tables.paymentIdempotency;
const selectKey = preparedOnce((db) => db.select().from(K).where(eq(K.idempotencyKey, sql.placeholder("key"))).prepare());
const upsertKey = preparedOnce((db) =>
  db
    .insert(K)
    .values({
      idempotencyKey: sql.placeholder("key"),
      operation: sql.placeholder("operation"),
      fingerprint: sql.placeholder("fp"),
      state: sql.placeholder("state"),
      response: sql.placeholder("text"),
      createdAt: sql.placeholder("now"),
      updatedAt: sql.placeholder("now"),
    })
    // excluded.*: the row this insert proposed, i.e. the same state, response and time.
    .onConflictDoUpdate({ target: K.idempotencyKey, set: { state: sql`excluded.state`, response: sql`excluded.response`, updatedAt: sql`excluded.updated_at` } })
    .prepare(),
);
