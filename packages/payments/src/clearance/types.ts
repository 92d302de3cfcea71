import type { StoreDb } from "@ndc/store";

/** The airline as payee of every clearance: its IATA accounting (prefix) code and designator. */
export interface ClearanceCarrier {
  accountingCode: string;
  designator: string;
}

export type ClearanceStatus = "requested" | "cleared" | "cancelled";

/** Who cleared it: the manager's sweep, PaymentClearanceRQ, or airline staff from the console (unclear.ts). */
export type ClearedBy = "manager" | "request" | "staff";

/** One clearance as the simulated Clearance Manager holds it. Amounts are minor units of `currency`. */
export interface Clearance {
  clearanceId: string;
  legId: string;
  orderId: string;
  /** The paying agency (its settlement account's owner). */
  agencyId: string;
  status: ClearanceStatus;
  amount: number;
  currency: string;
  settlementMethod: string;
  /** PaymentCommitmentDateTime: the capture (epoch ms). */
  committedAt: number;
  /** YYYY-MM-DD, per the simulated SwO schedule (schedule.ts). */
  remittanceDate: string;
  settlementDate: string;
  requestedAt: number;
  clearedBy?: ClearedBy;
  clearedAt?: number;
  cancelledAt?: number;
  /**
   * `sale`: the agency pays the airline (requested at capture). `refund`: the airline gives back a
   * refund of a payment whose sale clearance had already cleared (its NetClearanceAmount is
   * negative on the wire); `reverses` names that sale clearance.
   */
  direction: ClearanceDirection;
  reverses?: string;
}

export type ClearanceDirection = "sale" | "refund";

/**
 * A clearance event (spec 6): requested at capture (STTCAP), cleared, or cancelled for a payment
 * refunded before it cleared (STTCAN); or a refund clearance requested for a payment refunded after. Handed to the hook inside the transaction of the change.
 */
export interface ClearanceEvent {
  /** `refund`: a refund clearance requested for a payment refunded after its clearance cleared. */
  event: "STTCAP" | "STTCAN" | "cleared" | "refund";
  clearance: Clearance;
  at: number;
}

/**
 * Called inside the transaction that records a clearance event, after its row: what it writes
 * commits with the event or not at all (the payment.clearance notification). It must not commit,
 * call out or ask an actor.
 */
export type ClearanceHook = (tx: StoreDb, e: ClearanceEvent) => Promise<void>;

/** What the ledger needs to request and cancel clearances in its own steps (the gateway wires it). */
export interface ClearanceDesk {
  carrier: ClearanceCarrier;
  hook?: ClearanceHook;
}
