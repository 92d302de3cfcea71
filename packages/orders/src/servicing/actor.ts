import { GatewayError } from "@ndc/errors";
import type { StoreDb } from "@ndc/store";
import { assertOwner, notFound, type Order, type Seller } from "../state";

/**
 * Who asks for a post-sale change: a seller over NDC (a machine channel: the fare can refuse it,
 * and only its own orders exist for it), or the airline's own staff in process (never refused by
 * the fare, SHPOR1 rule 4; not bound by an order's owner). Nothing a seller's token reaches can
 * claim the staff channel: it is only ever built by the staff's own callers.
 */
export type ServicingActor = { channel: "seller"; seller: Seller } | { channel: "airline_staff"; staffId: string };

/** The one test of the staff channel: every rule that treats staff otherwise (the fare, ownership, the change's record) asks it. */
export const isStaff = (by: ServicingActor): by is { channel: "airline_staff"; staffId: string } => by.channel === "airline_staff";

/** The order as `by` may see it: a seller's own order only (another's is order_not_found, like a missing one); any order for staff. */
export function orderFor<T extends Pick<Order, "owner">>(order: T | null | undefined, by: ServicingActor): T {
  if (!isStaff(by)) return assertOwner(order, by.seller);
  if (!order) throw notFound();
  if (!by.staffId) throw new GatewayError("request_invalid", { detail: "A staff change names its staff id." });
  return order;
}

/**
 * A write of the caller's own, made inside a staff change's commit write (the staff console's
 * audit row): it commits with the change or not at all. Run once, by the call that commits; a
 * retry finding the change committed already does not run it again.
 */
export type AlsoInCommit = (tx: StoreDb, made: CommitMade) => Promise<unknown>;

/** What the commit records, for the caller's row: the operation, how the fare allowed it, the rule overridden or the Flexibility spent. */
export interface CommitMade {
  operationId: string;
  allowedBy: "fare" | "flexibility" | "override";
  override?: { ruleCode: string; ruleText: string };
  flexibilityItemId?: string;
}
