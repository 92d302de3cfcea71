/**
 * The load the SIGKILL tests put on real gateway processes: concurrent OrderCreateRQs, each its own
 * creation (distinct CorrelationID), half of them with a seat of their own so the kill also
 * lands between a seat hold and its sale.
 */
import { expect } from "bun:test";
import { orderCreateRQ, orderIdOf, shopOffer, TRAVEL_DATE, type Shopped } from "../orders-http/helpers";
import { seatAvailabilityRQ } from "../shopping/seat-availability-helpers";
import { all, blocks } from "../shopping/shop-requests";
import type { Worker } from "../multi/support";

type SeatOffer = NonNullable<Shopped["seat"]>;

/** A flight offer and its seat map: one entry per seat, each sellable to one order. */
export async function shopWithSeats(g: Pick<Worker, "ndc">, dayOffset: number): Promise<{ flight: Shopped; seats: SeatOffer[] }> {
  const date = new Date(Date.parse(TRAVEL_DATE) + dayOffset * 86_400_000).toISOString().slice(0, 10);
  const flight = await shopOffer(g, { date });
  const sa = await g.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: flight.offerId, currency: "EUR" }));
  expect(sa.status).toBe(200);
  const alc = blocks(sa.body, "ALaCarteOffer")[0]!;
  const offerId = all(alc, "OfferID")[0]!;
  const seats = blocks(alc, "OfferItem").map((item) => ({
    offerId,
    itemIds: [all(item, "OfferItemID")[0]!],
    priceMinor: Math.round(Number(all(item, "TotalAmount")[0]!) * 100),
  }));
  return { flight, seats };
}

export interface LoadResult {
  /** Order ids the gateway answered 200 BOOKED for: each an acknowledged command. */
  acknowledged: string[];
  /** Requests whose connection dropped or was refused (sent, never answered): their orders may or may not exist. */
  cutOff: { i: number; body: string }[];
  /** Anything else answered (none expected before the kill), with its Retry-After and the request (`sent`, the load's `i`th: `to(i)` answered it) to retry it. */
  other: { i: number; status: number; body: string; retryAfter: string | null; sent: string }[];
}

type Target = Pick<Worker, "ndcUnchecked">;

/**
 * `inFlight` senders send OrderCreateRQs back to back until `stop()` says so, then report.
 * Request n pays by card for the flight, plus a seat of its own when n is even and seats remain;
 * it goes to `to(n)` (one gateway, or workers in turn). A sender whose request is cut off stops,
 * unless `goOnAfterCut` (several workers: the others still answer).
 */
export function orderLoad(to: Target | ((i: number) => Target), shop: { flight: Shopped; seats: SeatOffer[] }, tag: string, inFlight: number, opts: { goOnAfterCut?: boolean } = {}) {
  const target = typeof to === "function" ? to : () => to;
  const out: LoadResult = { acknowledged: [], cutOff: [], other: [] };
  let stopped = false;
  let n = 0;
  const sender = async () => {
    while (!stopped) {
      const i = n++;
      const seat = i % 2 === 0 ? shop.seats.shift() : undefined;
      const shopped: Shopped = { ...shop.flight, seat, totalMinor: shop.flight.totalMinor + (seat?.priceMinor ?? 0) };
      const body = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `${tag}-${i}`, trxId: "T1" });
      try {
        const r = await target(i).ndcUnchecked("OrderCreateRQ", body);
        if (r.status === 200 && r.body.includes("<cns:StatusCode>BOOKED</cns:StatusCode>")) out.acknowledged.push(orderIdOf(r.body));
        else out.other.push({ i, status: r.status, body: r.body.slice(0, 500), retryAfter: r.headers.get("retry-after"), sent: body });
      } catch {
        // The kill: the socket closed with this request unanswered.
        out.cutOff.push({ i, body });
        if (!opts.goOnAfterCut) return;
      }
    }
  };
  const senders = Array.from({ length: inFlight }, sender);
  return {
    out,
    /** Stops sending; resolves when every sender has its last answer or error. */
    async stop(): Promise<LoadResult> {
      stopped = true;
      await Promise.all(senders);
      return out;
    },
  };
}
