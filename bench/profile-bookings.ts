/**
 * A profiling aid, not a benchmark: the bookings of bench/order-create.ts with nothing else in the
 * process, so a CPU profile shows only them. In process the same run also shops (an AirShoppingRQ
 * per travel day, a SeatAvailabilityRQ per offer) and times the bare baseline, which together
 * are about a third of its profile. Here one process shops and stores the OrderCreateRQ bodies with
 * the store; a second boots a gateway on that store (the same manual clock, so the offers are
 * still valid) and books them all at concurrency 32.
 *
 *   node_modules/.bin/bun bench/profile-bookings.ts shop <dir> [orders=1000]
 *   node_modules/.bin/bun --cpu-prof --cpu-prof-dir=<out> bench/profile-bookings.ts book <dir>
 *
 * `book` changes the store: copy <dir> first to book the same orders again. It prints one line:
 * `{"orders":..,"perSecond":..,"cpuMsPerOrder":..}` (process CPU from process.cpuUsage, after a
 * warm-up of 20 bookings). Used for docs/decisions/0006-booking-write-path.md, "The ceiling".
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { ManualClock } from "@ndc/clock";
import { bootGateway } from "@ndc/gateway";
import { orderCreateRQ, type Shopped } from "../test/orders-http/helpers";
import { airShoppingRQ, all, blocks } from "../test/shopping/shop-requests";
import { seatAvailabilityRQ } from "../test/shopping/seat-availability-helpers";

const [mode, dir, ordersText = "1000"] = process.argv.slice(2);
if ((mode !== "shop" && mode !== "book") || !dir) {
  console.error("usage: bun bench/profile-bookings.ts shop|book <dir> [orders]");
  process.exit(2);
}
const WARM_UP = 20;
const CONCURRENCY = 32;
const bodiesFile = join(dir, "bodies.json");

const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const config = loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", RATE_LIMIT_SHOP_PER_MINUTE: "100000000", RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000" });
const gw = await bootGateway({ config, clock, logger: createLogger({ level: "warn", sink: () => {} }) });
const apiKey = gw.sandbox!.api_key;

async function ndc(message: string, body: string) {
  const res = await gw.app.handle(
    new Request(`http://localhost/24.4/${message}`, { method: "POST", headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": apiKey }, body }),
  );
  return { status: res.status, body: await res.text() };
}

const minor = (s: string) => Math.round(Number(s) * 100);
const day = (n: number) => new Date(Date.UTC(2026, 11, 1) + n * 86_400_000).toISOString().slice(0, 10);

/** The pool of bench/order-create.ts: each order its own offer and two seats of its own. */
async function shop(orders: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let d = 0; bodies.length < orders; d++) {
    const found = await ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: day(d) }], pax: [["PAX1", "ADT"], ["PAX2", "ADT"]], currency: "EUR" }));
    if (found.status !== 200) throw new Error(`AirShoppingRQ ${found.status}: ${found.body.slice(0, 400)}`);
    for (const [n, offer] of blocks(found.body, "Offer").entries()) {
      const offerId = all(offer, "OfferID")[0]!;
      const sa = await ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId, currency: "EUR" }));
      if (sa.status !== 200) continue;
      const alc = blocks(sa.body, "ALaCarteOffer")[0];
      const seats = alc ? blocks(alc, "OfferItem").slice(2 * n, 2 * n + 2) : [];
      if (seats.length < 2) continue;
      const shopped: Shopped = {
        offerId,
        itemIds: all(offer, "OfferItemID"),
        totalMinor: minor(all(blocks(offer, "TotalPrice")[0]!, "TotalAmount")[0]!) + seats.reduce((s, i) => s + minor(all(i, "TotalAmount")[0]!), 0),
        seat: { offerId: all(alc!, "OfferID")[0]!, itemIds: seats.map((i) => all(i, "OfferItemID")[0]!), priceMinor: 0 },
      };
      const i = bodies.length;
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
}

async function book(bodies: string[]): Promise<void> {
  let next = 0;
  const upTo = (end: number) =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < end) {
          const r = await ndc("OrderCreateRQ", bodies[next++]!);
          if (r.status !== 200) throw new Error(`OrderCreateRQ ${r.status}: ${r.body.slice(0, 400)}`);
        }
      }),
    );
  await upTo(WARM_UP);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await upTo(bodies.length);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const n = bodies.length - WARM_UP;
  console.log(JSON.stringify({ orders: n, perSecond: +(n / seconds).toFixed(1), cpuMsPerOrder: +((cpu.user + cpu.system) / 1000 / n).toFixed(2) }));
}

try {
  if (mode === "shop") writeFileSync(bodiesFile, JSON.stringify(await shop(Number(ordersText))));
  else await book(JSON.parse(readFileSync(bodiesFile, "utf8")) as string[]);
} finally {
  await gw.close();
}
