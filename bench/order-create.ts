/**
 * OrderCreateRQ through the whole gateway (in process: Elysia app, auth, XML, saga, actors,
 * ledger, store): two passengers, two seats and a card leg per order. Against it, in the same
 * run, bare store transactions writing the same number of rows with the same durability
 * (WAL, synchronous=FULL), one transaction per order: the ratio says what the order path costs
 * on top of the commits it cannot avoid (DESIGN 6: report a ratio, the machine is noisy).
 * Shopping (AirShopping + SeatAvailability) happens before each timed OrderCreate, untimed.
 *
 *   node_modules/.bin/bun bench/order-create.ts [orders=200]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { ManualClock } from "@ndc/clock";
import { bootGateway } from "@ndc/gateway";
import { openStore } from "@ndc/store";
import { orderCreateRQ, shopOffer } from "../test/orders-http/helpers";

const orders = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(join(tmpdir(), "ndc-bench-order-"));
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const config = loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", RATE_LIMIT_SHOP_PER_MINUTE: "100000000", RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000" });
const gw = await bootGateway({ config, clock, logger: createLogger({ level: "warn", sink: () => {} }) });
const apiKey = gw.sandbox!.api_key;

async function ndc(message: string, body: string) {
  const res = await gw.app.handle(
    new Request(`http://localhost/24.4/${message}`, { method: "POST", headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": apiKey }, body }),
  );
  return { status: res.status, headers: res.headers, body: await res.text() };
}

// Shopping answers are checked by shopOffer; this names the one that was not what it expected.
async function logged(message: string, body: string) {
  const r = await ndc(message, body);
  if (r.status !== 200 || !/<cns:(ALaCarte)?Offer>/.test(r.body)) throw new Error(`${message}: ${r.status} ${r.body.slice(0, 800)}`);
  return r;
}

// Rows the order path leaves behind: counted over every table before and after the run.
async function totalRows(): Promise<number> {
  const tables = (await gw.store.db.all(sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)) as { name: string }[];
  let n = 0;
  for (const t of tables) n += ((await gw.store.db.all(sql.raw(`SELECT count(*) AS c FROM "${t.name}"`))) as { c: number }[])[0]!.c;
  return n;
}

const day = (n: number) => new Date(Date.UTC(2026, 11, 1) + n * 86_400_000).toISOString().slice(0, 10);
const rowsBefore = await totalRows();
const latencies: number[] = [];
let timedMs = 0;
let dayIndex = 0;
let onDay = 0;
for (let i = 0; i < orders; i++) {
  // A new travel day every 20 orders keeps seats free; a day whose cabin sells no seat is skipped.
  if (onDay === 20) [dayIndex, onDay] = [dayIndex + 1, 0];
  let shopped;
  for (;;) {
    try {
      shopped = await shopOffer({ ndc: logged }, { pax: 2, seat: true, date: day(dayIndex) });
      break;
    } catch {
      [dayIndex, onDay] = [dayIndex + 1, 0];
      if (dayIndex > 300) throw new Error("no seats to sell on any day");
    }
  }
  onDay++;
  const body = orderCreateRQ({
    shopped,
    pax: [
      { id: "PAX1", surname: "BENCH", given: "Ada", doc: { number: `BN${String(i).padStart(8, "0")}` } },
      { id: "PAX2", surname: "BENCH", given: "Alan" },
    ],
    legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }],
    correlationId: `BENCH-${i}`,
    trxId: "T1",
  });
  const t0 = performance.now();
  const r = await ndc("OrderCreateRQ", body);
  const ms = performance.now() - t0;
  if (r.status !== 200 || !r.body.includes("<cns:StatusCode>BOOKED</cns:StatusCode>")) throw new Error(`order ${i}: ${r.status} ${r.body.slice(0, 600)}`);
  latencies.push(ms);
  timedMs += ms;
}
const rowsPerOrder = ((await totalRows()) - rowsBefore) / orders;
const gatewayDriver = gw.store.driver;
await gw.close();

// Bare transactions: the same number of rows per order, one durable transaction each.
const bare = await openStore(`file:${join(dir, "bare.db")}`, { driver: gatewayDriver });
await bare.write((_tx, raw) => raw.exec("CREATE TABLE IF NOT EXISTS bench (id INTEGER PRIMARY KEY, k TEXT NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL)"));
const [sync] = (await bare.write((tx) => tx.all(sql`PRAGMA synchronous`))) as { synchronous: number }[];
if (sync!.synchronous !== 2) throw new Error(`bare store: synchronous is ${sync!.synchronous}, not FULL`);
const payload = JSON.stringify({ id: "x".repeat(200), at: Date.now() });
const rows = Math.max(1, Math.round(rowsPerOrder));
const bareLat: number[] = [];
const b0 = performance.now();
for (let i = 0; i < orders; i++) {
  const t0 = performance.now();
  await bare.write(async (tx) => {
    for (let j = 0; j < rows; j++) await tx.run(sql`INSERT INTO bench (k, seq, payload) VALUES ('k', ${i * rows + j}, ${payload})`);
  });
  bareLat.push(performance.now() - t0);
}
const bareMs = performance.now() - b0;
const driver = bare.driver;
await bare.close();
rmSync(dir, { recursive: true, force: true });

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const orderRate = orders / (timedMs / 1000);
const bareRate = orders / (bareMs / 1000);
console.log(`OrderCreateRQ, 2 passengers + 2 seats + card leg, ${orders} orders sequential, Bun ${Bun.version}, store driver ${driver}`);
console.log(`  gateway   ${orderRate.toFixed(1).padStart(8)} orders/s   p50 ${p(latencies, 0.5).toFixed(1)} ms   p99 ${p(latencies, 0.99).toFixed(1)} ms   (${rowsPerOrder.toFixed(1)} rows left per order)`);
console.log(`  bare      ${bareRate.toFixed(1).padStart(8)} tx/s       p50 ${p(bareLat, 0.5).toFixed(2)} ms   p99 ${p(bareLat, 0.99).toFixed(2)} ms   (${rows} rows per transaction, WAL, synchronous=FULL)`);
console.log(`  ratio gateway / bare = ${(orderRate / bareRate).toFixed(3)}`);
