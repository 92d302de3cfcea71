/**
 * Memory with many stored orders: the gateway in its own process (bench/memory-server.ts, the
 * gateway as deployed plus a stats listener) with BENCH_ORDERS stored orders (100,000), seeded by
 * the bulk path (bench/bulk-orders.ts), after BENCH_MIX_SECONDS (60) of mixed traffic at
 * BENCH_MIX_CONNECTIONS (8): AirShoppingRQ 20 %, OfferPriceRQ 10 %, OrderCreateRQ 10 % (each after
 * its own shopping), OrderRetrieveRQ of a random stored order 60 %. Reports the process's resident
 * set size, how many actors are resident (idle ones are evicted after ACTOR_IDLE_MS, BENCH_IDLE_MS
 * here, 20 s), and the OrderRetrieveRQ p99 of random stored orders at 100 stored orders and at
 * all of them (BENCH_P99_SECONDS, 3, at 8 connections; the median of BENCH_ROUNDS, 3).
 * Targets (issue 8): rssMb < 512, the two p99 within 20 % of each other.
 *
 *   node_modules/.bin/bun bench/memory.ts
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { loadFieldKey } from "@ndc/pii";
import { offerPriceRQ } from "../test/shopping/shop-requests";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "../test/orders-http/helpers";
import { copyBooking } from "./bulk-orders";
import { bookTemplate, TEMPLATE_PAX } from "./template-booking";
import { ROOT, median, percentile } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const MIX_SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 60);
const MIX_CONNS = Number(process.env.BENCH_MIX_CONNECTIONS ?? 8);
const P99_SECONDS = Number(process.env.BENCH_P99_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FIRST = 100;

const p99 = (xs: number[]) => percentile(xs, 0.99);

/** Starts bench/memory-server.ts and reads both of its URLs. */
async function start(env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, "bench/memory-server.ts"], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("memory-server exited before listening");
    buf += new TextDecoder().decode(value);
    const m = buf.match(/LISTENING (\S+) STATS (\S+)/);
    if (m) {
      (async () => {
        while (!(await reader.read()).done);
      })();
      return { url: m[1]!.replace(/\/$/, ""), stats: m[2]!, stop: () => proc.kill() };
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), "ndc-bench-memory-"));
const env = {
  GATEWAY_DATA_DIR: dir,
  GATEWAY_MODE: "local",
  LOG_LEVEL: "warn",
  RATE_LIMIT_SHOP_PER_MINUTE: "100000000",
  RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000",
  ACTOR_IDLE_MS: process.env.BENCH_IDLE_MS ?? "20000",
};
const gw = await start(env);
try {
  const creds = JSON.parse(await Bun.file(join(dir, "sandbox-credentials.json")).text()) as { api_key: string };
  const ndc = async (message: string, body: string) => {
    const res = await fetch(`${gw.url}/24.4/${message}`, {
      method: "POST",
      headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": creds.api_key, "accept-encoding": "identity" },
      body,
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };
  const stats = async () => (await (await fetch(gw.stats)).json()) as { rssBytes: number; residentActors: number };

  // The template order over HTTP, then copies up to FIRST orders.
  const db = new Database(join(dir, "gateway.db"));
  db.exec("PRAGMA busy_timeout = 10000");
  const { rows, ids } = await bookTemplate(ndc, db);
  const key = loadFieldKey(loadConfig(env));
  const orderIds = [ids.orderId, ...copyBooking(db, rows, ids, key, FIRST - 1)];

  /** OrderRetrieveRQ of random stored orders, closed loop: p99 in ms, median of the rounds. */
  async function retrieveP99(): Promise<number> {
    const rounds: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const latencies: number[] = [];
      const deadline = performance.now() + P99_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (performance.now() < deadline) {
            const t0 = performance.now();
            const res = await ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIds[Math.floor(Math.random() * orderIds.length)]!));
            if (res.status !== 200) throw new Error(`OrderRetrieveRQ: ${res.status} ${res.body.slice(0, 300)}`);
            latencies.push(performance.now() - t0);
          }
        }),
      );
      rounds.push(p99(latencies));
    }
    return median(rounds);
  }

  const p99At100 = await retrieveP99();
  console.log(`retrieve p99 at ${orderIds.length} stored orders: ${p99At100.toFixed(2)} ms`);

  const t0 = performance.now();
  orderIds.push(...copyBooking(db, rows, ids, key, ORDERS - FIRST, { firstCopy: FIRST }));
  console.log(`seeded ${orderIds.length} orders in all (${((performance.now() - t0) / 1000).toFixed(1)} s for the bulk copies)`);

  // A minute of mixed traffic.
  const counts = { shop: 0, price: 0, book: 0, retrieve: 0, failed: 0 };
  const mixEnd = performance.now() + MIX_SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: MIX_CONNS }, async () => {
      while (performance.now() < mixEnd) {
        const roll = Math.random();
        try {
          if (roll < 0.6) {
            const r = await ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIds[Math.floor(Math.random() * orderIds.length)]!));
            counts[r.status === 200 ? "retrieve" : "failed"]++;
          } else if (roll < 0.8) {
            await shopOffer({ ndc }, { pax: 2 });
            counts.shop++;
          } else if (roll < 0.9) {
            const s = await shopOffer({ ndc }, { pax: 2 });
            const r = await ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: s.offerId, items: s.itemIds.map((id) => ({ id, pax: ["PAX1", "PAX2"] })) }] }));
            counts[r.status === 200 ? "price" : "failed"]++;
          } else {
            const s = await shopOffer({ ndc }, { pax: 2 });
            const i = n++;
            const r = await ndc("OrderCreateRQ", orderCreateRQ({ shopped: s, pax: TEMPLATE_PAX, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: s.totalMinor }], correlationId: `MIX-${i}`, trxId: "T" }));
            if (r.status === 200) orderIds.push(orderIdOf(r.body));
            counts[r.status === 200 ? "book" : "failed"]++;
          }
        } catch {
          counts.failed++;
        }
      }
    }),
  );
  console.log(`mixed traffic, ${MIX_SECONDS} s at ${MIX_CONNS} connections: ${JSON.stringify(counts)}`);

  const p99AtAll = await retrieveP99();
  const s = await stats();
  const rssMb = s.rssBytes / (1024 * 1024);
  console.log(`retrieve p99 at ${orderIds.length} stored orders: ${p99AtAll.toFixed(2)} ms; rss ${rssMb.toFixed(0)} MB; ${s.residentActors} actors resident`);
  console.log(
    JSON.stringify({
      bench: "memory",
      orders: orderIds.length,
      rssMb: Number(rssMb.toFixed(1)),
      residentActors: s.residentActors,
      retrieveP99Ms100: Number(p99At100.toFixed(2)),
      retrieveP99MsAll: Number(p99AtAll.toFixed(2)),
    }),
  );
  db.close();
} finally {
  gw.stop();
  rmSync(dir, { recursive: true, force: true });
}
