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
import { T0 } from "../test/support/dates";
import { bookingPool, inProcessNdc } from "./booking-pool";

const [mode, dir, ordersText = "1000"] = process.argv.slice(2);
if ((mode !== "shop" && mode !== "book") || !dir) {
  console.error("usage: bun bench/profile-bookings.ts shop|book <dir> [orders]");
  process.exit(2);
}
const WARM_UP = 20;
const CONCURRENCY = 32;
const bodiesFile = join(dir, "bodies.json");

// The clock booking-pool.ts reads its travel days from (test/support/dates.ts).
const clock = new ManualClock(T0);
const config = loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", RATE_LIMIT_SHOP_PER_MINUTE: "100000000", RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000" });
const gw = await bootGateway({ config, clock, logger: createLogger({ level: "warn", sink: () => {} }) });

const ndc = inProcessNdc(gw.app, gw.sandbox!.api_key);

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
  if (mode === "shop") writeFileSync(bodiesFile, JSON.stringify(await bookingPool(ndc)(Number(ordersText))));
  else await book(JSON.parse(readFileSync(bodiesFile, "utf8")) as string[]);
} finally {
  await gw.close();
}
