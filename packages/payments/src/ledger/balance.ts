import type { LegState } from "../legs/types";
import type { EntryType } from "./hash-chain";

/**
 * A leg's state and balances as its ledger entries make them. The append-only entries are the
 * truth (formance: postings are the truth, balances are computed); the `payment_legs` row's
 * state and amounts are a cache of this fold, written in the same transaction as the entry
 * (steps.ts, ledger.ts), and the order's `legs` are a view of it (orders' actor/events.ts).
 * This is the one place that says what an entry does to a leg, "fully refunded" included.
 */
export interface LegBalance {
  state: LegState;
  authorised: number;
  captured: number;
  refunded: number;
}

/** A leg before any entry: sent to the PSP (or being reserved), outcome not known yet. */
export const OPENING_BALANCE: LegBalance = { state: "authorising", authorised: 0, captured: 0, refunded: 0 };

/**
 * What one entry does to a leg: the balance only (a whole leg passed in gives back just these four
 * fields, so spreading the result over a leg overwrites nothing else). Whether the step was
 * allowed is checkStep's question (steps.ts), asked before.
 */
export function afterEntry(leg: LegBalance, e: { type: EntryType; amount: number }): LegBalance {
  const b = balanceOf(leg);
  switch (e.type) {
    case "authorise":
      return { ...b, state: "authorised", authorised: e.amount };
    case "decline":
      return { ...b, state: "declined" };
    case "capture":
      return { ...b, state: "captured", captured: e.amount };
    case "void":
      return { ...b, state: "voided" };
    case "refund": {
      // Fully refunded means everything captured has gone back (a capture may be less than the authorisation).
      const refunded = b.refunded + e.amount;
      return { ...b, state: refunded >= b.captured ? "refunded" : "captured", refunded };
    }
  }
}

/** The entry recording a PSP's answer to an authorisation: the amount it authorised, or (declined) the amount asked. */
export function authorisationEntry(answer: { status: "authorised"; amount: number } | { status: "declined" }, requested: number): { type: "authorise" | "decline"; amount: number } {
  return answer.status === "authorised" ? { type: "authorise", amount: answer.amount } : { type: "decline", amount: requested };
}

/** A leg's balance from its entries, oldest first. */
export function legBalance(entries: readonly { type: EntryType; amount: number }[]): LegBalance {
  return entries.reduce(afterEntry, OPENING_BALANCE);
}

/** The balance part of a leg (or its row): what the cache holds, to compare with the fold. */
export function balanceOf(leg: LegBalance): LegBalance {
  return { state: leg.state, authorised: leg.authorised, captured: leg.captured, refunded: leg.refunded };
}
