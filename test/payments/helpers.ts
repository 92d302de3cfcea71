import { mkdtempSync, rmSync } from "node:fs";
import { databaseUrlFor, dropDatabaseFor, ON_POSTGRES } from "../support/database";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { migrate, openStore, type Store } from "@ndc/store";
import { OrderPayments, refundPlan, seedPayments, type RefundShare } from "@ndc/payments";
import type { Money } from "@ndc/money";

export interface Harness {
  dir: string;
  store: Store;
  clock: ManualClock;
  payments: OrderPayments;
  close(): Promise<void>;
}

/** A fresh migrated and seeded store in a temp dir; close() removes it. */
export async function harness(name = "payments"): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), `ndc-${name}-`));
  const store = await openStore(ON_POSTGRES ? databaseUrlFor(dir) : `file:${join(dir, "g.db")}`);
  await migrate(store);
  await seedPayments(store);
  const clock = new ManualClock();
  return {
    dir,
    store,
    clock,
    payments: new OrderPayments(store, clock),
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      dropDatabaseFor(dir);
    },
  };
}

/** The wire code a promise is refused with, or "resolved". */
export async function refusal(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    if (e instanceof GatewayError) return e.code;
    throw e;
  }
  return "resolved";
}

export const eur = (amount: number) => ({ amount, currency: "EUR" as const });

/**
 * A refund the way production makes one (the cancellation's, the items cancellation's, the
 * cheaper flight change's and the retained value's lapse sagas): the plan (refundPlan, newest
 * leg first) fixed once, as the saga fixes it in its commit; each card share paid at the PSP
 * under its key between the phases (RefundPayments.pay); every share recorded in one write
 * (RefundPayments.record). The returned call is the retry: it re-runs the same plan, as a saga's
 * recovery does, so nothing is paid back twice.
 */
export function refundAsSagasDo(payments: OrderPayments, orderId: string, amount: Money, key: string): () => Promise<RefundShare[]> {
  return releaseAsSagasDo(payments, key, async () => refundPlan(await payments.ledger.legs(orderId), amount.amount, amount.currency, orderId));
}

/** The same phases for a plan the caller makes (one leg's share, say). */
export function releaseAsSagasDo(payments: OrderPayments, key: string, planOf: () => Promise<RefundShare[]>): () => Promise<RefundShare[]> {
  let plan: RefundShare[] | undefined;
  return async () => {
    plan ??= await planOf();
    const shares = plan;
    await payments.release.pay(payments.store.db, shares, key);
    await payments.store.write((tx) => payments.release.record(tx, shares, key, payments.clock.now()));
    return shares;
  };
}
