// Notifications dispatched per second to a local receiver, against the receiver's own request
// rate in the same run: a plain fetch loop POSTing the same body with the same headers at the
// same concurrency (the dispatcher's lanes: PER_SUBSCRIPTION attempts per subscription). The
// dispatch side is the real one: rows in the outbox, claimed in batches, signed, POSTed, and
// marked delivered one write each. Rounds alternate so both see the same machine noise.
// Options: BENCH_SUBSCRIPTIONS (8), BENCH_NOTIFICATIONS (250 per round; each fans out to every
// subscription), BENCH_ROUNDS (3).
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { enqueue, orderChangeNotifRQ, PER_SUBSCRIPTION, signWebhook } from "@ndc/notifications";
import { bootGateway } from "@ndc/gateway";
import { median } from "./support";

const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 8);
const N = Number(process.env.BENCH_NOTIFICATIONS ?? 250);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONC = SUBS * PER_SUBSCRIPTION;

let received = 0;
const receiver = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (req) => (await req.arrayBuffer(), received++, new Response(null, { status: 204 })) });
const url = `http://127.0.0.1:${receiver.port}`;

const dir = mkdtempSync(join(tmpdir(), "ndc-bench-notif-"));
const clock = new ManualClock(Date.now());
const gw = await bootGateway({ config: loadConfig({ GATEWAY_DATA_DIR: dir, GATEWAY_MODE: "local" }), logger: createLogger({ level: "warn" }), clock });
const who = { agencyId: gw.sandbox!.agency_id, clientId: gw.sandbox!.client_id, scopes: new Set<string>() };
for (let i = 0; i < SUBS; i++) await gw.notifications.subscriptions.create(who, { url, events: ["order.payment_expired"] });
const body = orderChangeNotifRQ({ carrier: "XB", sellerAgencyId: who.agencyId, orderId: "ORD-BENCH", orderVersion: 2, changedAt: clock.now(), changeTypeCode: "ORDER_CANCELLED", reasonCode: "PAYMENT_TIME_LIMIT_EXPIRED" });

async function dispatchRound(): Promise<number> {
  await gw.store.write(async (tx) => {
    for (let i = 0; i < N; i++) await enqueue(tx, { event: "order.payment_expired", agencyId: who.agencyId, orderId: `ORD-${i}`, body }, clock.now());
  });
  const before = received;
  const t0 = performance.now();
  while ((await gw.notifications.dispatcher.tick()).started > 0);
  const secs = (performance.now() - t0) / 1000;
  if (received - before !== N * SUBS) throw new Error(`expected ${N * SUBS} deliveries, the receiver got ${received - before}`);
  return (N * SUBS) / secs;
}

/** The receiver's own rate: the same POSTs (signed once, as the dispatcher signs each) from CONC loops. */
async function baselineRound(): Promise<number> {
  const total = N * SUBS;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONC }, async () => {
      while (next < total) {
        const id = `msg_${next++}`;
        const ts = Math.floor(Date.now() / 1000);
        const res = await fetch(`${url}/24.4/OrderChangeNotifRQ`, {
          method: "POST",
          headers: { "content-type": "application/xml", "iata-message-name": "IATA_OrderChangeNotifRQ", "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": signWebhook("whsec_YmVuY2g=", id, ts, body) },
          body,
        });
        await res.arrayBuffer();
      }
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}

const dispatched: number[] = [];
const baseline: number[] = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    baseline.push(await baselineRound());
    dispatched.push(await dispatchRound());
    console.log(`round ${r + 1}: dispatcher ${dispatched.at(-1)!.toFixed(0)} deliveries/s, receiver's own rate ${baseline.at(-1)!.toFixed(0)} req/s`);
  }
} finally {
  await gw.close();
  receiver.stop(true);
  rmSync(dir, { recursive: true, force: true });
}
const d = median(dispatched);
const b = median(baseline);
console.log(
  JSON.stringify({ bench: "notifications", deliveriesPerSecond: Math.round(d), baselinePerSecond: Math.round(b), ratio: Math.round((d / b) * 1000) / 1000, concurrency: CONC, deliveriesPerRound: N * SUBS, loadAverage: loadavg()[0]!.toFixed(2) }),
);
