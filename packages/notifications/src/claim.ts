import { and, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { unlockedRows, type Store } from "@ndc/store";
import { notificationDeliveries as D } from "./tables";

/**
 * Takes the deliveries still due and unclaimed at `now` among `ids` until `until`, in one write,
 * and answers the rows taken: a row another dispatcher took in between is not returned. On
 * PostgreSQL a row another dispatcher (on this machine or another) is taking at this very moment
 * is skipped, not waited for (unlockedRows: FOR UPDATE SKIP LOCKED); SQLite's serial writes need
 * no such thing. The claim is a lease in the dispatchers' business time: see decision 0041 on why
 * a skew between machines' clocks can only make a lapsed claim be retaken early (a duplicate
 * delivery with the same webhook-id, which at-least-once delivery allows), never two at once.
 *
 * The rows come back in the order of `ids` (the dispatcher's oldest due first), so that attempts
 * start in that order: UPDATE ... RETURNING has no order of its own (SQLite happens to return
 * them as it finds them in its index, PostgreSQL in whatever order its scan meets them), and a
 * seller should not be sent a clearance's CNCLD before the ACCPT written before it.
 */
export async function claimDeliveries(store: Store, ids: string[], now: number, until: number): Promise<(typeof D.$inferSelect)[]> {
  const stillDue = and(inArray(D.deliveryId, ids), eq(D.status, "pending"), or(isNull(D.claimedUntil), lte(D.claimedUntil, now)));
  const taken = await store.write((tx) => tx.update(D).set({ claimedUntil: until }).where(unlockedRows(store.dialect, D, D.deliveryId, stillDue)).returning().all());
  const place = new Map(ids.map((id, i) => [id, i]));
  return taken.sort((a, b) => place.get(a.deliveryId)! - place.get(b.deliveryId)!);
}
