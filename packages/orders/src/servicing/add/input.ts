import type { CommissionAgreement, LegRequest } from "@ndc/payments";
import type { OfferSelection } from "../../create/input";
import type { OrderItem, PostSaleCharge, SeatHoldRef, Seller } from "../../state";
import type { AlsoInCommit, ServicingActor } from "../actor";
import type { ChargePlanCore } from "../charge/operation";

/**
 * A post-sale change (ORDRE2, OrderChangeRQ): airline extras, or one seat for one passenger on
 * one flight, bought from an a-la-carte offer the gateway issued for this order (ServiceListRQ
 * or SeatAvailabilityRQ naming the order), paid by its own legs.
 */
export interface AddInput {
  /** Who asks (servicing/actor.ts): a seller over NDC, or the airline's staff in process (recorded on the change: history, OrderHistoryRS Carrier/SalesAgentID). */
  by: ServicingActor;
  /**
   * Whose offers and quotes the change reads, and whose client id keys its operation: the seller
   * itself, or for staff the staff's own client id under the order's agency
   * (OrdersService.staffOfferOwner), never a seller's credentials.
   */
  offerOwner: Seller;
  orderId: string;
  /** With the seller and the order, what makes a retry the same change. */
  correlationId: string;
  trxId: string;
  /** "seat": exactly one seat item for one passenger; "services": extras, no seat. */
  form: "seat" | "services";
  selections: OfferSelection[];
  /** SelectedSeat as sent (row and column, e.g. "12A"): the seat item chosen must be that seat. */
  seatId?: string;
  payment: LegRequest[];
  /** The agency's agreement as registered now (SHPOR1 rule 6); none: no commission. */
  commissionAgreement?: CommissionAgreement;
  /** A staff change's own audit row, written in the commit write; not part of what makes a retry the same. */
  alsoInCommit?: AlsoInCommit;
}

/** A seat the change gives up: its item and its hold. */
export interface ReleasedSeat {
  orderItemId: string;
  holdId: string;
  seatId: string;
  flightKey: string;
  /** The other passengers' seats of the same hold, kept sold under `kept` (set by the plan, its id derived from the operation). */
  keptSeatIds?: string[];
  kept?: SeatHoldRef;
}

/**
 * The change's recovery record (operations.plan): everything its phases write, decided before
 * the open write, so a retry or the reconciler resumes without reading an offer again. No
 * personal data: ids, amounts and seat ids.
 */
export interface AddPlan extends ChargePlanCore {
  /** The legs' change reference and the order's charge id. */
  changeRef: string;
  items: OrderItem[];
  charge: PostSaleCharge;
  /** The new seat's hold (one at most), taken in the open write: `seatHolds` (ChargePlanCore; older plans name it `seatHold`). */
  released?: ReleasedSeat;
  /** The airline's staff member who made the change (AddInput.by, staff). */
  staffId?: string;
}
