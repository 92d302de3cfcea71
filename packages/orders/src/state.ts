/**
 * The order model and its state table, in one place (spec 3). Every change goes through
 * `transition()` so a move the table does not list cannot happen, and every change raises the
 * version by one and appends a history entry (OrderHistory).
 */
import { GatewayError } from "@ndc/errors";
import type { IntendedPayment, LegState } from "@ndc/payments";
import type { FrozenConditions } from "./conditions/frozen";

export type OrderState = "held_unpaid" | "held_payment_declined" | "booked" | "cancelled" | "closed";

/** The NDC names of the states, for views and docs. */
export const STATE_NAMES: Readonly<Record<OrderState, string>> = {
  held_unpaid: "Held unpaid (ORDWPM)",
  held_payment_declined: "Held, payment declined",
  booked: "Booked",
  cancelled: "Cancelled",
  closed: "Closed",
};

export const HELD_STATES: readonly OrderState[] = ["held_unpaid", "held_payment_declined"];
export const isHeld = (s: OrderState) => HELD_STATES.includes(s);

/** How long a held order keeps its seats and partner units waiting for payment. */
export const PAYMENT_TIME_LIMIT_MS = 24 * 60 * 60_000;

/** What changed an order; the `kind` of its history entries. */
export type ChangeKind =
  | "created"
  | "payment_captured"
  | "payment_declined"
  | "payment_authorised"
  | "inventory_confirmed"
  | "payment_expired"
  | "items_added"
  | "cancelled"
  | "refunded"
  | "pax_updated"
  | "flights_changed"
  | "closed"
  | "items_cancelled"
  | "schedule_changed"
  | "flights_flown"
  | "partner_delivered"
  | "retained_lapsed";

/**
 * The moves the spec states (section 3), plus the seller's retry (4.7 OrderChangeRQ). `from:
 * null` is creation. Closed is reached by the closing check (reconcile/close.ts).
 */
export const TRANSITIONS: readonly { from: OrderState | null; kind: ChangeKind; to: OrderState; rule: string }[] = [
  { from: null, kind: "created", to: "held_unpaid", rule: "OrderCreateRQ without PaymentFunctions, or naming only the method it will pay by (PaymentMethodCriteria): held unpaid (ORDWPM) with a payment time limit." },
  { from: null, kind: "created", to: "booked", rule: "OrderCreateRQ with PaymentFunctions, every leg authorised: booked; legs captured after booking." },
  { from: null, kind: "created", to: "held_payment_declined", rule: "A leg declined: every authorised leg voided; held within the payment time limit." },
  { from: "held_unpaid", kind: "payment_authorised", to: "booked", rule: "OrderChangeRQ pays within the time limit." },
  { from: "held_payment_declined", kind: "payment_authorised", to: "booked", rule: "OrderChangeRQ retries the declined payment within the time limit." },
  { from: "held_unpaid", kind: "payment_declined", to: "held_payment_declined", rule: "A payment attempt on a held order is declined." },
  { from: "held_payment_declined", kind: "payment_declined", to: "held_payment_declined", rule: "A retry is declined again; the time limit does not move." },
  { from: "held_unpaid", kind: "payment_expired", to: "cancelled", rule: "Payment time limit reached unpaid: cancelled, holds released." },
  { from: "held_payment_declined", kind: "payment_expired", to: "cancelled", rule: "Payment time limit reached unpaid: cancelled, holds released." },
  { from: "booked", kind: "payment_captured", to: "booked", rule: "The booked order's legs are captured." },
  { from: "booked", kind: "inventory_confirmed", to: "booked", rule: "The booked order's seat and partner holds become sales." },
  { from: "booked", kind: "items_added", to: "booked", rule: "OrderChangeRQ adds airline extras or a seat (ORDRE2), or changes a seat held; its legs authorised before, captured after." },
  { from: "booked", kind: "cancelled", to: "cancelled", rule: "OrderChangeRQ AcceptCancelledOffer accepts a firm cancel quote: seats and partner stock released in the same write." },
  { from: "cancelled", kind: "refunded", to: "cancelled", rule: "The quoted refund is paid back to every captured leg, newest first." },
  { from: "booked", kind: "items_cancelled", to: "booked", rule: "OrderChangeRQ AcceptCancelledOffer accepts a firm quote to cancel items (extras, seats, partner products): their seats and partner stock released in the same write." },
  { from: "booked", kind: "refunded", to: "booked", rule: "Cancelled items, or a flight change costing less than the fare paid: the quoted amount is paid back to the captured legs, newest first, after the change is made." },
  { from: "booked", kind: "retained_lapsed", to: "booked", rule: "The value retained by an items cancellation with RespendInd (never spent) lapses at the order's first departure: it is refunded to the captured legs, newest first." },
  { from: "booked", kind: "flights_changed", to: "booked", rule: "OrderChangeRQ accepts a flight-change quote: one direction's flights replaced (or several directions together), the amount due authorised before and captured after." },
  { from: "booked", kind: "pax_updated", to: "booked", rule: "OrderChangeRQ UpdatePax corrects a passenger's name where the outbound fare is renameable; no money moves." },
  { from: "booked", kind: "closed", to: "closed", rule: "The closing check: every service delivered, no-show or removed, and the money settled (payments captured, clearances cleared); OrderClosingNotifRQ is sent." },
  { from: "booked", kind: "schedule_changed", to: "booked", rule: "The airline retimes or cancels one of the order's flights (operations feed, sandbox control): new times, or the flight removed and the order flagged for re-accommodation; order.changed is pushed." },
  { from: "held_unpaid", kind: "schedule_changed", to: "held_unpaid", rule: "The same airline change on a held order." },
  { from: "held_payment_declined", kind: "schedule_changed", to: "held_payment_declined", rule: "The same airline change on a held order." },
  { from: "booked", kind: "flights_flown", to: "booked", rule: "The order's flights departed: their services with no ticket or EMD behind them are delivered; service.delivered is pushed for a seat sold for nothing." },
  { from: "booked", kind: "partner_delivered", to: "booked", rule: "The partner reported a partner product fulfilled (partner read-back); service.delivered is pushed." },
];

