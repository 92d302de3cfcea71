import type { HoldableShape } from "./shape";
import type { HoldableEvent, HoldableValue, HoldRecord } from "./types";

/** Folds one event; pure and copy-on-write, used live and on replay. */
export function evolveHoldable<V extends HoldableValue<C>, C>(shape: Pick<HoldableShape<V, C, never, unknown, string, unknown>, "claim" | "free">, value: V, e: HoldableEvent<C>): V {
  if (e.type === "held") {
    // The event's own fields minus the lifecycle ones are the claim (seats and holder, unit and order).
    const { type: _type, holdId, channel, expiresAt, at: _at, ...claim } = e;
    const hold = { holdId, ...(claim as C), channel, expiresAt, status: "held" } as HoldRecord<C>;
    return shape.claim({ ...value, holds: { ...value.holds, [holdId]: hold } }, hold);
  }
  const hold = value.holds[e.holdId];
  if (!hold) return value;
  const holds = { ...value.holds, [e.holdId]: { ...hold, status: e.type } };
  if (e.type === "sold") return { ...value, holds };
  return shape.free({ ...value, holds }, hold);
}
