import type { Clock } from "@ndc/clock";
import type { RateLimitConfig } from "@ndc/config";
import { messageByName } from "@ndc/messages";
import type { Store } from "@ndc/store";
import type { TrafficMeter } from "./meter";
import { jobRuns, notificationBacklog, ordersPerHour } from "./store-figures";

/**
 * Where the dashboard, the traffic page and GET /metrics read their figures: one object built by
 * bootGateway. Traffic is this process's (the meter); orders, the backlog and job runs are the
 * store's, the same from every process.
 */
export interface FigureSources {
  store: Store;
  clock: Clock;
  meter: TrafficMeter;
  rateLimits: RateLimitConfig;
}

/** A message's rate-limiter class (spec 8): shop or default. */
export const rateClassOf = (message: string) => messageByName(message)?.rateClass ?? "default";

const iso = (ms: number) => new Date(ms).toISOString();

/** GET /staff/api/dashboard (issue 12 item 9); docs/staff-api.md describes each field. */
export async function dashboardFigures(src: FigureSources) {
  const now = src.clock.now();
  const [hours, backlog, jobs] = await Promise.all([ordersPerHour(src.store, now), notificationBacklog(src.store, now), jobRuns(src.store, now)]);
  return {
    generatedAt: iso(now),
    // The traffic figures are this process's own since it started: say which, so two processes' pages are not mistaken for one.
    process: { startedAt: iso(src.meter.startedAt), pid: process.pid },
    ordersPerHour: hours,
    lookToBook: src.meter.clientFigures(rateClassOf, now).map((c) => ({ clientId: c.clientId, agencyId: c.agencyId, looks: c.lastHour.looks, books: c.lastHour.books, ratio: c.lastHour.lookToBook })),
    messages: src.meter.messageFigures(now).map((m) => ({ message: m.message, ...m.lastHour, sinceStart: { requests: m.sinceStart.requests, errors: m.sinceStart.errors, errorsByCode: m.sinceStart.errorsByCode } })),
    notificationBacklog: backlog,
    // Every job (order expiry and the reconciler among them) as the scheduler app records it, whichever process runs it.
    jobs,
  };
}

/** GET /staff/api/sellers/traffic (issue 12 item 8): per client, the last hour against the rate limits. */
export function trafficFigures(src: FigureSources) {
  const now = src.clock.now();
  return {
    generatedAt: iso(now),
    process: { startedAt: iso(src.meter.startedAt), pid: process.pid },
    rateLimitsPerMinute: { shop: src.rateLimits.shopPerMinute, default: src.rateLimits.defaultPerMinute },
    clients: src.meter.clientFigures(rateClassOf, now).map((c) => ({ clientId: c.clientId, agencyId: c.agencyId, ...c.lastHour, messages: c.messages.map((m) => ({ message: m.message, rateClass: rateClassOf(m.message), ...m.lastHour })) })),
  };
}