/** The target state of a change, or order_state_invalid when the table has no such move. */
export function transition(from: OrderState | null, kind: ChangeKind, to?: OrderState): OrderState {
  const move = TRANSITIONS.find((t) => t.from === from && t.kind === kind && (to === undefined || t.to === to));
  if (!move) throw new GatewayError("order_state_invalid", { detail: `No ${kind} from ${from ?? "(none)"}${to ? ` to ${to}` : ""}.` });
  return move.to;
}

/**
 * What the refusal of a change adds to "The order is <state>" when the table has no move for
 * it from the order's state: the actor's words, which every quote and saga refusing the same
 * change early repeats (through refuseUnlessMove), so a seller reads one text wherever it is caught.
 */
const ONLY_FROM: Partial<Record<ChangeKind, string>> = {
  payment_authorised: "only a held order is paid this way",
  cancelled: "only a booked order is cancelled this way",
  items_cancelled: "only a booked order's items are cancelled",
  items_added: "only a booked order takes extras and seats",
  flights_changed: "only a booked order's flights are changed",
  pax_updated: "only a booked order takes a name correction",
  closed: "only a booked order closes",
};

/**
 * Refuses (order_state_invalid) a change the table has no move for from `state`. The actor
 * decides with it; quotes and sagas ask it before taking anything, so they refuse exactly
 * what the actor would, in the same words.
 */
export function refuseUnlessMove(state: OrderState, kind: ChangeKind): void {
  if (TRANSITIONS.some((t) => t.from === state && t.kind === kind)) return;
  const why = ONLY_FROM[kind];
  throw new GatewayError("order_state_invalid", { detail: `The order is ${state}${why ? `; ${why}` : ""}.` });
}

export interface Seller {
  clientId: string;
  agencyId: string;
}

export interface OrderItem {
  orderItemId: string;
  /** The offer and offer item it was sold from. */
  offerId: string;
  offerItemId: string;
  kind: "flight" | "service" | "seat" | "ride" | "partner_product" | "bundle";
  paxIds: string[];
  /** Integer minor units of the order's currency, adjustments included. */
  totalMinor: number;
  ref?: string;
  flightKeys?: string[];
  qty?: number;
  /** A bundle's options chosen (SelectedBundleServices): catalogue codes, one per option group. */
  bundleOptions?: string[];
}

/** Discounts and surcharges recorded on the order (SHPREV), per offer item. */
export interface OrderAdjustment {
  offerId: string;
  offerItemId: string;
  ruleId: string;
  effect: "discount" | "surcharge";
  minor: number;
}

