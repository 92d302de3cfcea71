import { eq } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { tables, type StoreDb } from "@ndc/store";
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
  const t = tables.paymentIdempotency;
  const rows = await tx.select().from(t).where(eq(t.idempotencyKey, key));
  const row = rows[0];
  if (!row) return undefined;
  if (row.operation !== operation || row.fingerprint !== fp) throw new GatewayError("idempotency_key_reused", { detail: `Operation ${operation}.` });
  return { state: row.state as KeyState, response: row.response ? (JSON.parse(row.response) as R) : undefined };
}

export async function writeKey(tx: StoreDb, key: string, operation: string, fp: string, state: KeyState, response: unknown, now: number): Promise<void> {
  const t = tables.paymentIdempotency;
  const text = response === undefined ? null : JSON.stringify(response);
  await tx
    .insert(t)
    .values({ idempotencyKey: key, operation, fingerprint: fp, state, response: text, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: t.idempotencyKey, set: { state, response: text, updatedAt: now } });
}
