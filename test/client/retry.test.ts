import { afterEach, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { NdcClient, backoffMs, DEFAULT_RETRY, retryAfterMs } from "@ndc-gateway/client";
import { assertSchemaValid } from "../support/xsd";
import { startListeningGateway } from "./support";

/**
 * Issue 11 item 6, Proof: the client's retries against a local server that answers 429 with
 * Retry-After and then 200: it waits as asked, and it does not hammer. The first tests use a
 * stand-in server, whose answers can be set one by one; the last spends the real gateway's budget.
 */
const XML_OK = `<?xml version="1.0" encoding="UTF-8"?><IATA_OrderListRS xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage"><Response/></IATA_OrderListRS>`;

interface Hit {
  path: string;
  at: number;
}

function overloaded(answers: ((n: number) => Response)[]) {
  const hits: Hit[] = [];
  let n = 0;
  const server: { port?: number; stop(force?: boolean): unknown } = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req): Response {
      const path = new URL(req.url).pathname;
      if (path === "/24.4") {
        return Response.json({ airline: { designator: "XB" }, version: "24.4", tokenUrl: `http://127.0.0.1:${server.port}/oauth/token`, messages: [] });
      }
      hits.push({ path, at: performance.now() });
      if (path === "/oauth/token") return Response.json({ access_token: "t", token_type: "Bearer", expires_in: 1800, scope: "ndc:order" });
      const answer = answers[Math.min(n++, answers.length - 1)]!;
      return answer(n);
    },
  });
  stops.push(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}`, hits: () => hits.filter((h) => h.path !== "/oauth/token") };
}

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

const xml = () => new Response(XML_OK, { headers: { "content-type": "application/xml" } });
const refused = (status: number, retryAfter?: string) =>
  new Response(`<IATA_OrderListRS xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage"><Error><Code>rate_limited</Code><DescText>slow down</DescText></Error></IATA_OrderListRS>`, {
    status,
    headers: { "content-type": "application/xml", ...(retryAfter ? { "retry-after": retryAfter } : {}) },
  });

const client = (url: string, extra = {}) => new NdcClient({ baseUrl: url, clientId: "c", clientSecret: "s", ...extra });

test("429 with Retry-After: 1, then 200: one retry, sent after a full second, and the answer is read", async () => {
  const s = overloaded([() => refused(429, "1"), xml]);
  const r = await client(s.url).list();
  expect(r.orders).toEqual([]);
  const hits = s.hits();
  expect(hits).toHaveLength(2);
  expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(1000);
}, 20_000);

test("503 with Retry-After as an HTTP date is honoured the same way", async () => {
  const s = overloaded([() => refused(503, new Date(Date.now() + 2000).toUTCString()), xml]);
  await client(s.url).list();
  const hits = s.hits();
  expect(hits).toHaveLength(2);
  // An HTTP date has whole seconds: at least one second, and never straight away.
  expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(900);
}, 20_000);

test("503 without Retry-After: exponential backoff with jitter, then the last answer is the error", async () => {
  const s = overloaded([() => refused(503)]);
  const waits: number[] = [];
  const err = await client(s.url, { retry: { attempts: 4, baseDelayMs: 100 }, onExchange: (e: { waits: number[] }) => waits.push(...e.waits) })
    .list()
    .catch((e: Error) => e);
  expect((err as { code?: string }).code).toBe("rate_limited");
  expect((err as { status?: number }).status).toBe(503);
  const hits = s.hits();
  expect(hits).toHaveLength(4);
  // Full jitter: each wait is within [0, 100 * 2^n], and the gaps the server saw are those waits.
  expect(waits).toHaveLength(3);
  waits.forEach((w, i) => expect(w).toBeLessThanOrEqual(100 * 2 ** i));
  for (let i = 1; i < hits.length; i++) expect(hits[i]!.at - hits[i - 1]!.at).toBeGreaterThanOrEqual(waits[i - 1]! - 5);
}, 20_000);

test("a Retry-After longer than the client will wait fails at once instead of hammering", async () => {
  const s = overloaded([() => refused(429, "3600"), xml]);
  const started = performance.now();
  const err = await client(s.url).list().catch((e: Error) => e);
  expect((err as { code?: string }).code).toBe("rate_limited");
  expect(s.hits()).toHaveLength(1);
  expect(performance.now() - started).toBeLessThan(1000);
}, 20_000);

test("a 400 is never retried", async () => {
  const s = overloaded([() => refused(400), xml]);
  await client(s.url).list().catch(() => undefined);
  expect(s.hits()).toHaveLength(1);
}, 20_000);

test("the backoff arithmetic: doubled per attempt, capped, jittered; Retry-After plus the jitter", () => {
  const p = { ...DEFAULT_RETRY, baseDelayMs: 200, maxDelayMs: 1000 };
  expect([0, 1, 2, 3, 4].map((a) => backoffMs(p, a, undefined, () => 1))).toEqual([200, 400, 800, 1000, 1000]);
  expect(backoffMs(p, 2, undefined, () => 0.25)).toBe(200);
  expect(backoffMs(p, 0, 3000, () => 1)).toBe(3200);
  expect(backoffMs(p, 0, 3000, () => 0)).toBe(3000);
  expect(retryAfterMs("7", 0)).toBe(7000);
  expect(retryAfterMs("soon", 0)).toBeUndefined();
  expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
});

test("the real gateway's own 429: a burst past RATE_LIMIT_DEFAULT_PER_MINUTE waits out each Retry-After and every call lands", async () => {
  // 30 a minute: a bucket of 30 that refills one every 2 s, so calls past the 30th are told to wait.
  const g = await startListeningGateway({ RATE_LIMIT_DEFAULT_PER_MINUTE: "30" });
  try {
    // Every attempt of each call (keyed by its CorrelationID): when it was sent, what came back, what Retry-After said.
    const attempts = new Map<string, { at: number; status: number; retryAfter?: number }[]>();
    const answers: string[] = [];
    const c = new NdcClient({
      baseUrl: g.url,
      clientId: g.clientId,
      clientSecret: g.clientSecret,
      fetch: async (url, init) => {
        const at = performance.now();
        const res = await fetch(url, init);
        if (url.endsWith("/OrderListRQ")) {
          const rq = gunzipSync(init!.body as Uint8Array).toString();
          const id = rq.match(/<cns:CorrelationID>([^<]+)/)![1]!;
          const ra = res.headers.get("retry-after");
          attempts.set(id, [...(attempts.get(id) ?? []), { at, status: res.status, retryAfter: ra === null ? undefined : Number(ra) }]);
          answers.push(await res.clone().text());
        }
        return res;
      },
    });
    await c.list(); // the token and discovery first, so the burst is NDC calls only
    const results = await Promise.all(Array.from({ length: 32 }, () => c.list()));
    expect(results).toHaveLength(32);
    const refused = [...attempts.values()].filter((a) => a.some((x) => x.status === 429));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const a of refused) {
      expect(a.at(-1)!.status).toBe(200);
      // Never sooner than the gateway asked, and no hammering: a handful of attempts per call at most.
      for (let i = 1; i < a.length; i++) expect(a[i]!.at - a[i - 1]!.at).toBeGreaterThanOrEqual(a[i - 1]!.retryAfter! * 1000 - 5);
      expect(a.length).toBeLessThanOrEqual(DEFAULT_RETRY.attempts);
    }
    for (const xml of new Set(answers)) assertSchemaValid(xml);
  } finally {
    await g.close();
  }
}, 60_000);