export interface OrderPax {
  paxId: string;
  ptc: string;
  title?: string;
  givenNames: string[];
  surname: string;
  birthdate?: string;
  /** Individual/GenderCode as booked (24.4 GenderCodeContentType), when the booking carried it. */
  gender?: string;
  email?: string;
  phone?: string;
  loyalty?: { programme: string; account: string };
  /** Ids of the identity documents stored for this passenger (identity_documents). */
  documentIds: string[];
}

export interface OrderJourney {
  paxJourneyId: string;
  flightKeys: string[];
  brandCode: string;
  cabin: string;
}

export interface SeatHoldRef {
  flightKey: string;
  holdId: string;
  seatIds: string[];
}

export interface PartnerHoldRef {
  productCode: string;
  holdId: string;
}

export interface OrderLegRef {
  legId: string;
  kind: string;
  amountMinor: number;
  /** As last recorded on the order: a view of the ledger's leg, moved by its rule (actor/leg-refs.ts). */
  state: LegState;
  changeRef: string;
  /** Minor units given back (a cancellation's refund); `refunded` once it reaches amountMinor. */
  refundedMinor?: number;
}

export interface OrderCancellation {
  quoteId: string;
  at: number;
  /** Minor units paid back, over every captured leg, newest first. */
  refundMinor: number;
  /** Minor units kept by the airline (the engine's penalty, or the whole fare when not refundable). */
  penaltyMinor: number;
  /** Of `refundMinor`, the value an items cancellation had retained (RespendInd), given back whole. */
  retainedMinor?: number;
  /** The airline's staff member who cancelled (SHPOR1 rule 4), and the fare rule overridden if any. */
  staffId?: string;
  override?: ChangeOverride;
}

/** Items of a booked order cancelled by an accepted quote (cancel/items-saga.ts): what went, and what came back. */
export interface ItemsCancellation {
  /** The change's id (the refund's history entry names it). */
  changeRef: string;
  quoteId: string;
  at: number;
  /** The items as they were, so the history still describes them. */
  items: OrderItem[];
  refundMinor: number;
  /**
   * RespendInd true (issue 20 item 6): what would have been refunded is kept on the order for a
   * following change instead (`Order.retained`); `refundMinor` is then 0. Absent on older journals.
   */
  retainedMinor?: number;
  /** When that retained value lapses (the order's first departure, read as UTC): refunded then if not spent. */
  retainedUntil?: number;
  /** Post-sale changes of these items whose payment was still authorised, not captured: voided, not refunded (spec 3). */
  voided?: PendingCharge[];
  staffId?: string;
  override?: ChangeOverride;
}

/** A post-sale change whose legs are authorised and not yet captured, and the minor units of the cancelled items it paid for. */
export interface PendingCharge {
  changeRef: string;
  amountMinor: number;
}

/** One post-sale change paid on its own (servicing/add): what it charged and the commission on it. */
export interface PostSaleCharge {
  changeRef: string;
  at: number;
  amountMinor: number;
  orderItemIds: string[];
  commission?: { amountMinor: number; basisMinor: number; rule: string };
  /** Of `amountMinor` (the change's value), what the order's retained value paid (RespendInd); the legs paid the rest. */
  retainedSpentMinor?: number;
}

/**
 * The value items cancellations with RespendInd kept for a following change (issue 20 item 6,
 * docs/servicing.md "keeping the value"): spent on additions and flight changes, refunded to the
 * captured legs, newest first, when the order is cancelled or at `lapsesAt`.
 */
export interface RetainedValue {
  amountMinor: number;
  lapsesAt: number;
}

/** A fare rule the airline's own staff overrode for a change (SHPOR1 rule 4), as recorded on the change. */
export interface ChangeOverride {
  staffId: string;
  /** The refusal a seller would have had: fare_not_renameable, fare_not_changeable, fare_not_cancellable. */
  ruleCode: string;
}

/**
 * An airline-initiated change of one of the order's flights (operations/schedule-change.ts):
 * a retime by `minutes` (later when positive), or the flight cancelled. `ref` makes a repeat a no-op.
 */
export interface ScheduleChange {
  ref: string;
  flightKey: string;
  kind: "retime" | "cancel";
  minutes?: number;
  /** ReasonCode pushed with it (docs/notifications.md). */
  reasonCode: string;
  at: number;
}

