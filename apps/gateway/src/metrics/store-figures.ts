import { sql } from "drizzle-orm";
import { isCurrencyCode, toDecimalString } from "@ndc/money";
import { integerSum, type Store } from "@ndc/store";

/**
 * The dashboard's figures that live in the store, the same for every gateway process on it:
 * orders and revenue per hour, the notification backlog and the scheduler jobs' last runs. Read
 * when a page or /metrics asks, never on the NDC path. No order id or passenger data leaves here.
 */

const HOUR_MS = 3_600_000;

/** Orders that count as revenue: paid (booked) and, later, closed. Held ones are not paid; cancelled ones were given back. */
const REVENUE_STATES = "'booked', 'closed'";

export interface HourFigures {
  /** The hour's start (UTC). */
  hour: string;
  /** Orders created in the hour, whatever their state now. */
  orders: number;
  /** Of those, the totals of the ones booked or closed now, per currency: exact minor units and the decimal text. */
  revenue: { currency: string; minor: number; amount: string }[];
}

/**
 * Orders created per UTC hour, the last `hours` hours (the current one included), oldest first;
 * an hour with none is there with zeros. Revenue is per currency (never converted), summed in
 * integer minor units by the database (exact). The orders_created index (migration 0058) bounds the scan.
 */
export async function ordersPerHour(store: Store, now: number, hours = 24): Promise<HourFigures[]> {
  const first = (Math.floor(now / HOUR_MS) - (hours - 1)) * HOUR_MS;
  // Portable to PostgreSQL (decision 0041): the hour's length is a literal, so created_at / it
  // is integer division on both engines (a bound parameter could be sent as a float); the sums
  // are cast to integers (PostgreSQL's SUM of bigint is numeric, handed back as text).
  const revenue = sql.raw(`state IN (${REVENUE_STATES})`);
  const rows = (await store.db.all(sql`
    SELECT created_at / ${sql.raw(String(HOUR_MS))} AS h, currency,
           COUNT(*) AS orders,
           COALESCE(${integerSum(sql`CASE WHEN ${revenue} THEN total_minor END`)}, 0) AS revenue,
           ${integerSum(sql`CASE WHEN ${revenue} THEN 1 ELSE 0 END`)} AS paid
    FROM orders WHERE created_at >= ${first} AND created_at <= ${now}
    GROUP BY h, currency ORDER BY h, currency`)) as { h: number; currency: string; orders: number; revenue: number; paid: number }[];
  const out: HourFigures[] = Array.from({ length: hours }, (_, i) => ({ hour: new Date(first + i * HOUR_MS).toISOString(), orders: 0, revenue: [] }));
  for (const r of rows) {
    const slot = out[Number(r.h) - first / HOUR_MS];
    if (!slot) continue;
    slot.orders += Number(r.orders);
    if (Number(r.paid) > 0) slot.revenue.push({ currency: r.currency, minor: Number(r.revenue), amount: decimal(Number(r.revenue), r.currency) });
  }
  return out;
}

const decimal = (minor: number, currency: string) => (isCurrencyCode(currency) ? toDecimalString({ amount: minor, currency }) : String(minor));

export interface Backlog {
  /** Deliveries not delivered yet and still being tried. */
  pending: number;
  /** Deliveries whose retries ran out (the failed-deliveries queue). */
  failed: number;
  /** When the oldest pending delivery was written; null when none. */
  oldestPendingAt: string | null;
  oldestPendingAgeSeconds: number | null;
}

/** The notification outbox's rows not delivered (notification_deliveries; its (status, next_attempt_at) index). */
export async function notificationBacklog(store: Store, now: number): Promise<Backlog> {
  const rows = (await store.db.all(sql`
    SELECT status, COUNT(*) AS n, MIN(created_at) AS oldest FROM notification_deliveries
    WHERE status IN ('pending', 'failed') GROUP BY status`)) as { status: string; n: number; oldest: number }[];
  const pending = rows.find((r) => r.status === "pending");
  const oldest = pending ? Number(pending.oldest) : null;
  return {
    pending: pending ? Number(pending.n) : 0,
    failed: Number(rows.find((r) => r.status === "failed")?.n ?? 0),
    oldestPendingAt: oldest === null ? null : new Date(oldest).toISOString(),
    oldestPendingAgeSeconds: oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 1000)),
  };
}

export interface JobRun {
  job: string;
  running: boolean;
  lastStartedAt: string | null;
  lastFinishedAt: string | null;
  /** done or failed */
  lastOutcome: string | null;
  nextRunAt: string | null;
}

/**
 * Each scheduler job's last and next run, as the scheduler records them (scheduler_jobs,
 * migration 0026; apps/scheduler), whichever process ran them. Read with SQL here: the
 * scheduler app depends on the gateway, not the other way round.
 */
export async function jobRuns(store: Store, now: number): Promise<JobRun[]> {
  const rows = (await store.db.all(sql`
    SELECT job, lease_until, last_started_at, last_finished_at, last_outcome, next_run_at FROM scheduler_jobs ORDER BY job`)) as {
    job: string;
    lease_until: number;
    last_started_at: number | null;
    last_finished_at: number | null;
    last_outcome: string | null;
    next_run_at: number | null;
  }[];
  const iso = (v: number | null) => (v === null ? null : new Date(Number(v)).toISOString());
  return rows.map((r) => ({ job: r.job, running: Number(r.lease_until) > now, lastStartedAt: iso(r.last_started_at), lastFinishedAt: iso(r.last_finished_at), lastOutcome: r.last_outcome, nextRunAt: iso(r.next_run_at) }));
}
