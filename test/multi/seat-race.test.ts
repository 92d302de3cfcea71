import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { ActorSystem } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { InventoryService, WebShopChannel } from "@ndc/inventory";
import { migrate, openStore } from "@ndc/store";
import { createSupply } from "@ndc/supply";
import { footprint } from "../crash/support";
import { orderIdOf } from "../orders-http/helpers";
import { itemList, multiOrderCreateRQ, quotedList, seatItem, shopOneWay, total, TRAVEL_DATE } from "../orders-http/multi-offer-helpers";
import { errorCode } from "../support/gateway";
import { T0 } from "../support/dates";
import { multiDataDir, startWorker, type Worker } from "./support";

/**
 * A seat is sold once across processes and channels (issue 22 item 4): 200 attempts on ONE seat
 * at once, NDC OrderCreateRQs alternately to two workers and the airline's web shop in a third
 * actor system (this test's process, its own store connections on the same file), interleaved.
 * Each process has its own seat actor for the flight: only the journal's (kind, key, seq) and the
 * freshness check keep them one (docs/decisions/0040). Exactly one attempt wins; every loser is
 * told seat_unavailable (or, at the busiest, actor_busy, retried as a seller would); no loser
 * leaves an order, a hold or a payment leg.
 */
const ATTEMPTS = 200;
const data = multiDataDir();
const workers: Worker[] = [];
afterAll(async () => {
  for (const w of workers) await w.stop();
  data.remove();
});

test(
  `${ATTEMPTS} concurrent sales of one seat over two workers and the web shop: exactly one`,
  async () => {
    const a = await startWorker(data.dir);
    workers.push(a);
    const b = await startWorker(data.dir);
    workers.push(b);
    const flight = await shopOneWay(a, "LHR", "CDG", TRAVEL_DATE);
    // Read before the races: afterwards a raced seat is no longer offered.
    const raced = [await seatItem(a, flight.offerId, 0), await seatItem(a, flight.offerId, 1)];

    // The web shop: a third process's actors on the same file, on the workers' supply (seed and first day).
    const store = await openStore(`file:${join(data.dir, "gateway.db")}`);
    await migrate(store);
    const clock = new ManualClock(T0);
    const system = new ActorSystem({ store, clock, limits: { idleMs: 60_000, mailboxLimit: 10_000 }, sweepEveryMs: false });
    const supply = createSupply({ seed: "xb-sandbox-1", startDate: new Date(T0).toISOString().slice(0, 10), designator: "XB" });
    const shop = new WebShopChannel(new InventoryService({ system, store, supply, clock }));
    const ndcWinners: string[] = [];
    for (const [round, seat] of raced.entries()) {
    // Resident in every process before the race: each must see the others' writes, not its memory.
    expect((await shop.seats(seat.flightKey)).seats.find((s) => s.seatId === seat.seatId)?.status).toBe("available");
    // Round 0 starts every channel at once (the web shop, without HTTP, usually wins); in round 1
    // the web shop joins at the first NDC answer, so the two workers race each other first.
    let firstAnswer!: () => void;
    const answered = new Promise<void>((r) => (firstAnswer = r));
    const gate = round === 0 ? Promise.resolve() : answered;

    const busy = { ndc: 0, web: 0 };
    const ndc = async (i: number): Promise<{ i: number; won: string | null; code?: string }> => {
      const picks = [flight, seat];
      const rq = multiOrderCreateRQ({
        create: i % 4 === 0 ? itemList(picks) : quotedList(picks),
        pax: [{ id: "PAX1", surname: `RACER${i}` }],
        legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: total(picks) }],
        correlationId: `MRACE-${round}-${i}`,
        trxId: `MRACE-TRX-${round}-${i}`,
      });
      for (;;) {
        const r = await (i % 3 === 0 ? a : b).ndcUnchecked("OrderCreateRQ", rq);
        if (r.status === 200) return { i, won: orderIdOf(r.body) };
        const code = errorCode(r.body);
        if (code !== "actor_busy" && code !== "request_in_progress") return { i, won: null, code };
        busy.ndc++;
        await Bun.sleep(20);
      }
    };
    const web = async (i: number): Promise<{ i: number; won: string | null; code?: string }> => {
      await gate;
      for (;;) {
        try {
          await shop.sellSeat(seat.flightKey, seat.seatId, { customerRef: `basket-${i}` });
          return { i, won: `web-shop:basket-${i}` };
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (code !== "actor_busy") return { i, won: null, code };
          busy.web++;
          await Bun.sleep(20);
        }
      }
    };
    // Every third attempt the web shop, the others NDC alternately on A and B.
    const outcomes = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => (i % 3 === 2 ? web(i) : ndc(i).finally(firstAnswer))));
    const winners = outcomes.filter((o) => o.won);
    console.log(`round ${round}: won by ${winners.map((w) => w.won).join(", ")}; actor_busy retried: ${JSON.stringify(busy)}`);
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => !o.won).map((o) => o.code).filter((c) => c !== "seat_unavailable")).toEqual([]);

    const live = (await store.db.all(
      sql`SELECT status, channel, holder FROM seat_inventory WHERE flight_key = ${seat.flightKey} AND seat_id = ${seat.seatId} AND status IN ('held', 'sold')`,
    )) as { status: string; channel: string; holder: string }[];
    expect(live).toHaveLength(1);
    expect(live[0]!.status).toBe("sold");
    const held = (await store.db.all(sql`SELECT holder FROM seat_inventory WHERE flight_key = ${seat.flightKey} AND status = 'held'`)) as unknown[];
    expect(held).toEqual([]);
    if (!winners[0]!.won!.startsWith("web-shop:")) ndcWinners.push(winners[0]!.won!);
    }
    await system.close();
    await store.close();

    // Orders and money: only the NDC winners', booked and captured; no loser left anything.
    const f = await footprint(data.dir);
    expect([...f.orders.keys()].sort()).toEqual([...ndcWinners].sort());
    expect(f.legs.map((l) => [l.orderId, l.state]).sort()).toEqual(ndcWinners.map((o) => [o, "captured"]).sort());
    expect(f.openSagas).toEqual([]);
    expect(f.pspAuthorised).toEqual([]);
  },
  180_000,
);
