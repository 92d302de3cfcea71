/**
 * `ndc-gateway migrate --to postgres://...` (issue 23 item 5, docs/operations.md "Moving from
 * SQLite to PostgreSQL"): an airline's SQLite data directory, filled by a real gateway worker over
 * HTTP with orders in every state it has (held, expired, paid with a seat, partly and fully
 * cancelled and refunded, renamed, flown and closed, flown awaiting its settlement-plan clearance,
 * retimed by the airline, identity documents erased by a supervisor (staff audit rows),
 * notifications delivered and queued), is moved by the real command into its own throwaway PostgreSQL; a worker on
 * PostgreSQL with the same data directory's keys then answers every order as the SQLite one did,
 * pays a held order and cancels a paid one; the staff audit chain verifies there and the ledger's
 * balances are the same. Refused: a live gateway on the source (named by pid and host), a target
 * holding rows (named by table). Skipped with one line where PostgreSQL is not installed.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { totpAt } from "@ndc/staff";
import { decimal, orderCreateRQ, orderIdOf, shopOffer, NoSeatToSell, TRAVEL_DATE, type PaxSpec } from "../orders-http/helpers";
import { all, blocks, normalise, orderRetrieveRQ, paymentRetryRQ } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, quote, quoteItems } from "../servicing/cancel-helpers";
import { updatePaxRQ } from "../servicing/rename-helpers";
import { run, sourceCli } from "../binary/processes";
import { baseEnv, multiDataDir, type Worker } from "../multi/support";
import { pgBin, startCluster, stopCluster, type Cluster } from "./pg-support";

let cluster: Cluster | undefined;
const data = multiDataDir();
afterAll(async () => {
  await data.close();
  stopCluster(cluster);
});

/** The source is the data directory's SQLite file whatever engine the suite runs on (NDC_TEST_ENGINE). */
const SOURCE = { GATEWAY_DATABASE_URL: `file:${join(data.dir, "gateway.db")}` };
const cli = (args: string[], env: Record<string, string> = SOURCE, timeoutMs = 120_000) => run(sourceCli, args, { ...baseEnv(data.dir), ...env }, timeoutMs);

const card = (minor: number) => [{ kind: "card" as const, token: "tok_approve_visa", amountMinor: minor }];
const payStatuses = (xml: string) => blocks(xml, "PaymentFunctions").flatMap((pf) => all(pf, "PaymentStatusCode"));
const statusOf = (xml: string) => all(xml, "StatusCode")[0];

/**
 * An order answer with what belongs to the answer itself blanked: the ids the caller chose and
 * the answer's own timestamp (PayloadAttributes). Everything about the order must be equal.
 */
const comparable = (xml: string) => normalise(xml).replace(/<(\w+:)?Timestamp>[^<]*</g, "<$1Timestamp>*<");

/** Books a FLEX (cancellable, renamable) offer, paid or held; SAVER offers shopped on the way are booked too and returned. */
async function bookFlex(w: Worker, tag: string, o: { seat?: boolean; paid?: boolean; settlement?: boolean; pax?: PaxSpec[] }): Promise<{ orderId: string; body: string; totalMinor: number; others: string[] }> {
  const others: string[] = [];
  for (let n = 0; n < 16; n++) {
    const shopped = await shopOffer(w, { date: TRAVEL_DATE, n, seat: o.seat ?? false }).catch((e: unknown) => {
      if (e instanceof NoSeatToSell) return undefined;
      throw e;
    });
    if (!shopped) continue;
    // A settlement-plan (BSP cash) order is paid through the sandbox agency's account: its clearance comes at flying.
    const settle = o.settlement ? { legs: [{ kind: "settlement" as const, method: "CA" as const, amountMinor: shopped.totalMinor }], seller: (await credentials()).iata_number } : {};
    const r = await w.ndc("OrderCreateRQ", orderCreateRQ({ shopped, ...(o.pax ? { pax: o.pax } : {}), ...(o.paid ? { legs: card(shopped.totalMinor) } : {}), ...settle, correlationId: `MOVE-${tag}-${n}`, trxId: `T-${tag}-${n}` }));
    expect(r.status, r.body.slice(0, 600)).toBe(200);
    if (r.body.includes(">FLEX<")) return { orderId: orderIdOf(r.body), body: r.body, totalMinor: shopped.totalMinor, others };
    others.push(orderIdOf(r.body));
  }
  throw new Error(`${tag}: no FLEX offer shopped`);
}

const credentials = async () => (await Bun.file(join(data.dir, "sandbox-credentials.json")).json()) as { api_key: string; iata_number: string };

