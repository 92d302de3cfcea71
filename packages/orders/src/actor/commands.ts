import type { NewIdentityDocument } from "@ndc/pii";
import type { ChangeOverride, Order, OrderCancellation, OrderLegRef, ScheduleChange } from "../state";
import type { OrderEvent } from "./events";
import type { PaxName } from "../servicing/rename/name";

/** A new order as the saga's commit step hands it over (version, history and state are the actor's). */
export type NewOrder = Omit<Order, "version" | "history" | "updatedAt" | "inventoryConfirmed">;

export type OrderCommand =
  /** `confirmInventory`: the holds are confirmed in the same joint write (a booked order's commit). */
  | { op: "create"; order: NewOrder; documents: NewIdentityDocument[]; confirmInventory?: boolean }
  | { op: "get" }
  /** `confirmInventory`: the order's holds are confirmed in the same joint write (a paid retry's commit). */
  | { op: "recordPaymentAuthorised"; legs: OrderLegRef[]; confirmInventory?: boolean }
  | { op: "markPaymentDeclined"; legs: OrderLegRef[]; code: string }
  | { op: "recordPaymentCaptured"; legIds: string[] }
  | { op: "confirmInventory" }
  | { op: "expireUnpaid"; now: number }
  /** The closing check's move to Closed, decided by its caller from delivery and money; a closed order stays so. */
  | { op: "close" }
  /** A post-sale change's commit (servicing/add): refused unless booked; a repeat of its changeRef changes nothing. */
  | { op: "addItems"; change: Omit<Extract<OrderEvent, { type: "items_added" }>, "type" | "at"> }
  /** The cancellation's commit: in the same joint write as its seat and partner releases. */
  /** A flight change's commit (servicing/flight/saga.ts): refused unless booked; a repeat of its changeRef changes nothing. */
  | { op: "changeFlights"; change: Omit<Extract<OrderEvent, { type: "flights_changed" }>, "type" | "at"> }
  /** `atVersion`: the version the quote was given for, checked in the actor's own decision so no change slips in between the check and the write. */
  | { op: "cancel"; cancellation: OrderCancellation; atVersion?: number }
  /** `changeRef`: an items cancellation's refund (one per change); absent, the cancelled order's (one). */
  | { op: "recordRefunds"; legs: { legId: string; amountMinor: number }[]; changeRef?: string }
  /** An items cancellation's commit: in the same joint write as its seat (kept or not) and partner releases. */
  | { op: "cancelItems"; change: Omit<Extract<OrderEvent, { type: "items_cancelled" }>, "type" | "at">; atVersion: number }
  /** A cheaper flight change's refund (servicing/flight/refund.ts), once per change. */
  | { op: "recordChangeRefund"; changeRef: string; legs: { legId: string; amountMinor: number }[] }
  /** A name correction's single write (servicing/rename): refused unless booked; a repeat of its changeRef changes nothing. */
  | { op: "updatePax"; changeRef: string; paxId: string; name: PaxName; flexibilityItemId?: string; override?: ChangeOverride; staffId?: string }
  /** Airline changes of its flights (operations/decide.ts), one write: each a no-op when its ref is recorded or the flight is not (or no longer) the order's. */
  | { op: "changeSchedule"; changes: Omit<ScheduleChange, "at">[] }
  /** Flights departed: those of the order not yet recorded flown are recorded. */
  | { op: "recordFlown"; flightKeys: string[] }
  /** Partner products and rides fulfilled: those of the order not yet recorded delivered are recorded. */
  | { op: "recordPartnerDelivered"; orderItemIds: string[] }
  /** The retained value lapses (cancel/retained-lapse.ts): a no-op unless some is retained and `now` is past its lapse; a repeat of its changeRef changes nothing. */
  | { op: "lapseRetained"; changeRef: string; amountMinor: number; now: number };

/** The order after the command (null: no such order). */
export type OrderReply = Order | null;
