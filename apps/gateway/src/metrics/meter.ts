import type { Clock } from "@ndc/clock";
import { quantileMs, slotOf, SLOTS } from "./histogram";
import { MINUTE_MS, MinuteRing, RING_MINUTES } from "./minute-ring";

/**
 * The NDC traffic of this gateway process, counted in memory on every call (issue 12 items 8 and
 * 9; decision 0037): per message, requests, errors by code and a latency histogram since the
 * process started, and the same per minute for the last hour; per seller client, requests, rate
 * limiter refusals and errors per message, and the looks (AirShoppingRQ answered) and books
 * (OrderCreateRQ answered) of the look-to-book ratio. Recording is a few map lookups and counter
 * increments, never a store write: the pipeline's per-call floor (bench/ndc-error.ts) pays for
 * nothing more. Each process counts its own calls; several gateways each expose their own.
 */

/** Per message, per minute: requests, errors, the latency slots, then the latencies' sum in ms. */
const M_REQ = 0;
const M_ERR = 1;
const M_HIST = 2;
const M_SUM = M_HIST + SLOTS;
/** Per client and message, per minute: requests, rate-limit refusals, errors. */
const C_REQ = 0;
const C_LIMITED = 1;
const C_ERR = 2;

/** The message of a request whose path named none the gateway serves: one label, not the caller's text. */
export const UNKNOWN_MESSAGE = "unknown";
const LOOK = "AirShoppingRQ";
const BOOK = "OrderCreateRQ";

interface MessageCounters {
  requests: number;
  errors: number;
  errorsByCode: Map<string, number>;
  /** Latency slots since start (not cumulative) and their sum in seconds. */
  hist: Float64Array;
  sumSeconds: number;
  minutes: MinuteRing;
}

interface ClientMessageCounters {
  requests: number;
  rateLimited: number;
  errors: number;
  minutes: MinuteRing;
}

interface ClientCounters {
  agencyId: string;
  messages: Map<string, ClientMessageCounters>;
}

/** One NDC call as the pipeline finished it. */
export interface Call {
  message: string;
  /** The authenticated seller client and its agency; absent when the call was refused before. */
  clientId?: string;
  agencyId?: string;
  status: number;
  errorCode?: string;
  durationMs: number;
}

export class TrafficMeter {
  readonly startedAt: number;
  private readonly messages = new Map<string, MessageCounters>();
  private readonly clients = new Map<string, ClientCounters>();

  constructor(private readonly clock: Clock) {
    this.startedAt = clock.now();
  }

  record(c: Call): void {
    const minute = Math.floor(this.clock.now() / MINUTE_MS);
    const failed = c.errorCode !== undefined;
    const m = this.messages.get(c.message) ?? this.newMessage(c.message);
    const slot = slotOf(c.durationMs);
    m.requests++;
    m.hist[slot] = m.hist[slot]! + 1;
    m.sumSeconds += c.durationMs / 1000;
    const mo = m.minutes.at(minute);
    const mc = m.minutes.counts;
    mc[mo + M_REQ] = mc[mo + M_REQ]! + 1;
    mc[mo + M_HIST + slot] = mc[mo + M_HIST + slot]! + 1;
    mc[mo + M_SUM] = mc[mo + M_SUM]! + c.durationMs;
    if (failed) {
      m.errors++;
      m.errorsByCode.set(c.errorCode!, (m.errorsByCode.get(c.errorCode!) ?? 0) + 1);
      mc[mo + M_ERR] = mc[mo + M_ERR]! + 1;
    }
    if (c.clientId === undefined) return;
    let client = this.clients.get(c.clientId);
    if (!client) this.clients.set(c.clientId, (client = { agencyId: c.agencyId ?? "", messages: new Map() }));
    let cm = client.messages.get(c.message);
    if (!cm) client.messages.set(c.message, (cm = { requests: 0, rateLimited: 0, errors: 0, minutes: new MinuteRing(3) }));
    const limited = c.errorCode === "rate_limited";
    cm.requests++;
    const co = cm.minutes.at(minute);
    const cc = cm.minutes.counts;
    cc[co + C_REQ] = cc[co + C_REQ]! + 1;
    if (limited) {
      cm.rateLimited++;
      cc[co + C_LIMITED] = cc[co + C_LIMITED]! + 1;
    }
    if (failed) {
      cm.errors++;
      cc[co + C_ERR] = cc[co + C_ERR]! + 1;
    }
  }

