import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { WebShopChannel } from "@ndc/inventory";
import { SANDBOX_AGENCY } from "@ndc/payments";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, orderIdOf } from "./helpers";
import { itemList, multiOrderCreateRQ, quotedList, seatItem, shopOneWay, total, TRAVEL_DATE, type Chosen } from "./multi-offer-helpers";

/**
 * A seat is sold once across every channel (spec 4.4): 200 attempts on ONE seat at once, half
 * NDC OrderCreateRQ over HTTP (each its own CorrelationID/TrxID, both CreateOrder forms, paying
 * by card), half the airline's web shop, interleaved. Both go through the same seat actor, so
 * exactly one wins; every NDC loser is refused seat_unavailable and leaves no order, no hold and
 * no payment leg behind, and the seat has one live row in seat_inventory.
 *
 * Two rounds, on two seats of the same flight. Started together, the web shop (no HTTP, no
 * XML) usually wins; so in the second round the web shop joins as the first NDC answer comes
 * back, with most NDC requests still in flight, and the NDC winner's side (order booked, leg
 * captured, the hold confirmed) is checked too. The checks hold whoever wins.
 */
const ATTEMPTS = 200;
let t: TestGateway;
let flight: Chosen;
let seats: (Chosen & { seatId: string; flightKey: string })[];
/** Orders won so far (every round's winner over NDC). */
const winners: string[] = [];

beforeAll(async () => {
  ({ t } = await gateway());
  flight = await shopOneWay(t, "LHR", "CDG", TRAVEL_DATE);
  // Read before the races: afterwards a raced seat is taken and no longer offered.
  seats = [await seatItem(t, flight.offerId, 0), await seatItem(t, flight.offerId, 1)];
});
afterAll(() => t.close());

type Seat = (typeof seats)[number];
type NdcOutcome = { channel: "ndc"; i: number; status: number; body: string };
type WebOutcome = { channel: "web_shop"; i: number; ok: boolean; code?: string };

function ndcAttempt(round: number, seat: Seat, i: number): Promise<NdcOutcome> {
  const picks = [flight, seat];
  const rq = multiOrderCreateRQ({
    create: i % 4 === 0 ? itemList(picks) : quotedList(picks),
    pax: [{ id: "PAX1", surname: `RACER${i}`, email: `racer${i}@example.test` }],
    legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: total(picks) }],
    correlationId: `RACE-${round}-${i}`,
    trxId: `RACE-TRX-${round}-${i}`,
  });
  return t.ndc("OrderCreateRQ", rq).then((r) => ({ channel: "ndc", i, status: r.status, body: r.body }));
}

function webShopAttempt(shop: WebShopChannel, seat: Seat, i: number): Promise<WebOutcome> {
  return shop.sellSeat(seat.flightKey, seat.seatId, { customerRef: `basket-${i}` }).then(
    () => ({ channel: "web_shop", i, ok: true }),
    (e: { code?: string }) => ({ channel: "web_shop", i, ok: false, code: e.code }),
  );
}

async function race(round: number, seat: Seat, webShopJoins: "at_once" | "after_first_ndc_answer"): Promise<void> {
  const shop = new WebShopChannel(t.gw.inventory);
  let firstAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
  const gate = webShopJoins === "at_once" ? Promise.resolve() : answered;
  // Interleaved: even attempts NDC, odd ones the web shop.
  const attempts = Array.from({ length: ATTEMPTS }, (_, i) =>
    i % 2 === 0 ? ndcAttempt(round, seat, i).finally(firstAnswer) : gate.then(() => webShopAttempt(shop, seat, i)),
  );
  const outcomes = await Promise.all(attempts as Promise<NdcOutcome | WebOutcome>[]);

  const ndc = outcomes.filter((o): o is NdcOutcome => o.channel === "ndc");
  const web = outcomes.filter((o): o is WebOutcome => o.channel === "web_shop");
  expect([ndc.length, web.length]).toEqual([ATTEMPTS / 2, ATTEMPTS / 2]);
  const ndcWins = ndc.filter((o) => o.status === 200);
  const webWins = web.filter((o) => o.ok);
  expect(ndcWins.length + webWins.length).toBe(1);
  if (process.env.RACE_DEBUG) console.log(`round ${round}: won by`, ndcWins.length ? "ndc" : "web_shop");

  // Every loser is told why, in its own channel's terms.
  for (const o of ndc.filter((o) => o.status !== 200)) {
    expect({ i: o.i, status: o.status, code: errorCode(o.body) }).toEqual({ i: o.i, status: 409, code: "seat_unavailable" });
  }
  for (const o of web.filter((o) => !o.ok)) expect({ i: o.i, code: o.code }).toEqual({ i: o.i, code: "seat_unavailable" });

  // Orders: only the winners', booked.
  const winner = ndcWins[0] ? orderIdOf(ndcWins[0].body) : undefined;
  if (winner) {
    expect(ndcWins[0]!.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    winners.push(winner);
  }
  const orders = await t.gw.orders.list({ clientId: "any", agencyId: SANDBOX_AGENCY }, {}, { limit: 100 });
  expect(orders.orders.map((o) => o.orderId).sort()).toEqual([...winners].sort());

  // The seat: one live row, sold, in the winner's channel.
  const live = (await t.gw.store.db.all(
    sql`SELECT status, channel, holder FROM seat_inventory WHERE flight_key = ${seat.flightKey} AND seat_id = ${seat.seatId} AND status IN ('held', 'sold')`,
  )) as { status: string; channel: string; holder: string }[];
  expect(live).toHaveLength(1);
  expect(live[0]).toMatchObject({ status: "sold", channel: winner ? "ndc" : "web_shop", ...(winner ? { holder: winner } : {}) });
  // No loser's hold anywhere on the flight: every live row is a winner's.
  const held = (await t.gw.store.db.all(sql`SELECT holder FROM seat_inventory WHERE flight_key = ${seat.flightKey} AND status = 'held'`)) as unknown[];
  expect(held).toEqual([]);

  // Money: the losers never reached authorisation; winners' legs are captured, none left authorised.
  const legs = (await t.gw.store.db.all(sql`SELECT order_id, state FROM payment_legs`)) as { order_id: string; state: string }[];
  expect(legs.filter((l) => !winners.includes(l.order_id))).toEqual([]);
  expect(legs.every((l) => l.state === "captured")).toBe(true);
  expect(legs).toHaveLength(winners.length);
}

test(`${ATTEMPTS} concurrent attempts on one seat, NDC and web shop started together: exactly one succeeds, the losers leave nothing behind`, async () => {
  await race(1, seats[0]!, "at_once");
}, 60_000);

test(`${ATTEMPTS} concurrent attempts on another seat, the web shop joining while NDC requests are in flight: exactly one succeeds, the losers leave nothing behind`, async () => {
  await race(2, seats[1]!, "after_first_ndc_answer");
}, 60_000);
