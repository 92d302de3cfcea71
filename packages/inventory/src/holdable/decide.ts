import { GatewayError } from "@ndc/errors";
import { isChannel } from "../types";
import { evolveHoldable } from "./evolve";
import type { HoldableShape } from "./shape";
import { isLapsed, type Keeps, type HoldableCommand, type HoldableEvent, type HoldableReply, type HoldableValue, type HoldRecord, type HoldRequest } from "./types";

type Decision<C, H, QR> = { events: HoldableEvent<C>[]; reply: HoldableReply<H, QR> };

/**
 * Validates one command against a stock. Refusals that change nothing throw; a command that
 * must record something and still refuse (confirm of a lapsed hold) returns the events with a
 * refusal reply.
 */
export function decideHoldable<V extends HoldableValue<C>, C, R, H, Q extends string, QR>(
  shape: HoldableShape<V, C, R, H, Q, QR>,
  value: V,
  command: HoldableCommand<R, Q>,
  now: number,
  newHoldId: () => string,
): Decision<C, H, QR> {
  const c = command as HoldableCommand<R, never>;
  switch (c.op) {
    case "hold":
    case "sell":
      return hold(shape, value, c, now, newHoldId);
    case "confirm": {
      const sold = confirm(shape, value, c.holdId, now);
      if (!c.releases || (sold.reply as { kind?: string }).kind !== "hold") return sold;
      const freed = release(shape, value, c.releases, now, c.keeps);
      return { events: [...sold.events, ...freed.events], reply: sold.reply };
    }
    case "release":
      return release(shape, value, c.holdId, now, c.keeps);
    case "expire": {
      const events = lapsedHolds(value, now);
      return { events, reply: { kind: "expired", holdIds: events.map((e) => e.holdId) } };
    }
    default:
      return { events: [], reply: shape.query(value, now) };
  }
}

/** Expiry events for every hold past its time, so rows and memory say what is really live. */
function lapsedHolds<C>(value: HoldableValue<C>, now: number): HoldableEvent<C>[] {
  return Object.values(value.holds)
    .filter((h) => isLapsed(h, now))
    .map((h) => ({ type: "expired" as const, holdId: h.holdId, at: now }));
}

function hold<V extends HoldableValue<C>, C, R, H, Q extends string, QR>(
  shape: HoldableShape<V, C, R, H, Q, QR>,
  value: V,
  c: HoldRequest<R>,
  now: number,
  newHoldId: () => string,
): Decision<C, H, QR> {
  shape.checkRequest(c);
  if (!isChannel(c.channel)) throw new GatewayError("request_invalid", { detail: `Unknown sales channel ${String(c.channel)}.` });
  if (!Number.isSafeInteger(c.expiresAt) || c.expiresAt <= now) {
    throw new GatewayError("request_invalid", { detail: "A hold's expiry must be in the future." });
  }
  shape.checkExists(value);

  // A retried hold with the caller's own id (a saga step replayed after a crash) is answered
  // from the record, never taken twice.
  if (c.holdId !== undefined) {
    const existing = value.holds[c.holdId];
    if (existing) return replayHold(shape, value, existing, c, now);
  }

  // Lapsed holds are expired in the same transaction, before the new rows go in: the store's
  // live-claim indexes would otherwise still see the lapsed hold's rows.
  const expiries = lapsedHolds(value, now);
  const fresh = expiries.reduce((v: V, e) => evolveHoldable(shape, v, e), value);
  const claim = shape.take(value, fresh, c);
  const holdId = c.holdId ?? newHoldId();
  const events: HoldableEvent<C>[] = [...expiries, { type: "held", holdId, ...claim, channel: c.channel, expiresAt: c.expiresAt, at: now } as HoldableEvent<C>];
  if (c.op === "sell") events.push({ type: "sold", holdId, at: now });
  const after = events.reduce((v: V, e) => evolveHoldable(shape, v, e), value);
  return { events, reply: { kind: "hold", hold: shape.answer(value, after.holds[holdId]!) } };
}

function replayHold<V extends HoldableValue<C>, C, R, H, Q extends string, QR>(
  shape: HoldableShape<V, C, R, H, Q, QR>,
  value: V,
  existing: HoldRecord<C>,
  c: HoldRequest<R>,
  now: number,
): Decision<C, H, QR> {
  const conflict = shape.replayConflict(existing, c);
  if (conflict !== undefined) throw new GatewayError("request_invalid", { detail: conflict });
  if (existing.status === "held" && (c.op === "sell" || isLapsed(existing, now))) return confirm(shape, value, existing.holdId, now);
  if (existing.status === "expired") throw new GatewayError(shape.holdExpired, { detail: `(${existing.holdId})` });
  if (existing.status === "released") throw new GatewayError(shape.holdNotFound, { detail: `(${existing.holdId} was released)` });
  return { events: [], reply: { kind: "hold", hold: shape.answer(value, existing) } };
}

function confirm<V extends HoldableValue<C>, C, R, H, Q extends string, QR>(shape: HoldableShape<V, C, R, H, Q, QR>, value: V, holdId: string, now: number): Decision<C, H, QR> {
  const h = value.holds[holdId];
  if (!h) throw new GatewayError(shape.holdNotFound, { detail: `(${holdId} on ${shape.keyOf(value)})` });
  if (h.status === "sold") return { events: [], reply: { kind: "hold", hold: shape.answer(value, h) } };
  if (h.status === "expired") throw new GatewayError(shape.holdExpired, { detail: `(${holdId})` });
  if (h.status === "released") throw new GatewayError(shape.holdNotFound, { detail: `(${holdId} was released)` });
  if (isLapsed(h, now)) {
    // Record the expiry now so the claim is free at once, then refuse.
    return { events: [{ type: "expired", holdId, at: now }], reply: { kind: "refused", code: shape.holdExpired, detail: `(${holdId})` } };
  }
  return { events: [{ type: "sold", holdId, at: now }], reply: { kind: "hold", hold: shape.answer(value, { ...h, status: "sold" }) } };
}

/**
 * Releases a hold, or a sale (a cancelled order gives its claim back). Repeating it is a no-op.
 * `keeps`: the part of it that stays taken moves to a hold of its own in the same events (the
 * release first, so the freed claim and the kept ones are never live twice).
 */
function release<V extends HoldableValue<C>, C, R, H, Q extends string, QR>(shape: HoldableShape<V, C, R, H, Q, QR>, value: V, holdId: string, now: number, keeps?: Keeps): Decision<C, H, QR> {
  const h = value.holds[holdId];
  if (!h) throw new GatewayError(shape.holdNotFound, { detail: `(${holdId} on ${shape.keyOf(value)})` });
  if (h.status === "released" || h.status === "expired") return { events: [], reply: { kind: "hold", hold: shape.answer(value, h) } };
  const events: HoldableEvent<C>[] = [{ type: "released", holdId, at: now }];
  if (keeps) {
    if (!shape.kept) throw new GatewayError("request_invalid", { detail: `${shape.keyOf(value)} keeps no part of a released hold.` });
    if (value.holds[keeps.holdId]) throw new GatewayError("request_invalid", { detail: `Hold id ${keeps.holdId} is already used.` });
    const claim = shape.kept(h, keeps);
    events.push({ type: "held", holdId: keeps.holdId, ...claim, channel: h.channel, expiresAt: h.expiresAt, at: now } as HoldableEvent<C>);
    if (h.status === "sold") events.push({ type: "sold", holdId: keeps.holdId, at: now });
  }
  return { events, reply: { kind: "hold", hold: shape.answer(value, { ...h, status: "released" }) } };
}
