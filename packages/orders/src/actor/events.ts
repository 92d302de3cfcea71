import type { ChangeKind, ChangeOverride, HistoryEntry, ItemsCancellation, Order, PostSaleCharge as Charge, OrderCancellation, OrderItem, OrderJourney, OrderLegRef, PostSaleCharge, ScheduleChange, SeatHoldRef } from "../state";
import { withScheduleChange } from "../operations/schedule-change";
import { transition } from "../state";
import { legRefAfter } from "./leg-refs";
import { totalAfter } from "./total";
import type { PaxName } from "../servicing/rename/name";

/** The order actor's journal events. They never carry an identity document number. */
export type OrderEvent =
  | { type: "created"; order: Order }
  | { type: "payment_authorised"; at: number; legs: OrderLegRef[] }
  | { type: "payment_declined"; at: number; legs: OrderLegRef[]; code: string }
  | { type: "payment_captured"; at: number; legIds: string[] }
  | { type: "inventory_confirmed"; at: number }
  | { type: "payment_expired"; at: number }
  /** A post-sale change committed (ORDRE2): its items, a seat it gave up, its legs authorised, its charge. */
  | { type: "items_added"; at: number; items: OrderItem[]; seatHold?: SeatHoldRef; released?: { orderItemId: string; holdId: string; seatId: string; kept?: SeatHoldRef }; legs: OrderLegRef[]; charge: PostSaleCharge; staffId?: string }
  | { type: "cancelled"; at: number; cancellation: OrderCancellation }
  /** Money paid back to the legs: a cancellation's refund, or (with `changeRef`) an items cancellation's or the difference of a flight change costing less than the fare paid. */
  | { type: "refunded"; at: number; legs: { legId: string; amountMinor: number }[]; changeRef?: string }
  /** Items cancelled (cancel/items-saga.ts): gone from the order with their seat holds (the other passengers' seats of a shared hold kept under `kept`) and partner holds. */
  | { type: "items_cancelled"; at: number; cancellation: ItemsCancellation; seats: CancelledSeats[]; partnerHoldIds: string[] }
  /** A passenger's name corrected (servicing/rename): the names only, never a document. `changeRef` makes a retry a no-op. */
  /**
   * A direction's flights replaced by an accepted flight-change quote (servicing/flight): its legs
   * authorised, its charge (the amount due, fee included). `further`: the quote's other directions,
   * replaced in the same change (one charge for all; `seats` moves every direction's); entries
   * journaled before it replay unchanged.
   */
  | { type: "flights_changed"; at: number; direction: number; journey: OrderJourney; further?: FurtherDirection[]; legs: OrderLegRef[]; charge: PostSaleCharge; seats?: MovedSeats; flexibilityItemId?: string; override?: ChangeOverride; staffId?: string }
  /** The closing check found every service delivered and the money settled (reconcile/close.ts). */
  | { type: "closed"; at: number }
  | { type: "pax_updated"; at: number; changeRef: string; paxId: string; name: PaxName; flexibilityItemId?: string; override?: ChangeOverride; staffId?: string }
  /** The airline retimed or cancelled one of the order's flights (operations feed, sandbox control). */
  | { type: "schedule_changed"; at: number; change: ScheduleChange }
  /** These flights departed with the order on board: their services with no document behind them are delivered. */
  | { type: "flights_flown"; at: number; flightKeys: string[] }
  /** The partner reported these partner products (or rides) fulfilled. */
  | { type: "partner_delivered"; at: number; orderItemIds: string[] }
  /** The retained value (RespendInd) lapsed unspent: gone from the order, its refund (`refunded` under `changeRef`) follows (cancel/retained-lapse.ts). */
  | { type: "retained_lapsed"; at: number; changeRef: string; amountMinor: number };

/** A seat hold an items cancellation released, and the hold its other seats are kept sold under (none: every seat of it went). */
export interface CancelledSeats {
  releasedHoldId: string;
  kept?: SeatHoldRef;
}

/** Another direction of one flight change: its index in the order's journeys, the journey replacing it, a Flexibility it spent (one not already spent by the change). */
export interface FurtherDirection {
  direction: number;
  journey: OrderJourney;
  flexibilityItemId?: string;
}

/** Every direction a flights_changed event replaces, the first one first (old entries: that one alone). */
export function directionsChanged(e: Extract<OrderEvent, { type: "flights_changed" }>): FurtherDirection[] {
  return [{ direction: e.direction, journey: e.journey, ...(e.flexibilityItemId ? { flexibilityItemId: e.flexibilityItemId } : {}) }, ...(e.further ?? [])];
}

/** A flight change's seats: each old flight's hold (released) and, at the same index, the hold of the seats that replace them on the new flight (sold), seat for seat. */
export interface MovedSeats {
  released: SeatHoldRef[];
  sold: SeatHoldRef[];
}