async function sandboxPost(w: Worker, path: string, body?: unknown): Promise<Response> {
  const { api_key } = await credentials();
  return fetch(`${w.url}${path}`, { method: "POST", headers: { "x-api-key": api_key, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
}

const retrieveAll = async (w: Worker, ids: string[]) => {
  const out = new Map<string, string>();
  for (const id of ids) {
    const r = await w.ndc("OrderRetrieveRQ", orderRetrieveRQ(id));
    expect(r.status, `${id}: ${r.body.slice(0, 400)}`).toBe(200);
    out.set(id, r.body);
  }
  return out;
};

/** Each currency's and entry type's sum on the payment ledger: its balances. */
const LEDGER = "SELECT type, currency, sum(amount) AS total, count(*) AS entries FROM payment_ledger_entries GROUP BY type, currency ORDER BY type, currency";

describe.skipIf(!pgBin)("migrate --to postgres://", () => {
  test(
    "every order of every state reads back the same from PostgreSQL, which goes on serving; refused under a live gateway and into a target holding rows",
    async () => {
      cluster = startCluster({ fast: true });
      const admin = new Bun.SQL({ url: cluster.url, max: 1 });
      await admin.unsafe("CREATE DATABASE moved");
      await admin.close();
      const target = cluster.url.replace(/\/[^/]+$/, "/moved");

      // The airline's gateway on SQLite, filled over HTTP; a seller's webhook receiving its notifications.
      const a = await data.startWorker(SOURCE);
      const receiver = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
      const subscribed = await sandboxPost(a, "/notifications/subscriptions", { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["order.closed", "service.delivered", "order.payment_expired", "order.changed"] });
      expect(subscribed.status, await subscribed.clone().text()).toBe(201);
      const expiring = await bookFlex(a, "EXPIRE", {});
      const withSeat = await bookFlex(a, "SEAT", { seat: true, paid: true });
      const cancelled = await bookFlex(a, "CANCEL", { paid: true });
      const partly = await bookFlex(a, "PART", { seat: true, paid: true });
      const renamed = await bookFlex(a, "RENAME", { paid: true });
      const flown = await bookFlex(a, "FLY", { paid: true });
      const erased = await bookFlex(a, "ERASE", { paid: true, pax: [{ id: "PAX1", surname: "ERASED", doc: { number: "MV7730416" } }] });
      const toCancelOnPg = await bookFlex(a, "LATER", { paid: true });
      const cleared = await bookFlex(a, "CLEAR", { settlement: true });

      const q = await quote(a, cancelled.orderId);
      const c = await a.ndc("OrderChangeRQ", acceptCancelRQ(cancelled.orderId, q.quoteId, { correlationId: "MOVE-C", trxId: "C1" }));
      expect(statusOf(c.body)).toBe("CANCELLED");
      expect(payStatuses(c.body)).toContain("REFUNDED");

      // Partly cancelled: the seat item (the order's last item) cancelled, the flight kept.
      const seatItem = all(partly.body, "OrderItemID").at(-1)!;
      const qi = await quoteItems(a, partly.orderId, [seatItem]);
      const pc = await a.ndc("OrderChangeRQ", acceptCancelRQ(partly.orderId, qi.quoteId, { correlationId: "MOVE-PC", trxId: "PC1" }));
      expect(pc.status, pc.body.slice(0, 600)).toBe(200);
      expect(all(pc.body, "OrderItemID")).not.toContain(seatItem);

      const rn = await a.ndc("OrderChangeRQ", updatePaxRQ(renamed.orderId, { given: "Alex", surname: "TRAVELER", correlationId: "MOVE-RN", trxId: "RN1" }));
      expect(rn.status, rn.body.slice(0, 600)).toBe(200);

      const fly = await sandboxPost(a, `/sandbox/orders/${flown.orderId}/fly`);
      expect(fly.status).toBe(200);
      expect(((await fly.json()) as { state: string }).state).toBe("closed");
      // Flown under a settlement plan: its clearance requested (payment_clearances), the order waiting for it.
      expect((await sandboxPost(a, `/sandbox/orders/${cleared.orderId}/fly`)).status).toBe(200);
      // What flying wrote so far is delivered to the receiver; what comes later stays queued.
      const dispatched = await sandboxPost(a, "/sandbox/scheduler/run", { job: "notifications.dispatch" });
      expect(dispatched.status).toBe(200);

      // A supervisor erases one order's identity documents (staff audit rows, an erasure row).
      const added = await cli(["staff", "add", "sue", "--role", "supervisor", "--json"]);
      expect(added.code, added.stderr).toBe(0);
      const { totpSecret } = JSON.parse(added.stdout.trim().split("\n").at(-1)!) as { totpSecret: string };
      const erase = await cli(["documents", "erase", erased.orderId, "--supervisor", "sue", "--totp", totpAt(totpSecret, Date.now()), "--reason", "Passenger asked for erasure at the desk"]);
      expect(erase.code, erase.stderr).toBe(0);

      // Three days on: the first held order expired; one held after that stays held.
      const clock = await sandboxPost(a, "/sandbox/clock", { advanceSeconds: 3 * 86_400 });
      expect(clock.status).toBe(200);
      const held = await bookFlex(a, "HELD", {});
      // The airline retimes a paid order's flights: order.changed written with it, left queued (no dispatch after this).
      const retimed = await sandboxPost(a, `/sandbox/orders/${withSeat.orderId}/schedule-change`, { minutes: 30 });
      expect(retimed.status, await retimed.clone().text()).toBe(200);
      const ids = [expiring, withSeat, cancelled, partly, renamed, flown, erased, toCancelOnPg, cleared, held].flatMap((o) => [o.orderId, ...o.others]);
      const before = await retrieveAll(a, ids);
      expect(statusOf(before.get(expiring.orderId)!)).not.toBe(statusOf(before.get(held.orderId)!));
      expect(all(before.get(flown.orderId)!, "StatusCode")).toContain("CLOSED");

      // Refused while the worker runs on the source: named by pid and host; nothing copied.
      const live = await cli(["migrate", "--to", target]);
      expect(live.code).toBe(1);
      expect(live.stderr).toContain(`migrate --to refused: a gateway process is running on the source: pid ${a.run.proc.pid} on `);
      await a.stop();
      await receiver.stop(true);

      const source = new Database(join(data.dir, "gateway.db"), { readonly: true });
      const ledgerBefore = source.query(LEDGER).all();
      const counts = Object.fromEntries(["orders", "payment_ledger_entries", "payment_clearances", "identity_document_erasures", "staff_audit", "actor_journal", "notification_subscriptions"].map((t) => [t, (source.query(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]));
      const deliveries = (source.query("SELECT DISTINCT status FROM notification_deliveries ORDER BY status").all() as { status: string }[]).map((r) => r.status);
      source.close();
      expect(Object.values(counts).every((n) => n > 0), JSON.stringify(counts)).toBe(true);
      expect(deliveries).toEqual(["delivered", "pending"]);

      const started = performance.now();
      const moved = await cli(["migrate", "--to", target]);
      console.log(`migrate --to: ${Math.round(performance.now() - started)} ms (the process, Bun's start included): ${moved.stdout.split("\n").find((l) => l.startsWith("copied "))}`);
      expect(moved.code, moved.stderr + moved.stdout).toBe(0);
      for (const [table, n] of Object.entries(counts)) expect(moved.stdout).toMatch(new RegExp(`^ok +${table}: ${n} row\\(s\\) sha256 [0-9a-f]{16}$`, "m"));
      expect(moved.stdout).not.toContain("MISMATCH");
      expect(moved.stdout).toMatch(/copied \d+ row\(s\) in \d+ tables to .*; committed/);

      // Again into the same (now full) target: refused, naming a table.
      const twice = await cli(["migrate", "--to", target]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/migrate --to refused: the target already holds rows in \w+ \(\d+ row\(s\)\)/);

      const pg = new Bun.SQL({ url: target, max: 1 });
      const ledgerAfter = (await pg.unsafe(LEDGER)) as Array<Record<string, unknown>>;
      await pg.close();
      expect(ledgerAfter.map((r) => ({ type: r.type, currency: r.currency, total: Number(r.total), entries: Number(r.entries) }))).toEqual(ledgerBefore as never);

      // The gateway on PostgreSQL, the same data directory (its field key, signing key, audit anchor).
      const b = await data.startWorker({ GATEWAY_DATABASE_URL: target });
      const after = await retrieveAll(b, ids);
      for (const id of ids) expect(comparable(after.get(id)!), id).toBe(comparable(before.get(id)!));

      const paid = await b.ndc("OrderChangeRQ", paymentRetryRQ(held.orderId, decimal(held.totalMinor), "tok_approve_visa", { correlationId: "MOVE-PAY", trxId: "P1" }));
      expect(paid.status, paid.body.slice(0, 600)).toBe(200);
      expect(payStatuses(paid.body)).toContain("CAPTURED");
      const q2 = await quote(b, toCancelOnPg.orderId);
      const c2 = await b.ndc("OrderChangeRQ", acceptCancelRQ(toCancelOnPg.orderId, q2.quoteId, { correlationId: "MOVE-C2", trxId: "C2" }));
      expect(statusOf(c2.body)).toBe("CANCELLED");
      expect(payStatuses(c2.body)).toContain("REFUNDED");
      await b.stop();

      const verified = await cli(["staff", "audit", "verify"], { GATEWAY_DATABASE_URL: target });
      expect(verified.code, verified.stderr + verified.stdout).toBe(0);
    },
    600_000,
  );
});
