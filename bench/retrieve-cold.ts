/**
 * OrderRetrieveRQ in process, cold against warm (docs/decisions/0009): the gateway booted with
 * bootGateway and called through app.handle (no sockets), BENCH_ORDERS (2,000) copies of one
 * paid two-passenger order written by the bulk path (bench/bulk-orders.ts). "cold" reads each
 * copy once, in random order, so no order's actor is resident when it is asked; "warm" reads
 * one resident order as many times. BENCH_ROUNDS (3) rounds, each cold round on fresh copies,
 * the median of the rounds' mean µs per call.
 *
 *   node_modules/.bin/bun bench/retrieve-cold.ts
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { bootGateway } from "@ndc/gateway";
import { loadFieldKey } from "@ndc/pii";
import { orderRetrieveRQ } from "../test/orders-http/helpers";
import { copyBooking } from "./bulk-orders";
import { bookTemplate } from "./template-booking";
import { median } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const dir = mkdtempSync(join(tmpdir(), "ndc-bench-cold-"));
const env = { GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000", RATE_LIMIT_SHOP_PER_MINUTE: "100000000" };
const config = loadConfig(env);
const gw = await bootGateway({ config });
try {
  const apiKey = gw.sandbox!.api_key;
  const ndc = async (message: string, body: string) => {
    const res = await gw.app.handle(
      new Request(`http://localhost/24.4/${message}`, { method: "POST", headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": apiKey }, body }),
    );
    return { status: res.status, headers: res.headers, body: await res.text() };
  };
  const db = new Database(join(dir, "gateway.db"));
  db.exec("PRAGMA busy_timeout = 10000");
  const { rows, ids } = await bookTemplate(ndc, db, "COLD");
  const key = loadFieldKey(config);

  const timed = async (orderIds: string[]) => {
    const bodies = orderIds.map((id) => orderRetrieveRQ(id));
    const t0 = performance.now();
    for (const body of bodies) {
      const r = await ndc("OrderRetrieveRQ", body);
      if (r.status !== 200) throw new Error(`OrderRetrieveRQ: ${r.status} ${r.body.slice(0, 300)}`);
    }
    return ((performance.now() - t0) * 1000) / bodies.length;
  };
  const cold: number[] = [];
  const warm: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const copies = copyBooking(db, rows, ids, key, ORDERS, { firstCopy: 1 + round * ORDERS }).sort(() => Math.random() - 0.5);
    await timed(Array(500).fill(ids.orderId)); // warm-up
    warm.push(await timed(Array(ORDERS).fill(ids.orderId)));
    cold.push(await timed(copies));
  }
  const out = { bench: "retrieve-cold", orders: ORDERS, coldUs: Number(median(cold).toFixed(1)), warmUs: Number(median(warm).toFixed(1)) };
  console.log(`cold ${cold.map((x) => x.toFixed(0)).join(", ")} µs; warm ${warm.map((x) => x.toFixed(0)).join(", ")} µs`);
  console.log(JSON.stringify({ ...out, coldOverWarm: Number((out.coldUs / out.warmUs).toFixed(2)) }));
  db.close();
} finally {
  await gw.close?.();
  rmSync(dir, { recursive: true, force: true });
}
