import { BUCKETS_MS } from "./histogram";
import { rateClassOf, type FigureSources } from "./figures";
import { jobRuns, notificationBacklog, ordersPerHour } from "./store-figures";

/**
 * GET /metrics: the dashboard's figures in the Prometheus text exposition format (version 0.0.4;
 * docs/operations.md lists every family). Counters are this process's since it started
 * (ndc_process_start_time_seconds says when); the store's figures are gauges, the same from every
 * process. Labels name messages, error codes, seller clients and agencies, jobs and currencies:
 * never an order, a passenger or a document.
 */
export async function exposition(src: FigureSources): Promise<string> {
  const now = src.clock.now();
  const [hours, backlog, jobs] = await Promise.all([ordersPerHour(src.store, now), notificationBacklog(src.store, now), jobRuns(src.store, now)]);
  const messages = src.meter.messageFigures(now);
  const clients = src.meter.clientFigures(rateClassOf, now);
  const out: string[] = [];
  const family = (name: string, type: "counter" | "gauge" | "histogram" | "summary", help: string, samples: [string, Labels, number][]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [suffix, labels, value] of samples) out.push(`${name}${suffix}${labelText(labels)} ${num(value)}`);
  };

  family("ndc_process_start_time_seconds", "gauge", "When this gateway process started counting, in seconds since the Unix epoch; its counters start from zero then.", [["", {}, src.meter.startedAt / 1000]]);
  family("ndc_requests_total", "counter", "NDC requests this process answered, per message.", messages.map((m) => ["", { message: m.message }, m.sinceStart.requests]));
  family(
    "ndc_request_errors_total",
    "counter",
    "NDC requests this process answered with an Error, per message and error code (docs/errors.md).",
    messages.flatMap((m) => Object.entries(m.sinceStart.errorsByCode).map(([code, n]): [string, Labels, number] => ["", { message: m.message, code }, n])),
  );
  family(
    "ndc_request_duration_seconds",
    "histogram",
    "Time from an NDC request's arrival to its answer, per message, in fixed buckets.",
    messages.flatMap((m) => {
      let cumulative = 0;
      const buckets = m.sinceStart.histogram.map((n, i): [string, Labels, number] => {
        cumulative += n;
        return ["_bucket", { message: m.message, le: i < BUCKETS_MS.length ? String(BUCKETS_MS[i]! / 1000) : "+Inf" }, cumulative];
      });
      return [...buckets, ["_sum", { message: m.message }, m.sinceStart.sumSeconds], ["_count", { message: m.message }, m.sinceStart.requests]];
    }),
  );
  family(
    "ndc_request_duration_last_hour_seconds",
    "summary",
    "The last hour's NDC request time per message: p50 and p99 estimated from the histogram's buckets, with the hour's sum and count.",
    messages.flatMap((m): [string, Labels, number][] =>
      m.lastHour.requests === 0
        ? []
        : [
            ["", { message: m.message, quantile: "0.5" }, m.lastHour.p50Ms! / 1000],
            ["", { message: m.message, quantile: "0.99" }, m.lastHour.p99Ms! / 1000],
            ["_sum", { message: m.message }, m.lastHour.sumSeconds],
            ["_count", { message: m.message }, m.lastHour.requests],
          ],
    ),
  );
  const perClientMessage = (pick: (m: (typeof clients)[number]["messages"][number]) => number) =>
    clients.flatMap((c) => c.messages.map((m): [string, Labels, number] => ["", { client: c.clientId, agency: c.agencyId, message: m.message }, pick(m)]));
  family("ndc_client_requests_total", "counter", "NDC requests per seller client and message.", perClientMessage((m) => m.sinceStart.requests));
  family("ndc_client_rate_limited_total", "counter", "NDC requests the rate limiter refused (429 rate_limited), per seller client and message.", perClientMessage((m) => m.sinceStart.rateLimited));
  family("ndc_client_errors_total", "counter", "NDC requests answered with an Error, per seller client and message.", perClientMessage((m) => m.sinceStart.errors));
  family("ndc_client_looks_total", "counter", "AirShoppingRQ answered without an Error, per seller client (the look of look-to-book).", clients.map((c) => ["", { client: c.clientId, agency: c.agencyId }, c.sinceStart.looks]));
  family("ndc_client_books_total", "counter", "OrderCreateRQ answered without an Error, per seller client (the book of look-to-book).", clients.map((c) => ["", { client: c.clientId, agency: c.agencyId }, c.sinceStart.books]));
  family(
    "ndc_client_look_to_book_last_hour",
    "gauge",
    "Looks per book of the last hour, per seller client (absent while it booked nothing in the hour).",
    clients.filter((c) => c.lastHour.lookToBook !== null).map((c) => ["", { client: c.clientId, agency: c.agencyId }, c.lastHour.lookToBook!]),
  );
  family("ndc_rate_limit_per_minute", "gauge", "The rate limiter's budget per credential and minute, per class (RATE_LIMIT_*_PER_MINUTE).", [
    ["", { class: "shop" }, src.rateLimits.shopPerMinute],
    ["", { class: "default" }, src.rateLimits.defaultPerMinute],
  ]);
  family(
    "ndc_orders_created_by_hour",
    "gauge",
    "Orders created in a UTC hour of the last 24, by hours_ago (0: the hour under way), from the store.",
    hours.map((h, i) => ["", { hours_ago: String(hours.length - 1 - i) }, h.orders]),
  );
  family(
    "ndc_revenue_by_hour_minor",
    "gauge",
    "Totals of the orders created in a UTC hour of the last 24 that are booked or closed now, in the currency's minor units (exact), by hours_ago and currency.",
    hours.flatMap((h, i) => h.revenue.map((r): [string, Labels, number] => ["", { hours_ago: String(hours.length - 1 - i), currency: r.currency }, r.minor])),
  );
  family("ndc_notification_backlog", "gauge", "Notification outbox rows not delivered: pending (still being tried) and failed (retries ran out).", [
    ["", { status: "pending" }, backlog.pending],
    ["", { status: "failed" }, backlog.failed],
  ]);
  family("ndc_notification_oldest_pending_age_seconds", "gauge", "Age of the oldest pending notification delivery (0 when none).", [["", {}, backlog.oldestPendingAgeSeconds ?? 0]]);
  family(
    "ndc_scheduler_job_last_finished_timestamp_seconds",
    "gauge",
    "When each scheduler job last finished a run, in seconds since the Unix epoch (scheduler_jobs).",
    jobs.filter((j) => j.lastFinishedAt !== null).map((j) => ["", { job: j.job }, Date.parse(j.lastFinishedAt!) / 1000]),
  );
  family("ndc_scheduler_job_last_run_failed", "gauge", "1 when each scheduler job's last run failed, else 0.", jobs.filter((j) => j.lastOutcome !== null).map((j) => ["", { job: j.job }, j.lastOutcome === "failed" ? 1 : 0]));
  family("ndc_scheduler_job_running", "gauge", "1 while a scheduler holds each job's lease.", jobs.map((j) => ["", { job: j.job }, j.running ? 1 : 0]));
  return `${out.join("\n")}\n`;
}

type Labels = Record<string, string>;

/** Label values escaped as the format asks: backslash, double quote and line feed. */
function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function num(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}
