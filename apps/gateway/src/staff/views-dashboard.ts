import { isCurrencyCode, toDecimalString } from "@ndc/money";
import type { dashboardFigures, trafficFigures } from "../metrics/figures";
import type { HourFigures } from "../metrics/store-figures";
import { esc, page, table, type PageChrome } from "./html";

/**
 * The dashboard and traffic pages, rendered from the figures (staff/dashboard.ts). The charts are
 * SVG drawn here, styled by the console's own dashboard stylesheet: no script, nothing inline
 * (the CSP allows neither), and each has a table with the same numbers for those who cannot see it.
 */

type Dashboard = Awaited<ReturnType<typeof dashboardFigures>>;
type Traffic = ReturnType<typeof trafficFigures>;

const HEAD = `<link rel="stylesheet" href="/staff/dashboard.css">`;

export const DASHBOARD_CSS = `.chart{display:block;width:100%;max-width:46rem;height:auto;margin:.5rem 0 1rem;border:1px solid #8a8a8a;background:#fff}
.chart text{font:11px system-ui,sans-serif;fill:#1a1a1a}.chart .title{font-weight:700;font-size:13px}
.chart .bar{fill:#0b3d6e}.chart .bar.money{fill:#2d6a1f}.chart .axis{stroke:#1a1a1a;stroke-width:1}.chart .grid{stroke:#c8c8c8;stroke-width:1}
.figures{display:flex;flex-wrap:wrap;gap:1rem;margin:.5rem 0 1rem;padding:0;list-style:none}.figures li{border:1px solid #8a8a8a;padding:.5rem .9rem}
.figures strong{display:block;font-size:1.4rem}.scope{color:#404040}
`;

/** An amount in minor units as the currency writes it (grid lines fall between whole units: rounded first). */
const major = (minor: number, currency: string) => (isCurrencyCode(currency) ? toDecimalString({ amount: Math.round(minor), currency }) : String(Math.round(minor)));
const hourLabel = (iso: string) => `${iso.slice(11, 13)}:00`;
const pct = (r: number | null) => (r === null ? "-" : `${(r * 100).toFixed(1)} %`);
const ms = (v: number | null) => (v === null ? "-" : `${v.toFixed(2)} ms`);
const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : "never");

/**
 * A bar chart of one value per hour: the bars, a few grid lines with their values, an hour label
 * every third hour, and a title element per bar (its hour and value) for a pointer's tooltip.
 */