function changed(order: Order, kind: ChangeKind, at: number, what: string[], patch: Partial<Order>, staffId?: string): Order {
  const state = transition(order.state, kind);
  const version = order.version + 1;
  const entry: HistoryEntry = { version, at, kind, changed: what, state, ...(staffId ? { staffId } : {}) };
  return { ...order, ...patch, state, version, updatedAt: at, history: [...order.history, entry] };
}

/** Folds one event into the order; pure, used live and on replay. */
export function evolve(order: Order | null, e: OrderEvent): Order | null {
  if (e.type === "created") return e.order;
  if (!order) throw new Error(`order event ${e.type} before created`);
  switch (e.type) {
    case "payment_authorised": {
      const legs = mergeLegs(order.legs, e.legs);
      return changed(order, "payment_authorised", e.at, ["state", "legs", "paymentTimeLimit"], { legs, paymentTimeLimit: undefined, declineCode: undefined });
    }
    case "payment_declined":
      return changed(order, "payment_declined", e.at, ["state", "legs"], { legs: mergeLegs(order.legs, e.legs), declineCode: e.code });
    case "payment_captured": {
      const legs = order.legs.map((l) => (e.legIds.includes(l.legId) ? legRefAfter(l, "capture", l.amountMinor) : l));
      return changed(order, "payment_captured", e.at, ["legs"], { legs });
    }
    case "inventory_confirmed":
      return changed(order, "inventory_confirmed", e.at, ["seatHolds", "partnerHolds"], { inventoryConfirmed: true });
    case "payment_expired":
      return changed(order, "payment_expired", e.at, ["state", "paymentTimeLimit"], { paymentTimeLimit: undefined });
    case "items_added":
      return changed(order, "items_added", e.at, ["items", "legs", ...(e.seatHold ? ["seatHolds"] : [])], withItemsAdded(order, e), e.staffId);
    case "flights_changed": {
      const dirs = directionsChanged(e);
      const to = new Map(dirs.map((d) => [d.direction, d.journey]));
      const spent = dirs.flatMap((d) => (d.flexibilityItemId ? [d.flexibilityItemId] : []));
      return changed(
        order,
        "flights_changed",
        e.at,
        [...dirs.map((d) => `journey:${order.journeys[d.direction]?.paxJourneyId}`), "legs", `change:${e.charge.changeRef}`, ...spent.map((f) => `flexibility:${f}`), ...(e.override ? [`override:${e.override.ruleCode}`] : [])],
        {
          journeys: order.journeys.map((j, i) => to.get(i) ?? j),
          ...(e.seats ? withSeatsMoved(order, e.seats) : {}),
          legs: mergeLegs(order.legs, e.legs),
          totalMinor: totalAfter(order, e),
          charges: [...(order.charges ?? []), e.charge],
          ...retainedAfterSpending(order, e.charge),
          ...(spent.length ? { flexibilityUsed: [...(order.flexibilityUsed ?? []), ...spent.map((orderItemId) => ({ orderItemId, changeRef: e.charge.changeRef, at: e.at }))] } : {}),
        },
        e.staffId,
      );
    }
    case "closed":
      return changed(order, "closed", e.at, ["state"], {});
    case "cancelled":
      // A retained value is part of the cancellation's refund (cancel/terms.ts): nothing stays retained.
      return changed(order, "cancelled", e.at, ["state", "seatHolds", "partnerHolds", ...overrideOf(e.cancellation)], { cancellation: e.cancellation, retained: undefined }, e.cancellation.staffId);
    case "items_cancelled": {
      const c = e.cancellation;
      const gone = new Set(c.items.map((i) => i.orderItemId));
      const released = new Set(e.seats.map((s) => s.releasedHoldId));
      const partners = new Set(e.partnerHoldIds);
      return changed(order, "items_cancelled", e.at, ["items", `change:${c.changeRef}`, ...(released.size ? ["seatHolds"] : []), ...(partners.size ? ["partnerHolds"] : []), ...overrideOf(c)], {
        items: order.items.filter((i) => !gone.has(i.orderItemId)),
        seatHolds: [...order.seatHolds.filter((h) => !released.has(h.holdId)), ...e.seats.flatMap((s) => (s.kept ? [s.kept] : []))],
        partnerHolds: order.partnerHolds.filter((p) => !partners.has(p.holdId)),
        totalMinor: totalAfter(order, e),
        itemCancellations: [...(order.itemCancellations ?? []), c],
        ...(c.retainedMinor ? { retained: retainedAdding(order, c.retainedMinor, c.retainedUntil ?? e.at) } : {}),
      }, c.staffId);
    }
    case "pax_updated":
      return changed(order, "pax_updated", e.at, [`passenger:${e.paxId}`, `change:${e.changeRef}`, ...(e.flexibilityItemId ? [`flexibility:${e.flexibilityItemId}`] : []), ...(e.override ? [`override:${e.override.ruleCode}`] : [])], {
        passengers: order.passengers.map((p) => (p.paxId === e.paxId ? { ...p, ...e.name } : p)),
        ...(e.flexibilityItemId ? { flexibilityUsed: [...(order.flexibilityUsed ?? []), { orderItemId: e.flexibilityItemId, changeRef: e.changeRef, at: e.at }] } : {}),
      }, e.staffId);
    case "schedule_changed":
      return changed(order, "schedule_changed", e.at, [`flight:${e.change.flightKey}`, `change:${e.change.ref}`], withScheduleChange(order, e.change));
    case "flights_flown":
      return changed(order, "flights_flown", e.at, e.flightKeys.map((k) => `flown:${k}`), { flown: [...(order.flown ?? []), ...e.flightKeys.map((flightKey) => ({ flightKey, at: e.at }))] });
    case "partner_delivered":
      return changed(order, "partner_delivered", e.at, e.orderItemIds.map((id) => `delivered:${id}`), {
        partnerDelivered: [...(order.partnerDelivered ?? []), ...e.orderItemIds.map((orderItemId) => ({ orderItemId, at: e.at }))],
      });
    case "retained_lapsed":
      return changed(order, "retained_lapsed", e.at, ["retained", `change:${e.changeRef}`], { retained: undefined });
    case "refunded": {
      const back = new Map(e.legs.map((l) => [l.legId, l.amountMinor]));
      // A leg partly given back (a non-refundable fare's extras) stays captured and says how much.
      const legs = order.legs.map((l) => (back.has(l.legId) ? legRefAfter(l, "refund", back.get(l.legId)!) : l));
      return changed(order, "refunded", e.at, ["legs", ...(e.changeRef ? [`change:${e.changeRef}`] : [])], { legs });
    }
  }
}