  private newMessage(name: string): MessageCounters {
    const m: MessageCounters = { requests: 0, errors: 0, errorsByCode: new Map(), hist: new Float64Array(SLOTS), sumSeconds: 0, minutes: new MinuteRing(M_SUM + 1) };
    this.messages.set(name, m);
    return m;
  }

  /** Per message, since start and for the last hour (p50/p99 estimated from the buckets), by name. */
  messageFigures(now = this.clock.now()) {
    const minute = Math.floor(now / MINUTE_MS);
    return [...this.messages.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([message, m]) => {
        const hour = m.minutes.lastHour(minute);
        const requests = hour[M_REQ]!;
        const errors = hour[M_ERR]!;
        return {
          message,
          lastHour: {
            requests,
            errors,
            errorRate: requests ? errors / requests : null,
            sumSeconds: hour[M_SUM]! / 1000,
            p50Ms: round(quantileMs(hour, 0.5, M_HIST)),
            p99Ms: round(quantileMs(hour, 0.99, M_HIST)),
          },
          sinceStart: {
            requests: m.requests,
            errors: m.errors,
            errorsByCode: Object.fromEntries([...m.errorsByCode.entries()].sort(([a], [b]) => a.localeCompare(b))),
            histogram: [...m.hist],
            sumSeconds: m.sumSeconds,
            p50Ms: round(quantileMs(m.hist, 0.5)),
            p99Ms: round(quantileMs(m.hist, 0.99)),
          },
        };
      });
  }

  /**
   * Per seller client: the last hour's requests, refusals and errors per message, its busiest
   * minute per rate class (`classOf` names a message's class), looks and books with their
   * ratio; and the same counts since start.
   */
  clientFigures(classOf: (message: string) => string, now = this.clock.now()) {
    const minute = Math.floor(now / MINUTE_MS);
    return [...this.clients.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([clientId, c]) => {
        const messages = [...c.messages.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([message, cm]) => {
            const h = cm.minutes.lastHour(minute);
            return { message, lastHour: { requests: h[C_REQ]!, rateLimited: h[C_LIMITED]!, errors: h[C_ERR]! }, sinceStart: { requests: cm.requests, rateLimited: cm.rateLimited, errors: cm.errors } };
          });
        // The busiest minute of each rate class: what the limiter saw against its per-minute budget.
        const busiest: Record<string, number> = {};
        for (let s = 0; s < RING_MINUTES; s++) {
          const perClass: Record<string, number> = {};
          for (const [message, cm] of c.messages) {
            if (!cm.minutes.live(s, minute)) continue;
            const cls = classOf(message);
            perClass[cls] = (perClass[cls] ?? 0) + cm.minutes.counts[s * 3 + C_REQ]!;
          }
          for (const [cls, n] of Object.entries(perClass)) busiest[cls] = Math.max(busiest[cls] ?? 0, n);
        }
        const sum = (k: "requests" | "rateLimited" | "errors", of: "lastHour" | "sinceStart") => messages.reduce((t, m) => t + m[of][k], 0);
        const answered = (name: string, of: "lastHour" | "sinceStart") => {
          const m = messages.find((x) => x.message === name);
          return m ? m[of].requests - m[of].errors : 0;
        };
        const looks = answered(LOOK, "lastHour");
        const books = answered(BOOK, "lastHour");
        return {
          clientId,
          agencyId: c.agencyId,
          lastHour: { requests: sum("requests", "lastHour"), rateLimited: sum("rateLimited", "lastHour"), errors: sum("errors", "lastHour"), busiestMinute: busiest, looks, books, lookToBook: books ? looks / books : null },
          sinceStart: { requests: sum("requests", "sinceStart"), rateLimited: sum("rateLimited", "sinceStart"), errors: sum("errors", "sinceStart"), looks: answered(LOOK, "sinceStart"), books: answered(BOOK, "sinceStart") },
          messages,
        };
      });
  }
}

const round = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