export interface HistoryEntry {
  version: number;
  at: number;
  kind: ChangeKind;
  /** Field names or refs that changed, never personal data. */
  changed: string[];
  state: OrderState;
  /** Set when the airline's own staff made the change (their staff id); otherwise the actor follows from the kind. */
  staffId?: string;
}

/** The change a refund entry completes (`change:<ref>`, a cheaper flight change's), or undefined for a cancellation's refund. */
export function refundOfChange(e: Pick<HistoryEntry, "kind" | "changed">): string | undefined {
  if (e.kind !== "refunded") return undefined;
  return e.changed.find((c) => c.startsWith("change:"))?.slice("change:".length);
}

export interface Order {
  orderId: string;
  owner: Seller;
  state: OrderState;
  version: number;
  createdAt: number;
  updatedAt: number;
  /** Set while held; the order is cancelled when it passes unpaid. */
  paymentTimeLimit?: number;
  currency: string;
  /** What the items are worth now; one rule, actor/total.ts (not moved by a cancellation or a refund). */
  totalMinor: number;
  /** PAYCOM: computed on the total including surcharges. */
  commission?: { amountMinor: number; basisMinor: number; rule: string };
  offers: { offerId: string; ownerCode: string }[];
  items: OrderItem[];
  adjustments: OrderAdjustment[];
  journeys: OrderJourney[];
  passengers: OrderPax[];
  contactEmail?: string;
  seatHolds: SeatHoldRef[];
  partnerHolds: PartnerHoldRef[];
  /** Holds turned into sales (booked orders). */
  inventoryConfirmed: boolean;
  legs: OrderLegRef[];
  /**
   * The method the seller named at OrderCreateRQ for paying later (PaymentMethodCriteria without
   * PaymentProcessingDetails). Kept after payment as history; shown in PAYSUM only while held.
   */
  intendedPayment?: IntendedPayment;
  /** Wire code of the last declined payment attempt. */
  declineCode?: string;
  /** Set when the order was cancelled (servicing: cancel/saga.ts): the quote it accepted and the refund. */
  cancellation?: OrderCancellation;
  /** Items cancelled from the booked order, one entry per accepted quote. */
  itemCancellations?: ItemsCancellation[];
  /** Value kept for a following change (RespendInd); absent or 0: none. */
  retained?: RetainedValue;
  /** The saga that created it. */
  sagaId: string;
  /** Post-sale charges (ORDRE2), one per change, with their commission (SHPOR1 rule 6). */
  charges?: PostSaleCharge[];
  /**
   * Fare conditions, allowances and servicing terms frozen at booking (spec 4.7 SHPOR1 rule 1).
   * Absent on an order booked before freezing existed that migration 0016 could not freeze.
   */
  fareConditions?: FrozenConditions;
  /** Flexibility services spent (conditions/flexibility.ts): each once, by the change that used it. */
  flexibilityUsed?: { orderItemId: string; changeRef: string; at: number }[];
  /** Airline-initiated changes of its flights, oldest first (a retime's minutes add up per flight). */
  scheduleChanges?: ScheduleChange[];
  /** Set when the airline cancelled one of its flights: the flights removed, waiting for re-accommodation. */
  reaccommodation?: { flightKeys: string[]; since: number };
  /** Flights that departed with the order on board (delivery sweep, sandbox fly). */
  flown?: { flightKey: string; at: number }[];
  /** Partner products and rides their partner reported fulfilled (partner read-back). */
  partnerDelivered?: { orderItemId: string; at: number }[];
  history: HistoryEntry[];
}

/** First and last travel dates (YYYY-MM-DD) of the order's flights; flight keys end with the date. */
export function travelDates(order: Pick<Order, "journeys">): { from?: string; to?: string } {
  const dates = order.journeys.flatMap((j) => j.flightKeys.map((k) => k.slice(-10))).sort();
  return { from: dates[0], to: dates[dates.length - 1] };
}

/** Another seller's order is answered exactly like a missing one (DESIGN 5 Access). */
export function assertOwner<T extends { owner: Seller }>(order: T | null | undefined, seller: Seller): T {
  if (!order || order.owner.agencyId !== seller.agencyId) throw notFound();
  return order;
}

/** The id is not echoed: the answer about another seller's order and about a missing one must be identical. */
export function notFound(): GatewayError {
  return new GatewayError("order_not_found");
}
