/**
 * The order read path over real sockets, the gateway in its own process (bench/gateway-server.ts)
 * holding BENCH_ORDERS stored orders (100,000 by default):
 * - OrderRetrieveRQ of one stored order at 32 connections, against a bare Bun.serve answering the
 *   same bytes (bench/bare-server.ts): retrieveRatio = gateway requests/s / bare requests/s.
 * - OrderListRQ's last page against its first (20 orders a page): listLastOverFirst = time per
 *   last-page request / time per first-page request (closed loop, BENCH_LIST_CONNECTIONS each).
 *   Keyset paging makes them equal; the statement it replaced (OFFSET and a COUNT) is timed on
 *   the same database for comparison, in SQLite directly.
 * Orders are seeded by the documented bulk path (bench/bulk-orders.ts): one paid order booked
 * over HTTP, copied with fresh ids. Rounds alternate between the compared sides so both see the
 * same machine noise; the figures are medians of the rounds.
 *
 *   node_modules/.bin/bun bench/order-read.ts
 *   env: BENCH_ORDERS (100000) BENCH_CONNECTIONS (32) BENCH_LIST_CONNECTIONS (4) BENCH_SECONDS (5) BENCH_ROUNDS (3)
 *   BENCH_ACCEPT_ENCODING (identity; gzip measures the gateway compressing its answers)
 *   BENCH_GATEWAY_ROOT=<another checkout>: serve from that checkout's code (its node_modules),
 *   to measure a before/after on the same seeded rows; BENCH_LIST=0 skips the OrderList part
 *   (a checkout from before keyset paging has no cursor).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { loadFieldKey } from "@ndc/pii";
import { orderListRQ } from "../test/orders-http/order-list-helpers";
import { orderRetrieveRQ } from "../test/orders-http/helpers";
import { copyBooking } from "./bulk-orders";
import { bookTemplate } from "./template-booking";
import { fmt, median, runLoad, startServer, type LoadResult } from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const LIST_CONNS = Number(process.env.BENCH_LIST_CONNECTIONS ?? 4);
const SECS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PAGE = 20;
const ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "identity";
const LIST = process.env.BENCH_LIST !== "0";
const GATEWAY = process.env.BENCH_GATEWAY_ROOT ? join(process.env.BENCH_GATEWAY_ROOT, "bench/gateway-server.ts") : "bench/gateway-server.ts";


const dir = mkdtempSync(join(tmpdir(), "ndc-bench-read-"));
const env = { GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", RATE_LIMIT_SHOP_PER_MINUTE: "100000000", RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000" };
const gw = await startServer(GATEWAY, [], env);
const stops = [gw.stop];
try {
  const creds = JSON.parse(await Bun.file(join(dir, "sandbox-credentials.json")).text()) as { api_key: string; agency_id: string };
  // Identity by default: Bun's fetch asks for gzip, and the gateway would compress every answer
  // while the bare server sends the same bytes uncompressed (docs/decisions/0004).
  const headers = (message: string) => ({ "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": creds.api_key, "accept-encoding": ENCODING });
  const ndc = async (message: string, body: string) => {
    const res = await fetch(`${gw.url}/24.4/${message}`, { method: "POST", headers: headers(message), body });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };

  // Seed: one paid order over HTTP (two passengers, a passport, a card), then bulk copies of it.
  const db = new Database(join(dir, "gateway.db"));
  db.exec("PRAGMA busy_timeout = 10000");
  const { rows, ids: templateIds } = await bookTemplate(ndc, db);
  const key = loadFieldKey(loadConfig(env));
  const t0 = performance.now();
  const copies = copyBooking(db, rows, templateIds, key, ORDERS - 1);
  console.log(`seeded ${ORDERS} orders (1 booked over HTTP, ${copies.length} bulk copies) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // OrderRetrieveRQ of a stored order, against the bare server answering the same bytes.
  const retrieveBody = orderRetrieveRQ(copies[Math.floor(copies.length / 2)]!);
  const retrieveInit = join(dir, "retrieve.json");
  writeFileSync(retrieveInit, JSON.stringify({ method: "POST", headers: headers("OrderRetrieveRQ"), body: retrieveBody }));
  const sample = await ndc("OrderRetrieveRQ", retrieveBody);
  if (sample.status !== 200 || !sample.body.includes("<cns:OrderID>")) throw new Error(`OrderRetrieveRQ: ${sample.status} ${sample.body.slice(0, 500)}`);
  const answer = join(dir, "retrieve-answer.xml");
  writeFileSync(answer, sample.body);
  const bare = await startServer("bench/bare-server.ts", [answer, "200"]);
  stops.push(bare.stop);

  // OrderListRQ first page, and the last page as a seller who followed every cursor holds it:
  // the cursor of the order just before the last PAGE orders (sealed with the gateway's key).
  const listInits = async () => {
    const seller = { clientId: "", agencyId: creds.agency_id };
    const edge = db.query("SELECT created_at AS createdAt, order_id AS orderId FROM orders WHERE owner_agency_id = ? ORDER BY created_at ASC, order_id ASC LIMIT 1 OFFSET ?").get(creds.agency_id, PAGE) as { createdAt: number; orderId: string };
    const { sealCursor } = await import("../packages/orders/src/read/list-cursor");
    const firstBody = orderListRQ({ page: { size: PAGE } });
    const lastBody = orderListRQ({ page: { size: PAGE, after: sealCursor(key, seller, {}, undefined, edge) } });
    const count = (xml: string) => xml.split("<cns:OrderRefID>").length - 1;
    const first = await ndc("OrderListRQ", firstBody);
    const last = await ndc("OrderListRQ", lastBody);
    if (first.status !== 200 || count(first.body) !== PAGE || !first.body.includes("gw:NextPage")) throw new Error(`first page: ${first.status} ${first.body.slice(0, 500)}`);
    if (last.status !== 200 || count(last.body) !== PAGE || last.body.includes("gw:NextPage")) throw new Error(`last page: ${last.status} ${last.body.slice(0, 500)}`);
    const init = (name: string, body: string) => {
      const f = join(dir, `${name}.json`);
      writeFileSync(f, JSON.stringify({ method: "POST", headers: headers("OrderListRQ"), body }));
      return f;
    };
    return { first: init("list-first", firstBody), last: init("list-last", lastBody) };
  };
  const list = LIST ? await listInits() : undefined;

  const url = (base: string, message: string) => `${base}/24.4/${message}`;
  await runLoad(url(gw.url, "OrderRetrieveRQ"), retrieveInit, CONNS, 1, 200); // warm-up
  await runLoad(url(bare.url, "OrderRetrieveRQ"), retrieveInit, CONNS, 1, 200);
  if (list) await runLoad(url(gw.url, "OrderListRQ"), list.last, LIST_CONNS, 1, 200);
  const retrieveRatios: number[] = [];
  const listRatios: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const b: LoadResult = await runLoad(url(bare.url, "OrderRetrieveRQ"), retrieveInit, CONNS, SECS, 200);
    const g: LoadResult = await runLoad(url(gw.url, "OrderRetrieveRQ"), retrieveInit, CONNS, SECS, 200);
    if (g.unexpected || g.errors) throw new Error("unexpected OrderRetrieveRQ answers under load");
    retrieveRatios.push(g.rps / b.rps);
    console.log(`round ${i + 1}\n  bare Bun.serve    ${fmt(b)}\n  OrderRetrieveRQ   ${fmt(g)}`);
    if (!list) continue;
    const f: LoadResult = await runLoad(url(gw.url, "OrderListRQ"), list.first, LIST_CONNS, SECS, 200);
    const l: LoadResult = await runLoad(url(gw.url, "OrderListRQ"), list.last, LIST_CONNS, SECS, 200);
    if (f.unexpected || f.errors || l.unexpected || l.errors) throw new Error("unexpected OrderListRQ answers under load");
    listRatios.push(f.rps / l.rps);
    console.log(`  OrderList first   ${fmt(f)}\n  OrderList last    ${fmt(l)}`);
  }

  // The statement keyset paging replaced, on the same database: COUNT, then OFFSET to the page.
  const oldPage = (offset: number) => {
    const t = performance.now();
    const n = 20;
    for (let i = 0; i < n; i++) {
      db.query("SELECT count(*) FROM orders WHERE owner_agency_id = ?").get(creds.agency_id);
      db.query("SELECT * FROM orders WHERE owner_agency_id = ? ORDER BY created_at DESC, order_id ASC LIMIT ? OFFSET ?").all(creds.agency_id, PAGE, offset);
    }
    return (performance.now() - t) / n;
  };
  oldPage(0);
  const oldFirst = oldPage(0);
  const oldLast = oldPage(ORDERS - PAGE);
  console.log(`\nthe replaced OFFSET + COUNT statements in SQLite alone: first page ${oldFirst.toFixed(2)} ms, last page ${oldLast.toFixed(2)} ms (${(oldLast / oldFirst).toFixed(1)}x)`);

  const retrieveRatio = median(retrieveRatios);
  const listLastOverFirst = list ? median(listRatios) : null;
  console.log(`OrderRetrieveRQ: gateway/bare = ${(retrieveRatio * 100).toFixed(1)}% (${CONNS} connections); OrderListRQ last page / first page = ${listLastOverFirst?.toFixed(2) ?? "not measured"}x at ${ORDERS} orders (medians of ${ROUNDS} rounds x ${SECS} s)`);
  console.log(JSON.stringify({ bench: "order-read", retrieveRatio: Number(retrieveRatio.toFixed(4)), listLastOverFirst: listLastOverFirst === null ? null : Number(listLastOverFirst.toFixed(3)) }));
  db.close();
} finally {
  for (const stop of stops) stop();
  rmSync(dir, { recursive: true, force: true });
}
