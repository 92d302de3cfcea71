import { OfferRepository } from "@ndc/shopping";
import type { ScheduledJob } from "../job";

/**
 * Expired offers can no longer be priced or ordered (OfferRepository refuses them by time
 * already); this only keeps the table from growing without bound. Offers are immutable rows
 * with no owner actor, so deleting expired ones here writes nobody else's state.
 */
export const offersPurge: ScheduledJob = {
  name: "offers.purge",
  schedule: "0 */10 * * * *", // every ten minutes
  description: "delete offers whose expiry has passed",
  async run({ store, clock }) {
    const purged = await new OfferRepository(store, clock).purgeExpired(clock.now());
    return { purged };
  },
};
