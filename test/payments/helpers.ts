import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { migrate, openStore, type Store } from "@ndc/store";
import { OrderPayments, seedPayments } from "@ndc/payments";

export interface Harness {
  dir: string;
  file: string;
  store: Store;
  clock: ManualClock;
  payments: OrderPayments;
  close(): Promise<void>;
}

/** A fresh migrated and seeded store in a temp dir; close() removes it. */
export async function harness(name = "payments"): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), `ndc-${name}-`));
  const file = join(dir, "g.db");
  const store = await openStore(`file:${file}`);
  await migrate(store);
  await seedPayments(store);
  const clock = new ManualClock();
  return {
    dir,
    file,
    store,
    clock,
    payments: new OrderPayments(store, clock),
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
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
