import type { PspSimulator } from "@ndc/payments";
import type { Store } from "@ndc/store";

/**
 * Counts store.write() calls while `fn` runs (the wrapper is removed afterwards), and how many
 * of them were the simulated PSP's own books (`psp.stats`): they stand for a foreign system,
 * so the gateway's count leaves them out (issue 8 §1, docs/orders.md "Durable writes").
 */
export async function countWrites<T>(store: Store, psp: PspSimulator, fn: () => Promise<T>): Promise<{ gateway: number; psp: number; result: T }> {
  const original = store.write;
  let writes = 0;
  const pspBefore = psp.stats.writes;
  store.write = ((work: Parameters<typeof original>[0]) => {
    writes++;
    return original.call(store, work);
  }) as typeof original;
  try {
    const result = await fn();
    const pspWrites = psp.stats.writes - pspBefore;
    return { result, gateway: writes - pspWrites, psp: pspWrites };
  } finally {
    store.write = original;
  }
}
