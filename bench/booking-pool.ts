/**
 * The OrderCreateRQ bodies the booking benches send (bench/order-create.ts, bench/profile-bookings.ts):
 * two adults, LHR-CDG, one card leg, each order with its own pre-shopped offer and two seats of
 * its own, so no two orders of a pool compete for a seat. Shopping happens here, through the
 * gateway's own AirShoppingRQ and SeatAvailabilityRQ, one travel day at a time.
 */
import { orderCreateRQ, type Shopped } from "../test/orders-http/helpers";
import { dayAfter, T0 } from "../test/support/dates";
import { airShoppingRQ, all, blocks } from "../test/shopping/shop-requests";
import { seatAvailabilityRQ } from "../test/shopping/seat-availability-helpers";

export type Ndc = (message: string, body: string) => Promise<{ status: number; body: string }>;

/** The gateway in process, called as a seller with the sandbox API key (no sockets). */
export function inProcessNdc(app: { handle(request: Request): Promise<Response> }, apiKey: string): Ndc {
  return async (message, body) => {
    const res = await app.handle(
      new Request(`http://localhost/24.4/${message}`, { method: "POST", headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": apiKey }, body }),
    );
    return { status: res.status, body: await res.text() };
  };
}

const minor = (s: string) => Math.round(Number(s) * 100);
/** Travel days from ten days after the benches' clock start (T0, 2026-12-01) on, within the supply's 330 days from its boot day. */
const day = (n: number) => dayAfter(T0, 10 + n);
const DAYS = 320;

/** Draws pools of bodies; every pool takes travel days and correlation ids no earlier pool took. */
export function bookingPool(ndc: Ndc): (orders: number) => Promise<string[]> {
  let nextDay = 0;
  let serial = 0;

  /**
   * Every offer of one travel day (3 flights x 6 brands), each with two seats of its own: offer n
   * of the day takes seats 2n and 2n+1 of its flight's seat list, so no two orders of the pool
   * want the same seat, whatever flight their offers share.
   */
  async function shopDay(): Promise<Shopped[]> {
    const date = day(nextDay++);
    if (nextDay > DAYS) throw new Error("out of travel days: book fewer orders");
    const shop = await ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date }], pax: [["PAX1", "ADT"], ["PAX2", "ADT"]], currency: "EUR" }));
    if (shop.status !== 200) throw new Error(`AirShoppingRQ ${shop.status}: ${shop.body.slice(0, 400)}`);
    const out: Shopped[] = [];
    for (const [n, offer] of blocks(shop.body, "Offer").entries()) {
      const offerId = all(offer, "OfferID")[0]!;
      const sa = await ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId, currency: "EUR" }));
      if (sa.status !== 200) continue;
      const alc = blocks(sa.body, "ALaCarteOffer")[0];
      const seats = alc ? blocks(alc, "OfferItem").slice(2 * n, 2 * n + 2) : [];
      if (seats.length < 2) continue;
      out.push({
        offerId,
        itemIds: all(offer, "OfferItemID"),
        totalMinor: minor(all(blocks(offer, "TotalPrice")[0]!, "TotalAmount")[0]!) + seats.reduce((s, i) => s + minor(all(i, "TotalAmount")[0]!), 0),
        seat: { offerId: all(alc!, "OfferID")[0]!, itemIds: seats.map((i) => all(i, "OfferItemID")[0]!), priceMinor: 0 },
      });
    }
    return out;
  }

  return async (orders) => {
    const bodies: string[] = [];
    while (bodies.length < orders) {
      for (const shopped of await shopDay()) {
        const i = serial++;
        bodies.push(
          orderCreateRQ({
            shopped,
            pax: [
              { id: "PAX1", surname: "BENCH", given: "Ada", doc: { number: `BN${String(i).padStart(8, "0")}` } },
              { id: "PAX2", surname: "BENCH", given: "Alan" },
            ],
            legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }],
            correlationId: `BENCH-${i}`,
            trxId: "T1",
          }),
        );
      }
    }
    return bodies.slice(0, orders);
  };
}