export function barChart(id: string, title: string, hours: string[], values: number[], label: (v: number) => string, money = false): string {
  const W = 720;
  const H = 220;
  const left = 56;
  const top = 28;
  const bottom = 28;
  const plotW = W - left - 12;
  const plotH = H - top - bottom;
  const max = Math.max(1, ...values);
  const step = plotW / values.length;
  const grid = [0, 0.5, 1]
    .map((f) => {
      const y = top + plotH - f * plotH;
      return `<line class="grid" x1="${left}" x2="${W - 12}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}"/><text x="${left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${esc(label(max * f))}</text>`;
    })
    .join("");
  const bars = values
    .map((v, i) => {
      const h = (v / max) * plotH;
      const x = left + i * step + step * 0.15;
      return `<rect class="bar${money ? " money" : ""}" x="${x.toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${esc(hourLabel(hours[i]!))}: ${esc(label(v))}</title></rect>`;
    })
    .join("");
  const ticks = hours
    .map((hr, i) => (i % 3 === 0 || i === hours.length - 1 ? `<text x="${(left + i * step + step / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${esc(hourLabel(hr))}</text>` : ""))
    .join("");
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg">
<title id="${id}-t">${esc(title)}</title><desc id="${id}-d">Bar chart, one bar per UTC hour from ${esc(hourLabel(hours[0]!))} to ${esc(hourLabel(hours[hours.length - 1]!))}; the same figures are in the table below.</desc>
<text class="title" x="${left}" y="18">${esc(title)}</text>${grid}${bars}<line class="axis" x1="${left}" x2="${W - 12}" y1="${top + plotH}" y2="${top + plotH}"/>${ticks}</svg>`;
}

/** The currencies of the window, busiest first (at most three charts; the table has them all). */
function currencies(hours: HourFigures[]): string[] {
  const totals = new Map<string, number>();
  for (const h of hours) for (const r of h.revenue) totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.minor);
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c);
}

export function dashboardPage(d: Dashboard, chrome: PageChrome): Response {
  const hours = d.ordersPerHour.map((h) => h.hour);
  const curr = currencies(d.ordersPerHour);
  const last = d.ordersPerHour[d.ordersPerHour.length - 1]!;
  const totalOrders = d.ordersPerHour.reduce((t, h) => t + h.orders, 0);
  const summary = `<ul class="figures">
<li>Orders, last 24 hours<strong>${esc(totalOrders)}</strong></li>
<li>Orders, hour under way<strong>${esc(last.orders)}</strong></li>
<li>Notifications pending<strong>${esc(d.notificationBacklog.pending)}</strong></li>
<li>Notifications failed<strong>${esc(d.notificationBacklog.failed)}</strong></li>
</ul>`;
  const charts =
    barChart("orders-chart", "Orders created per hour (UTC)", hours, d.ordersPerHour.map((h) => h.orders), (v) => String(Math.round(v))) +
    curr
      .slice(0, 3)
      .map((c, i) =>
        barChart(`revenue-chart-${i}`, `Revenue per hour, ${c} (orders booked or closed)`, hours, d.ordersPerHour.map((h) => h.revenue.find((r) => r.currency === c)?.minor ?? 0), (v) => major(v, c), true),
      )
      .join("");
  const hourRows = d.ordersPerHour.filter((h) => h.orders > 0).map((h) => [esc(when(h.hour).slice(0, 16)), esc(h.orders), esc(h.revenue.map((r) => `${r.amount} ${r.currency}`).join(", ") || "-")]);
  const messageRows = d.messages.map((m) => [esc(m.message), esc(m.requests), esc(m.errors), esc(pct(m.errorRate)), esc(ms(m.p50Ms)), esc(ms(m.p99Ms)), esc(m.sinceStart.requests), esc(Object.entries(m.sinceStart.errorsByCode).map(([c, n]) => `${c} ${n}`).join(", "))]);
  const l2bRows = d.lookToBook.map((c) => [esc(c.clientId), esc(c.agencyId), esc(c.looks), esc(c.books), esc(c.ratio === null ? "no order" : `${c.ratio.toFixed(1)} : 1`)]);
  const jobRows = d.jobs.map((j) => [esc(j.job), esc(when(j.lastStartedAt)), esc(when(j.lastFinishedAt)), esc(j.lastOutcome ?? "-"), esc(j.running ? "yes" : "no"), esc(when(j.nextRunAt))]);
  const b = d.notificationBacklog;
  const body = `<p class="scope">Orders and revenue are the store's (every gateway process). Traffic, errors and latency are this process's (pid ${esc(d.process.pid)}, counting since ${esc(when(d.process.startedAt))}), for the last hour; several gateway processes each count their own. Generated ${esc(when(d.generatedAt))}.</p>
${summary}
<h2>Orders and revenue per hour</h2>
${charts}
${table(["Hour (UTC)", "Orders created", "Revenue (booked or closed)"], hourRows, "Hours with orders")}
<h2>Messages, last hour</h2>
${table(["Message", "Requests", "Errors", "Error rate", "p50", "p99", "Requests since start", "Errors since start by code"], messageRows, "NDC messages")}
<h2>Look-to-book per seller, last hour</h2>
<p>Looks: AirShoppingRQ answered without an Error. Books: OrderCreateRQ answered without an Error.</p>
${table(["Client", "Agency", "Looks", "Books", "Looks per book"], l2bRows, "Sellers")}
<h2>Notification backlog</h2>
<p>${esc(b.pending)} deliveries pending${b.oldestPendingAt ? `, the oldest written ${esc(when(b.oldestPendingAt))}` : ""}; ${esc(b.failed)} failed (retries ran out: <a href="/staff/queues/failed-deliveries">failed deliveries</a>).</p>
<h2>Scheduled jobs</h2>
${table(["Job", "Last started", "Last finished", "Outcome", "Running", "Next run"], jobRows, "Scheduler jobs")}`;
  return page(200, "Dashboard", body, { ...chrome, head: HEAD });
}

export function trafficPage(t: Traffic, chrome: PageChrome): Response {
  const limit = (cls: string) => (cls === "shop" ? t.rateLimitsPerMinute.shop : t.rateLimitsPerMinute.default);
  const clientRows = t.clients.map((c) => [
    esc(c.clientId),
    esc(c.agencyId),
    esc(c.requests),
    esc(c.rateLimited),
    esc(c.errors),
    esc(Object.entries(c.busiestMinute).sort(([a], [b]) => a.localeCompare(b)).map(([cls, n]) => `${cls} ${n} of ${limit(cls)}`).join(", ") || "-"),
  ]);
  const messageRows = t.clients.flatMap((c) => c.messages.filter((m) => m.requests > 0).map((m) => [esc(c.clientId), esc(m.message), esc(m.rateClass), esc(m.requests), esc(m.rateLimited), esc(m.errors)]));
  const body = `<p><a href="/staff/sellers">Back to sellers</a></p>
<p class="scope">The last hour's NDC calls of each seller client as this gateway process counted them (pid ${esc(t.process.pid)}, counting since ${esc(when(t.process.startedAt))}); several gateway processes each count their own. Rate limits per credential and minute: shopping (AirShoppingRQ, OfferPriceRQ) ${esc(t.rateLimitsPerMinute.shop)}, every other message ${esc(t.rateLimitsPerMinute.default)}. Generated ${esc(when(t.generatedAt))}.</p>
${table(["Client", "Agency", "Requests", "Refused by the rate limiter", "Errors (refusals included)", "Busiest minute per rate class"], clientRows, "Seller clients, last hour")}
${table(["Client", "Message", "Rate class", "Requests", "Refused by the rate limiter", "Errors"], messageRows, "Requests per message, last hour")}`;
  return page(200, "Seller traffic and rate limits", body, chrome);
}
