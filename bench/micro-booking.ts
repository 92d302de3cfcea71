/**
 * A diagnostic, not a benchmark: µs per call of single steps of a paid booking, on one order
 * booked through the real path (bench/booking-pool.ts), best of MICRO_ROUNDS (5) rounds of
 * MICRO_N (2000) calls. Used to measure each CPU saving of issue 22 (bench/README.md,
 * "Where a booking's CPU goes"), where a whole-booking bench cannot see 1 %.
 *
 *   node_modules/.bin/bun bench/micro-booking.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { ManualClock } from "@ndc/clock";
import { bootGateway } from "@ndc/gateway";
import { parseXml, decodeEnvelope } from "@ndc/xml";
import { decodeOrderCreateRQ, storedOutcome } from "@ndc/messages";
import { canonicalJson } from "@ndc/orders";
import { T0 } from "../test/support/dates";
import { bookingPool, inProcessNdc } from "./booking-pool";

const N = Number(process.env.MICRO_N ?? 2000);
const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 5);
const dir = mkdtempSync(join(tmpdir(), "ndc-micro-booking-"));
const config = loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local", LOG_LEVEL: "warn", RATE_LIMIT_SHOP_PER_MINUTE: "100000000", RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000" });
const gw = await bootGateway({ config, clock: new ManualClock(T0), logger: createLogger({ level: "warn", sink: () => {} }) });
const ndc = inProcessNdc(gw.app, gw.sandbox!.api_key);
const [body] = await bookingPool(ndc)(1);
const answer = await ndc("OrderCreateRQ", body!);
if (answer.status !== 200) throw new Error(answer.body.slice(0, 400));
const rq = decodeOrderCreateRQ(decodeEnvelope(parseXml(body!, config.xml)));

function time(name: string, f: () => unknown): void {
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) f();
    best = Math.min(best, ((performance.now() - t0) * 1000) / N);
  }
  console.log(`${name.padEnd(40)} ${best.toFixed(1).padStart(8)} µs`);
}

time(`storedOutcome (answer ${answer.body.length} chars)`, () => storedOutcome(answer.body));
time("canonicalJson (the decoded OrderCreateRQ)", () => canonicalJson(rq));
await gw.close();
rmSync(dir, { recursive: true, force: true });
