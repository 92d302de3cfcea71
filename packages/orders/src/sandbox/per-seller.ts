import { atSellerOffset, sellerOffset, type Clock, type SellerClocks } from "@ndc/clock";

/**
 * A sweep run at each order owner's business time (docs/sandbox-controls.md): the business "now"
 * of an order is the real clock plus its owner's sandbox offset. First, once per seller client
 * whose clock is moved, on that client's orders alone at its own now (and in its context, so the
 * order actors decide on its time); then once on every order at the real clock. Offsets never go
 * below zero, so an order due at the real clock is due at its owner's too: the last run only finds
 * the orders of sellers on real time, and any a moved seller's run left for the next pass.
 */
export async function perSeller<T>(clock: Clock, clocks: SellerClocks | undefined, sweep: (now: number, owner?: string) => Promise<T>): Promise<T[]> {
  // The real clock: the business clock outside any seller's work.
  const base = clock.now() - sellerOffset();
  const runs: T[] = [];
  for (const [clientId, offsetMs] of (await clocks?.moved()) ?? []) {
    if (offsetMs > 0) runs.push(await atSellerOffset(offsetMs, () => sweep(base + offsetMs, clientId)));
  }
  runs.push(await atSellerOffset(0, () => sweep(base)));
  return runs;
}
