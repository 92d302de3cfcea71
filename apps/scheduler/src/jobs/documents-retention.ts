import { sweepRetention } from "@ndc/pii";
import type { ScheduledJob } from "../job";

/**
 * The identity-document retention sweep (spec 8; docs/identity-documents.md): documents are erased
 * ORDER_TRAVEL_DOC_RETENTION_DAYS after the order's travel ends, the deadline recomputed every run
 * from the order's current dates. At most 500 orders a run. It writes only identity_documents
 * rows (owned by @ndc/pii, not by the order actor, whose state never holds a document).
 */
export const documentsRetention: ScheduledJob = {
  name: "documents.retention",
  schedule: "0 41 * * * *",
  description: "erase identity documents past their retention deadline",
  async run({ store, config, clock }) {
    return sweepRetention(store, clock.now(), config.travelDocRetentionDays);
  },
};
