import { GatewayError } from "@ndc/errors";
import type { HoldableShape } from "../holdable/shape";
import { isLapsed } from "../holdable/types";
import type { SeatAvailability, SeatHold, SeatStatus } from "./commands";
import { claimSeats, freeSeats, type SeatClaim, type SeatInventoryValue } from "./state";

const MAX_SEATS_PER_HOLD = 9; // spec 2.7: at most 9 passengers per order

/** Seats of a flight as a holdable stock: a hold takes named seats, all or none. */
export const SEAT_STOCK: HoldableShape<SeatInventoryValue, SeatClaim, { seatIds: string[]; holder: string }, SeatHold, "availability", { kind: "availability"; availability: SeatAvailability }> = {
  queryOp: "availability",
  holdNotFound: "seat_hold_not_found",
  holdExpired: "seat_hold_expired",
  keyOf: (value) => value.flightKey,

  checkRequest(c) {
    const seatIds = c.seatIds;
    if (!Array.isArray(seatIds) || seatIds.length === 0 || seatIds.length > MAX_SEATS_PER_HOLD) {
      throw new GatewayError("request_invalid", { detail: `A hold takes 1 to ${MAX_SEATS_PER_HOLD} seats.` });
    }
    if (new Set(seatIds).size !== seatIds.length) throw new GatewayError("request_invalid", { detail: "A seat is named twice in one hold." });
    if (!c.holder || typeof c.holder !== "string") throw new GatewayError("request_invalid", { detail: "A hold needs a holder." });
  },

  checkExists(value) {
    if (value.seatIds === null) throw new GatewayError("flight_not_found", { detail: `(${value.flightKey})` });
  },

  replayConflict(existing, c) {
    const same = existing.holder === c.holder && existing.channel === c.channel && existing.seatIds.join() === c.seatIds.join();
    return same ? undefined : `Hold id ${existing.holdId} is already used for other seats.`;
  },

  take(value, fresh, c) {
    const known = new Set(value.seatIds);
    const occupied = new Set(value.occupied);
    for (const s of c.seatIds) {
      if (!known.has(s)) throw new GatewayError("seat_not_found", { detail: `(${s} on ${value.flightKey})` });
    }
    // Once lapsed holds are expired, a seat's claim is live (held in time, or sold).
    for (const s of c.seatIds) {
      if (occupied.has(s) || fresh.claims[s] !== undefined) throw new GatewayError("seat_unavailable", { detail: `(${s} on ${value.flightKey})` });
    }
    return { seatIds: [...c.seatIds], holder: c.holder };
  },

  kept(hold, keeps) {
    const mine = new Set(hold.seatIds);
    if (keeps.seatIds.length === 0 || keeps.seatIds.length >= hold.seatIds.length || keeps.seatIds.some((s) => !mine.has(s)) || new Set(keeps.seatIds).size !== keeps.seatIds.length) {
      throw new GatewayError("request_invalid", { detail: `The seats kept must be some, not all, of hold ${hold.holdId}'s.` });
    }
    return { seatIds: [...keeps.seatIds], holder: hold.holder };
  },

  claim: claimSeats,
  free: freeSeats,
  answer: (value, hold): SeatHold => ({ flightKey: value.flightKey, ...hold }),
  query: (value, now) => ({ kind: "availability", availability: availability(value, now) }),
};

function availability(value: SeatInventoryValue, now: number): SeatAvailability {
  const counts: Record<SeatStatus, number> = { available: 0, occupied: 0, held: 0, sold: 0 };
  const occupied = new Set(value.occupied);
  const seats = (value.seatIds ?? []).map((seatId) => {
    const claim = value.claims[seatId];
    const h = claim === undefined ? undefined : value.holds[claim];
    let status: SeatStatus = "available";
    if (occupied.has(seatId)) status = "occupied";
    else if (h && !isLapsed(h, now)) status = h.status === "sold" ? "sold" : "held";
    counts[status]++;
    return status === "held" || status === "sold" ? { seatId, status, channel: h!.channel } : { seatId, status };
  });
  return { flightKey: value.flightKey, seats, counts };
}