const overrideOf = (c: { override?: ChangeOverride }) => (c.override ? [`override:${c.override.ruleCode}`] : []);

/** The seat items follow their seats to the new flights (the n-th old flight to the n-th new one, seat for seat). */
function withSeatsMoved(order: Order, m: MovedSeats): Partial<Order> {
  const to = new Map(m.released.map((r, i) => [r.flightKey, m.sold[i]!]));
  const gone = new Set(m.released.map((r) => r.holdId));
  const moved = (i: OrderItem): OrderItem => {
    const from = i.flightKeys?.find((k) => to.has(k));
    if (i.kind !== "seat" || !from) return i;
    const old = m.released.find((r) => r.flightKey === from)!;
    const hold = to.get(from)!;
    const n = old.seatIds.indexOf(i.ref ?? "");
    return { ...i, flightKeys: i.flightKeys!.map((k) => (k === from ? hold.flightKey : k)), ...(n >= 0 ? { ref: hold.seatIds[n]! } : {}) };
  };
  return { seatHolds: [...order.seatHolds.filter((h) => !gone.has(h.holdId)), ...m.sold], items: order.items.map(moved) };
}

function mergeLegs(old: OrderLegRef[], fresh: OrderLegRef[]): OrderLegRef[] {
  const ids = new Set(fresh.map((l) => l.legId));
  return [...old.filter((l) => !ids.has(l.legId)), ...fresh];
}

/** A post-sale change: a seat given up leaves the items and its hold (the other seats of that hold join under their kept hold), the new items and the charge join. */
function withItemsAdded(order: Order, e: Extract<OrderEvent, { type: "items_added" }>): Partial<Order> {
  const items = order.items.filter((i) => i.orderItemId !== e.released?.orderItemId);
  const seatHolds = [...order.seatHolds.filter((h) => h.holdId !== e.released?.holdId), ...(e.released?.kept ? [e.released.kept] : [])];
  return {
    items: [...items, ...e.items],
    seatHolds: e.seatHold ? [...seatHolds, e.seatHold] : seatHolds,
    legs: mergeLegs(order.legs, e.legs),
    totalMinor: totalAfter(order, e),
    charges: [...(order.charges ?? []), e.charge],
    ...retainedAfterSpending(order, e.charge),
  };
}

/** A further retention joins what is kept; the earliest lapse stands (all of it lapses at the order's first departure). */
function retainedAdding(order: Order, amountMinor: number, lapsesAt: number): Order["retained"] {
  const had = order.retained;
  return { amountMinor: (had?.amountMinor ?? 0) + amountMinor, lapsesAt: had && had.amountMinor > 0 ? Math.min(had.lapsesAt, lapsesAt) : lapsesAt };
}

/** A change paid partly or wholly from the retained value: what is left stays retained (none left: the field goes). */
function retainedAfterSpending(order: Order, charge: Charge): Partial<Order> {
  if (!charge.retainedSpentMinor || !order.retained) return {};
  const left = order.retained.amountMinor - charge.retainedSpentMinor;
  return { retained: left > 0 ? { ...order.retained, amountMinor: left } : undefined };
}
