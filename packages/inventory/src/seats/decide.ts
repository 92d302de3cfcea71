import { GatewayError } from "@ndc/errors";
import { isChannel } from "../types";
import type { SeatCommand, SeatAvailability, SeatReply, SeatStatus } from "./commands";
import { evolveSeats, isLapsed, type SeatEvent, type SeatInventoryValue } from "./state";

const MAX_SEATS_PER_HOLD = 9; // spec 2.7: at most 9 passengers per order

type Decision = { events: SeatEvent[]; reply: SeatReply };

/**
 * Validates one command against a flight's inventory. Refusals that change nothing throw;
 * a command that must record something and still refuse (confirm of a lapsed hold) returns
 * the events with a refusal reply.
 */
export function decideSeats(value: SeatInventoryValue, command: SeatCommand, now: number, newHoldId: () => string): Decision {
  switch (command.op) {
    case "hold":
    case "sell":
      return hold(value, command, now, newHoldId);
    case "confirm":
      return confirm(value, command.holdId, now);
    case "release":
      return release(value, command.holdId, now);
    case "expire": {
      const events = lapsedHolds(value, now);
      return { events, reply: { kind: "expired", holdIds: events.map((e) => e.holdId) } };
    }
    case "availability":
      return { events: [], reply: { kind: "availability", availability: availability(value, now) } };
  }
}

/** Expiry events for every hold past its time, so rows and memory say what is really live. */
function lapsedHolds(value: SeatInventoryValue, now: number): SeatEvent[] {
  return Object.values(value.holds)
    .filter((h) => isLapsed(h, now))
    .map((h) => ({ type: "expired" as const, holdId: h.holdId, at: now }));
}

function hold(value: SeatInventoryValue, c: Extract<SeatCommand, { op: "hold" | "sell" }>, now: number, newHoldId: () => string): Decision {
  const seatIds = c.seatIds;
  if (!Array.isArray(seatIds) || seatIds.length === 0 || seatIds.length > MAX_SEATS_PER_HOLD) {
    throw new GatewayError("request_invalid", { detail: `A hold takes 1 to ${MAX_SEATS_PER_HOLD} seats.` });
  }
  if (new Set(seatIds).size !== seatIds.length) throw new GatewayError("request_invalid", { detail: "A seat is named twice in one hold." });
  if (!c.holder || typeof c.holder !== "string") throw new GatewayError("request_invalid", { detail: "A hold needs a holder." });
  if (!isChannel(c.channel)) throw new GatewayError("request_invalid", { detail: `Unknown sales channel ${String(c.channel)}.` });
  if (!Number.isSafeInteger(c.expiresAt) || c.expiresAt <= now) {
    throw new GatewayError("request_invalid", { detail: "A hold's expiry must be in the future." });
  }
  if (value.seatIds === null) throw new GatewayError("flight_not_found", { detail: `(${value.flightKey})` });

  // A retried hold with the caller's own id (a saga step replayed after a crash) is answered
  // from the record, never taken twice.
  if (c.holdId !== undefined) {
    const existing = value.holds[c.holdId];
    if (existing) return replayHold(value, existing, c, now);
  }

  const known = new Set(value.seatIds);
  const occupied = new Set(value.occupied);
  for (const s of seatIds) {
    if (!known.has(s)) throw new GatewayError("seat_not_found", { detail: `(${s} on ${value.flightKey})` });
  }
  for (const s of seatIds) {
    const claim = value.claims[s];
    const live = claim !== undefined && !isLapsed(value.holds[claim]!, now);
    if (occupied.has(s) || live) throw new GatewayError("seat_unavailable", { detail: `(${s} on ${value.flightKey})` });
  }
  const holdId = c.holdId ?? newHoldId();
  // Lapsed holds are expired in the same transaction, before the new rows go in: the store's
  // live-seat index would otherwise still see the lapsed hold's rows.
  const events: SeatEvent[] = [
    ...lapsedHolds(value, now),
    { type: "held", holdId, seatIds: [...seatIds], holder: c.holder, channel: c.channel, expiresAt: c.expiresAt, at: now },
  ];
  if (c.op === "sell") events.push({ type: "sold", holdId, at: now });
  const after = events.reduce(evolveSeats, value);
  return { events, reply: { kind: "hold", hold: { flightKey: value.flightKey, ...after.holds[holdId]! } } };
}

function replayHold(value: SeatInventoryValue, existing: SeatInventoryValue["holds"][string], c: Extract<SeatCommand, { op: "hold" | "sell" }>, now: number): Decision {
  const same = existing.holder === c.holder && existing.channel === c.channel && existing.seatIds.join() === c.seatIds.join();
  if (!same) throw new GatewayError("request_invalid", { detail: `Hold id ${existing.holdId} is already used for other seats.` });
  if (existing.status === "held" && c.op === "sell") return confirm(value, existing.holdId, now);
  if (existing.status === "held" && isLapsed(existing, now)) return confirm(value, existing.holdId, now);
  if (existing.status === "expired") throw new GatewayError("seat_hold_expired", { detail: `(${existing.holdId})` });
  if (existing.status === "released") throw new GatewayError("seat_hold_not_found", { detail: `(${existing.holdId} was released)` });
  return { events: [], reply: { kind: "hold", hold: { flightKey: value.flightKey, ...existing } } };
}

function confirm(value: SeatInventoryValue, holdId: string, now: number): Decision {
  const h = value.holds[holdId];
  if (!h) throw new GatewayError("seat_hold_not_found", { detail: `(${holdId} on ${value.flightKey})` });
  if (h.status === "sold") return { events: [], reply: { kind: "hold", hold: { flightKey: value.flightKey, ...h } } };
  if (h.status === "expired") throw new GatewayError("seat_hold_expired", { detail: `(${holdId})` });
  if (h.status === "released") throw new GatewayError("seat_hold_not_found", { detail: `(${holdId} was released)` });
  if (isLapsed(h, now)) {
    // Record the expiry now so the seats are free at once, then refuse.
    return {
      events: [{ type: "expired", holdId, at: now }],
      reply: { kind: "refused", code: "seat_hold_expired", detail: `(${holdId})` },
    };
  }
  return {
    events: [{ type: "sold", holdId, at: now }],
    reply: { kind: "hold", hold: { flightKey: value.flightKey, ...h, status: "sold" } },
  };
}

/** Releases a hold, or a sale (a cancelled order gives its seats back). Repeating it is a no-op. */
function release(value: SeatInventoryValue, holdId: string, now: number): Decision {
  const h = value.holds[holdId];
  if (!h) throw new GatewayError("seat_hold_not_found", { detail: `(${holdId} on ${value.flightKey})` });
  if (h.status === "released" || h.status === "expired") {
    return { events: [], reply: { kind: "hold", hold: { flightKey: value.flightKey, ...h } } };
  }
  return {
    events: [{ type: "released", holdId, at: now }],
    reply: { kind: "hold", hold: { flightKey: value.flightKey, ...h, status: "released" } },
  };
}

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
