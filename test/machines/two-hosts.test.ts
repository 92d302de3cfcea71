/**
 * Several machines (issue 23 item 4): two gateway workers standing for two hosts, each on a data
 * directory of its own, sharing nothing but one PostgreSQL database and the files an operator
 * copies to every machine (MACHINE_FILES: the field key, the airline's signing key and
 * certificate, local mode's sandbox credentials), plus the scheduler app on a third directory.
 * Issue 22's checks over processes on one data directory (test/multi), here over machines: no
 * file, no `PRAGMA data_version`, no pid on a shared host can carry what the database must.
 * The tests run in order: the suspension and the spent failure budget come last.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { storeSellerClocks } from "@ndc/auth";
import { verifyWebhook } from "@ndc/notifications";
import { openStore, tables, type Store } from "@ndc/store";
import { run, sourceCli } from "../binary/processes";
import { footprint } from "../crash/support";
import { decimal, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer, TRAVEL_DATE, type Shopped } from "../orders-http/helpers";
import { itemList, multiOrderCreateRQ, quotedList, seatItem, shopOneWay, total } from "../orders-http/multi-offer-helpers";
import { paymentRetryRQ } from "../orders-http/order-list-helpers";
import { startReceiver } from "../notifications/helpers";
import { acceptCancelRQ, quote } from "../servicing/cancel-helpers";
import { updatePaxRQ } from "../servicing/rename-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { databaseUrlFor, MACHINES_NEED_POSTGRES, ON_POSTGRES } from "../support/database";
import { errorCode, type NdcReply } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { anotherMachine, multiDataDir, type MultiDataDir, type Worker } from "../multi/support";

if (!ON_POSTGRES) console.log(`test/machines/two-hosts.test.ts skipped: ${MACHINES_NEED_POSTGRES}`);

const FAILURES_PER_MINUTE = 6;
const DAY = 86_400_000;

let hostA: MultiDataDir;
let hostB: MultiDataDir;
let schedulerHost: MultiDataDir;
let a: Worker;
let b: Worker;
const receiver = startReceiver();

beforeAll(async () => {
  if (!ON_POSTGRES) return;
  hostA = multiDataDir();
  hostB = anotherMachine(hostA, "host-b");
  schedulerHost = anotherMachine(hostA, "host-c");
  const env = { RATE_LIMIT_TOKEN_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE) };
  a = await hostA.startWorker(env);
  // The airline's signing key is made on first use: the discovery document uses it. Then the
  // operator copies the keys to the other machines (anotherMachine does, before each start).
  expect((await fetch(`${a.url}/24.4`)).status).toBe(200);
  b = await hostB.startWorker(env);
}, 60_000);

afterAll(async () => {
  receiver.stop();
  if (!ON_POSTGRES) return;
  await schedulerHost.close();
  await hostB.close();
  await hostA.close();
});

const credentials = (host: MultiDataDir) =>
  JSON.parse(readFileSync(join(host.dir, "sandbox-credentials.json"), "utf8")) as { client_id: string; client_secret: string; api_key: string };

/** The one database both hosts use, opened by the test as a third client. */
async function withStore<T>(read: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(databaseUrlFor(hostA.dir));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

const payStatuses = (xml: string) => blocks(xml, "PaymentFunctions").flatMap((pf) => all(pf, "PaymentStatusCode"));

describe.skipIf(!ON_POSTGRES)("two hosts and a scheduler app on one PostgreSQL, nothing else shared but the keys", () => {
  test("the hosts have data directories of their own; the second reuses the first's sandbox credentials and signs under the same airline key", async () => {
    expect(hostB.dir).not.toBe(hostA.dir);
    expect(hostB.env().GATEWAY_DATABASE_URL).toBe(databaseUrlFor(hostA.dir));
    // Copied, so the second host verified them instead of rotating the first's away.
    expect(b.run.stdout()).toContain("client_secret and api_key are unchanged");
    const airline = async (w: Worker) => ((await (await fetch(`${w.url}/24.4`)).json()) as { signatures: { airline: { fingerprint: string } | null } }).signatures.airline?.fingerprint;
    const onA = await airline(a);
    expect(onA).toMatch(/\S/);
    expect(await airline(b)).toBe(onA);
  }, 30_000);

  test("booked on A; paid, its passenger's name corrected and cancelled on B; every answer current on both", async () => {
    const retrieve = async (w: Worker, orderId: string) => {
      const r = await w.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
      expect(r.status).toBe(200);
      expect(orderIdOf(r.body)).toBe(orderId);
      return r.body;
    };
    // A FLEX fare: the sandbox's SAVER neither takes a name correction nor cancels with a refund.
    let shopped: Shopped | undefined;
    let created: NdcReply | undefined;
    for (let n = 0; n < 16 && !created?.body.includes(">FLEX<"); n++) {
      shopped = await shopOffer(a, { date: TRAVEL_DATE, n });
      created = await a.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: `HOSTS-LIFE-${n}`, trxId: "T1" }));
      expect(created.status).toBe(200);
    }
    if (!shopped || !created?.body.includes(">FLEX<")) throw new Error("no FLEX offer shopped");
    const orderId = orderIdOf(created.body);
    expect(payStatuses(created.body)).toEqual([]);
    expect(all(await retrieve(b, orderId), "PaymentTimeLimitDateTime").length).toBeGreaterThan(0);

    // Paid on B: A, whose order actor is resident since the booking, shows the capture.
    const paid = await b.ndc("OrderChangeRQ", paymentRetryRQ(orderId, decimal(shopped.totalMinor), "tok_approve_visa", { correlationId: "HOSTS-PAY", trxId: "P1" }));
    expect(paid.status).toBe(200);
    expect(payStatuses(paid.body)).toContain("CAPTURED");
    expect(payStatuses(await retrieve(a, orderId))).toContain("CAPTURED");

    // Corrected on B (a one-letter correction of the surname).
    const renamed = await b.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alex", surname: "TRAVELER", correlationId: "HOSTS-RENAME", trxId: "R1" }));
    expect(renamed.status, renamed.body.slice(0, 800)).toBe(200);
    expect(renamed.body).toContain("<cns:Surname>TRAVELER</cns:Surname>");
    for (const w of [a, b]) expect(await retrieve(w, orderId)).toContain("<cns:Surname>TRAVELER</cns:Surname>");

    // Cancelled on B: both answer CANCELLED with the refund, the corrected name kept.
    const q = await quote(b, orderId);
    const cancelled = await b.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId, { correlationId: "HOSTS-CANCEL", trxId: "C1" }));
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
    for (const w of [a, b]) {
      const shown = await retrieve(w, orderId);
      expect(shown).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");
      expect(shown).toContain("<cns:Surname>TRAVELER</cns:Surname>");
      expect(payStatuses(shown)).toContain("REFUNDED");
    }
  }, 120_000);

  test("100 concurrent OrderCreateRQs with the same ids over both hosts: one order, one capture", async () => {
    const SENDS = 100;
    const shopped = await shopOffer(a, { date: TRAVEL_DATE });
    const body = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "HOSTS-SAME", trxId: "HOSTS-SAME-TRX" });
    const refusals = new Map<string, number>();
    const send = async (w: Worker): Promise<string> => {
      for (let tries = 0; tries < 200; tries++) {
        const r = await w.ndcUnchecked("OrderCreateRQ", body);
        if (r.status === 200) return orderIdOf(r.body);
        const code = errorCode(r.body) ?? `HTTP ${r.status}`;
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
        // Only "still in progress, retry": anything else breaks the rule.
        expect({ status: r.status, code }).toEqual({ status: 409, code: "request_in_progress" });
        expect(r.headers.get("retry-after")).toBe("1");
        await Bun.sleep(50);
      }
      throw new Error("never answered with the order");
    };
    const ids = await Promise.all(Array.from({ length: SENDS }, (_, i) => send(i % 2 ? b : a)));
    console.log(`same ids: ${SENDS} answers, one order, after ${JSON.stringify(Object.fromEntries(refusals))} refusals`);
    expect(new Set(ids).size).toBe(1);
    const orderId = ids[0]!;
    for (const w of [a, b]) expect(orderIdOf((await w.ndc("OrderCreateRQ", body)).body)).toBe(orderId);

    const f = await footprint(hostA.dir, [orderId]);
    expect([...f.orders.entries()]).toEqual([[orderId, "booked"]]);
    expect(f.legs.map((l) => [l.orderId, l.state])).toEqual([[orderId, "captured"]]);
    expect(f.openSagas).toEqual([]);
    expect(f.idempotency.filter((r) => r.correlationId === "HOSTS-SAME").map((r) => r.state)).toEqual(["done"]);
    // One charge at the (simulated) PSP for this order's leg.
    const captured = await withStore((s) => s.db.select({ ref: tables.pspSimPayments.pspReference, state: tables.pspSimPayments.state }).from(tables.pspSimPayments));
    const legRefs = await withStore((s) => s.db.select({ ref: tables.paymentLegs.pspReference, orderId: tables.paymentLegs.orderId }).from(tables.paymentLegs));
    const refs = new Set(legRefs.filter((l) => l.orderId === orderId).map((l) => l.ref));
    expect(captured.filter((p) => refs.has(p.ref)).map((p) => p.state)).toEqual(["captured"]);
  }, 180_000);

  test("200 concurrent sales of one seat over both hosts: one sale, every loser seat_unavailable", async () => {
    const ATTEMPTS = 200;
    const flight = await shopOneWay(a, "LHR", "CDG", TRAVEL_DATE);
    const seat = await seatItem(a, flight.offerId, 0);
    let busy = 0;
    const attempt = async (i: number): Promise<{ won: string | null; code?: string }> => {
      const picks = [flight, seat];
      const rq = multiOrderCreateRQ({
        create: i % 4 === 0 ? itemList(picks) : quotedList(picks),
        pax: [{ id: "PAX1", surname: `RACER${i}` }],
        legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: total(picks) }],
        correlationId: `HOSTS-RACE-${i}`,
        trxId: `HOSTS-RACE-TRX-${i}`,
      });
      for (;;) {
        const r = await (i % 2 === 0 ? a : b).ndcUnchecked("OrderCreateRQ", rq);
        if (r.status === 200) return { won: orderIdOf(r.body) };
        const code = errorCode(r.body);
        // The hot key's "retry": its decision kept losing its seq (decision 0040), never a wrong answer.
        if (code !== "actor_busy" && code !== "request_in_progress") return { won: null, code };
        busy++;
        await Bun.sleep(20);
      }
    };
    const outcomes = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => attempt(i)));
    const winners = outcomes.filter((o) => o.won).map((o) => o.won!);
    console.log(`seat race: won by ${winners.join(", ")}; actor_busy/request_in_progress retried ${busy} times`);
    expect(winners).toHaveLength(1);
    expect(outcomes.filter((o) => !o.won).map((o) => o.code).filter((c) => c !== "seat_unavailable")).toEqual([]);

    const live = await withStore(async (s) =>
      s.db.all<{ status: string; holder: string }>(sql`SELECT status, holder FROM seat_inventory WHERE flight_key = ${seat.flightKey} AND seat_id = ${seat.seatId} AND status IN ('held', 'sold')`),
    );
    expect(live).toEqual([{ status: "sold", holder: winners[0]! }]);
    // No loser left an order, a hold or a payment leg.
    const f = await footprint(hostA.dir);
    const racers = f.idempotency.filter((r) => r.correlationId.startsWith("HOSTS-RACE-"));
    expect(racers).toHaveLength(ATTEMPTS);
    expect(f.legs.filter((l) => l.orderId === winners[0]).map((l) => l.state)).toEqual(["captured"]);
    expect(f.liveSeats.filter((s) => s.status === "held")).toEqual([]);
    expect(f.openSagas).toEqual([]);
  }, 180_000);

  test("the scheduler app alone, on a third machine, expires a held order booked on A; its notification is delivered once", async () => {
    const sub = await fetch(`${b.url}/notifications/subscriptions`, {
      method: "POST",
      headers: { "x-api-key": credentials(hostB).api_key, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url, events: ["order.payment_expired"] }),
    });
    expect(sub.status).toBe(201);
    const { secret } = (await sub.json()) as { secret: string };
    const shopped = await shopOffer(a, { date: TRAVEL_DATE });
    const held = await a.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "HOSTS-HELD", trxId: "H1" }));
    expect(held.status).toBe(200);
    const orderId = orderIdOf(held.body);
    // The seller's sandbox clock two days on (24 hours to pay), as POST /sandbox/clock moves it
    // but without its sweeps: the expiry is left to the scheduler app. No worker runs jobs.
    await withStore((s) => storeSellerClocks(s).set(credentials(hostA).client_id, 2 * DAY, Date.now()));

    const app = await schedulerHost.startSchedulerApp({ ORDERS_BACKGROUND_MS: "1000" });
    const pushes = () => receiver.requests.filter((r) => r.path === "/24.4/OrderChangeNotifRQ" && r.body.includes(`<OrderRefID>${orderId}</OrderRefID>`));
    const deadline = Date.now() + 30_000;
    while (pushes().length === 0 && Date.now() < deadline) await Bun.sleep(50);
    // A few more ticks of expiry and dispatch: nothing is expired or sent again.
    await Bun.sleep(3_000);
    await app.stop();
    expect(pushes()).toHaveLength(1);
    const push = pushes()[0]!;
    assertSchemaValid(push.body);
    expect(verifyWebhook(secret, { id: push.headers.get("webhook-id")!, timestamp: push.headers.get("webhook-timestamp")!, signature: push.headers.get("webhook-signature")! }, push.body)).toBe(true);
    for (const w of [a, b]) expect((await w.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId))).body).toContain("<cns:StatusCode>CANCELLED</cns:StatusCode>");

    await withStore(async (s) => {
      const events = await s.db.all<{ payload: string }>(sql`SELECT payload FROM actor_journal WHERE kind = 'orders.order' AND key = ${orderId} ORDER BY seq`);
      expect(events.map((e) => JSON.parse(e.payload).type).filter((t) => t === "payment_expired")).toHaveLength(1);
      // Expiry and dispatch ran in the scheduler app (a lease holder is host:pid:id).
      for (const job of ["orders.expire-unpaid", "notifications.dispatch"]) {
        const [row] = await s.db.all<{ holder: string; last_outcome: string }>(sql`SELECT holder, last_outcome FROM scheduler_jobs WHERE job = ${job}`);
        expect([job, row!.holder.split(":")[1], row!.last_outcome]).toEqual([job, String(app.proc.pid), "done"]);
      }
    });
  }, 90_000);

  // The auth checks last: the suspension refuses the sandbox client, the spray spends the budget.

  async function tokenRequest(w: Worker, clientId: string, secret: string): Promise<Response> {
    return fetch(`${w.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${btoa(`${clientId}:${secret}`)}` },
      body: "grant_type=client_credentials",
    });
  }
  async function token(w: Worker): Promise<string> {
    const { client_id, client_secret } = credentials(hostA);
    const res = await tokenRequest(w, client_id, client_secret);
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }
  /** An order nobody booked: once authenticated, 404 order_not_found. */
  async function retrieveWith(w: Worker, accessToken: string, check = true): Promise<{ status: number; wwwAuthenticate: string | null }> {
    const res = await fetch(`${w.url}/24.4/OrderRetrieveRQ`, {
      method: "POST",
      headers: { "content-type": "application/xml", "iata-message-name": "IATA_OrderRetrieveRQ", authorization: `Bearer ${accessToken}` },
      body: orderRetrieveRQ("XB-NO-SUCH-ORDER"),
    });
    const body = await res.text();
    if (check && res.headers.get("content-type")?.startsWith("application/xml")) assertSchemaValid(body);
    return { status: res.status, wwwAuthenticate: res.headers.get("www-authenticate") };
  }

  test("a token issued by one host is accepted by the other, both ways", async () => {
    for (const [issuer, caller] of [
      [a, b],
      [b, a],
    ] as const) {
      const r = await retrieveWith(caller, await token(issuer));
      expect(r).toEqual({ status: 404, wwwAuthenticate: null });
    }
  }, 30_000);

  test("a client suspended with the CLI on host A's directory is refused by both hosts within one second", async () => {
    const onA = await token(a);
    const onB = await token(b);
    expect((await retrieveWith(a, onB)).status).toBe(404);
    expect((await retrieveWith(b, onA)).status).toBe(404);

    const cli = await run(sourceCli, ["client", "suspend", credentials(hostA).client_id], hostA.env());
    expect(cli.code, cli.stderr).toBe(0);
    const committed = performance.now();
    const refusedAfter = async (w: Worker, t: string): Promise<number> => {
      for (;;) {
        const r = await retrieveWith(w, t, false);
        if (r.status === 401) {
          const seenAfter = performance.now() - committed;
          expect((await retrieveWith(w, t)).wwwAuthenticate).toContain("The client is suspended.");
          return seenAfter;
        }
        if (performance.now() - committed > 5_000) throw new Error("still accepted 5 s after the suspension");
      }
    };
    const [msA, msB] = await Promise.all([refusedAfter(a, onA), refusedAfter(b, onB)]);
    console.log(`suspension seen ${msA.toFixed(1)} ms (host A) and ${msB.toFixed(1)} ms (host B) after the CLI's commit`);
    expect(msA).toBeLessThan(1_000);
    expect(msB).toBeLessThan(1_000);
    for (const w of [a, b]) expect((await tokenRequest(w, credentials(hostA).client_id, credentials(hostA).client_secret)).status).toBe(401);
  }, 30_000);

  test("failed client authentications split over both hosts spend one budget per source", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FAILURES_PER_MINUTE * 2; i++) {
      const res = await tokenRequest(i % 2 === 0 ? a : b, `spray-${i}`, "wrong-secret");
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
        expect(((await res.json()) as { error: string }).error).toBe("rate_limited");
      } else await res.body?.cancel();
    }
    // The suspended client's two refused token requests above (one on each host) spent two units.
    // A budget per machine would have let 6 through on each: 12 verifies, no 429.
    const left = FAILURES_PER_MINUTE - 2;
    expect(statuses.filter((s) => s === 401)).toHaveLength(left);
    expect(statuses.slice(left)).toEqual(Array(FAILURES_PER_MINUTE * 2 - left).fill(429));
  }, 60_000);
});
