import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "@ndc/config";
import { registerAgency, registerClient } from "@ndc/auth";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer, T0 } from "../orders-http/helpers";
import { staffWorld, type StaffWorld } from "../staff/support";
import { ManualClock } from "@ndc/clock";

/**
 * GET /metrics over the gateway's HTTP stack: the Prometheus text exposition format, read back by
 * a strict parser written here (HELP and TYPE before each family's samples, one family at a time,
 * label syntax and escapes, `_total` counters, cumulative histogram buckets ending at +Inf equal
 * to `_count`, summary quantiles), figures that move with real NDC calls, and who may read it:
 * anyone in local mode; elsewhere only the METRICS_TOKEN bearer, never a seller's token or a
 * staff session.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
interface Family {
  name: string;
  type: string;
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);
const SUFFIXES: Record<string, string[]> = { counter: [""], gauge: [""], untyped: [""], histogram: ["_bucket", "_sum", "_count"], summary: ["", "_sum", "_count"] };

function parseValue(v: string, line: string): number {
  if (v === "NaN") return NaN;
  if (v === "+Inf") return Infinity;
  if (v === "-Inf") return -Infinity;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v)) throw new Error(`bad value in: ${line}`);
  return Number(v);
}

/** Labels `{a="x",b="y\"z"}` read character by character: only \\, \" and \n escapes; no duplicate names. */
function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name) || name in labels) throw new Error(`bad or repeated label name "${name}" in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = "";
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const e = text[++j];
        if (e === "\\") value += "\\";
        else if (e === '"') value += '"';
        else if (e === "n") value += "\n";
        else throw new Error(`bad escape in: ${line}`);
      } else if (text[j] === "\n") throw new Error(`raw line feed in: ${line}`);
      else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (i < text.length) {
      if (text[i] !== ",") throw new Error(`expected , in: ${line}`);
      i++;
    }
  }
  return labels;
}

/** The exposition, strictly: throws on the first line that does not hold. */
function parseExposition(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a line feed");
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | undefined;
  for (const line of text.slice(0, -1).split("\n")) {
    if (line.startsWith("#")) {
      const m = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
      if (!m || !NAME.test(m[2]!)) throw new Error(`bad comment line: ${line}`);
      const [, kind, name, rest] = m;
      if (kind === "HELP") {
        if (families.has(name!)) throw new Error(`second HELP for ${name}`);
        current = { name: name!, type: "", help: rest!, samples: [] };
        families.set(name!, current);
      } else {
        if (current?.name !== name || current.type) throw new Error(`TYPE of ${name} not right after its HELP`);
        if (!TYPES.has(rest!)) throw new Error(`unknown type ${rest}`);
        current.type = rest!;
      }
      continue;
    }
    if (line === "") throw new Error("empty line");
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const [, name, labelText, value] = m;
    if (!current?.type) throw new Error(`sample before its family's TYPE: ${line}`);
    const suffix = name!.slice(current.name.length);
    if (!name!.startsWith(current.name) || !SUFFIXES[current.type]!.includes(suffix)) throw new Error(`sample ${name} outside its family ${current.name}: ${line}`);
    const labels = labelText === undefined ? {} : parseLabels(labelText, line);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`repeated series: ${line}`);
    seen.add(key);
    current.samples.push({ name: name!, labels, value: parseValue(value!, line) });
  }
  for (const f of families.values()) {
    if (!f.type) throw new Error(`${f.name} has no TYPE`);
    if (f.type === "counter" && !f.name.endsWith("_total")) throw new Error(`counter ${f.name} does not end in _total`);
    if (f.type !== "counter" && f.name.endsWith("_total")) throw new Error(`${f.name} ends in _total but is a ${f.type}`);
    if (f.type === "histogram") checkHistogram(f);
    if (f.type === "summary") for (const s of f.samples.filter((x) => x.name === f.name)) if (!/^(0(\.\d+)?|1)$/.test(s.labels.quantile ?? "")) throw new Error(`summary sample without a quantile: ${f.name}`);
  }
  return families;
}

/** Per series (labels but le): buckets in increasing le, counts never decreasing, +Inf last and equal to _count. */
function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  const id = (s: Sample) => JSON.stringify(Object.entries(s.labels).filter(([k]) => k !== "le").sort());
  for (const s of f.samples.filter((x) => x.name.endsWith("_bucket"))) {
    if (s.labels.le === undefined) throw new Error(`bucket without le in ${f.name}`);
    series.set(id(s), [...(series.get(id(s)) ?? []), s]);
  }
  for (const [key, buckets] of series) {
    const les = buckets.map((b) => parseValue(b.labels.le!, b.labels.le!));
    if (les.at(-1) !== Infinity) throw new Error(`${f.name}${key}: last bucket is not +Inf`);
    for (let i = 1; i < buckets.length; i++) if (!(les[i]! > les[i - 1]!) || buckets[i]!.value < buckets[i - 1]!.value) throw new Error(`${f.name}${key}: buckets not cumulative`);
    const count = f.samples.find((s) => s.name === `${f.name}_count` && id(s) === key);
    if (count?.value !== buckets.at(-1)!.value) throw new Error(`${f.name}${key}: +Inf bucket is not _count`);
    if (!f.samples.some((s) => s.name === `${f.name}_sum` && id(s) === key)) throw new Error(`${f.name}${key}: no _sum`);
  }
}

/** The value of one series, or undefined. */
function value(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, ""));
  return family?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v) && Object.keys(s.labels).length === Object.keys(labels).length)?.value;
}

describe("the parser itself", () => {
  test("refuses what the format forbids", () => {
    const ok = "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1\"} 2\n";
    expect(parseExposition(ok).get("a_total")!.samples[0]!.value).toBe(2);
    for (const bad of [
      "a_total 1\n", // no HELP/TYPE
      "# HELP a_total A.\n# TYPE a_total counter\na_total 1", // no final line feed
      "# HELP a A.\n# TYPE a counter\na 1\n", // counter without _total
      "# HELP a_total A.\n# TYPE a_total counter\na_total{x=1} 1\n", // unquoted
      "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1\",x=\"2\"} 1\n", // repeated label
      "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"\\t\"} 1\n", // bad escape
      "# HELP a_total A.\n# TYPE a_total counter\na_total one\n", // bad value
      "# HELP h A.\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n", // not cumulative
      "# HELP h A.\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_sum 1\nh_count 1\n", // no +Inf
    ])
      expect(() => parseExposition(bad)).toThrow();
  });
});

describe("in local mode", () => {
  let t: TestGateway;
  beforeAll(async () => {
    t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1" }, new ManualClock(T0));
  }, 60_000);
  afterAll(() => t.close());
  const scrape = async () => {
    const res = await t.fetch("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await res.text();
    return { text, families: parseExposition(text) };
  };

  test("served without a token; counters, histograms and the store's figures move with a booking and a refused call", async () => {
    const before = (await scrape()).families;
    expect(value(before, "ndc_orders_created_by_hour", { hours_ago: "0" })).toBe(0);
    expect(before.get("ndc_request_duration_seconds")!.type).toBe("histogram");
    expect(before.get("ndc_request_duration_last_hour_seconds")!.type).toBe("summary");

    const client = t.gw.sandbox!.client_id;
    const shopped = await shopOffer(t, { pax: 1 });
    const created = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "Hopper", given: "Grace", doc: { number: "X9182736" } }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "METRICS-1", trxId: "TRX-1" }));
    expect(created.status).toBe(200);
    const orderId = orderIdOf(created.body);
    expect((await t.ndc("OrderRetrieveRQ", orderRetrieveRQ("XB-NOPE-000000"))).status).toBe(404);

    const { text, families: after } = await scrape();
    expect(value(after, "ndc_requests_total", { message: "OrderCreateRQ" })).toBe(1);
    expect(value(after, "ndc_requests_total", { message: "AirShoppingRQ" })).toBe(1);
    expect(value(after, "ndc_request_errors_total", { message: "OrderRetrieveRQ", code: "order_not_found" })).toBe(1);
    expect(value(after, "ndc_request_duration_seconds_count", { message: "OrderCreateRQ" })).toBe(1);
    expect(value(after, "ndc_request_duration_seconds_bucket", { message: "OrderCreateRQ", le: "+Inf" })).toBe(1);
    expect(value(after, "ndc_request_duration_seconds_sum", { message: "OrderCreateRQ" })).toBeGreaterThan(0);
    expect(value(after, "ndc_request_duration_last_hour_seconds", { message: "OrderCreateRQ", quantile: "0.99" })).toBeGreaterThan(0);
    const agency = after.get("ndc_client_books_total")!.samples[0]!.labels.agency!;
    expect(value(after, "ndc_client_looks_total", { client, agency })).toBe(1);
    expect(value(after, "ndc_client_books_total", { client, agency })).toBe(1);
    expect(value(after, "ndc_client_look_to_book_last_hour", { client, agency })).toBe(1);
    expect(value(after, "ndc_client_errors_total", { client, agency, message: "OrderRetrieveRQ" })).toBe(1);
    expect(value(after, "ndc_orders_created_by_hour", { hours_ago: "0" })).toBe(1);
    expect(value(after, "ndc_revenue_by_hour_minor", { hours_ago: "0", currency: "EUR" })).toBe(shopped.totalMinor);
    expect(value(after, "ndc_notification_backlog", { status: "pending" })).toBe(0);
    expect(value(after, "ndc_rate_limit_per_minute", { class: "shop" })).toBe(300);
    expect(value(after, "ndc_process_start_time_seconds")).toBe(T0 / 1000);
    // Nothing personal, no order id.
    for (const secret of ["Hopper", "Grace", "X9182736", orderId]) expect(text).not.toContain(secret);
  }, 60_000);

  test("HEAD answers the headers only; another method is 405", async () => {
    const head = await t.fetch("/metrics", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const post = await t.fetch("/metrics", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("outside local mode", () => {
  const TOKEN = "m".repeat(20) + "etrics-token-0123456789abcdef";
  let w: StaffWorld;
  let sellerToken: string;
  beforeAll(async () => {
    w = await staffWorld({ GATEWAY_MODE: "sandbox", METRICS_TOKEN: TOKEN });
    await w.addStaff("ada", "admin");
    const store = w.t.gw.store;
    await registerAgency(store, { agencyId: "METRICS-AG", iataNumber: "12345675", name: "Metrics Travel" }, w.clock.now());
    const issued = await registerClient(store, { agency: "METRICS-AG", scopes: ["ndc:shop"] }, w.clock.now());
    const tok = await w.t.fetch("/oauth/token", {
      method: "POST",
      headers: { authorization: `Basic ${btoa(`${issued.clientId}:${issued.clientSecret}`)}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(tok.status).toBe(200);
    sellerToken = ((await tok.json()) as { access_token: string }).access_token;
  }, 60_000);
  afterAll(() => w.t.close());
  const scrape = (headers: Record<string, string> = {}) => w.t.fetch("/metrics", { headers });
  const refusal = async (res: Response) => [res.status, ((await res.json()) as { error: string }).error, res.headers.get("www-authenticate")];

  test("refused without the token, with a wrong one, with a seller's token or a staff session; served with the token", async () => {
    const challenge = 'Bearer realm="metrics"';
    expect(await refusal(await scrape())).toEqual([401, "metrics_token_invalid", challenge]);
    expect(await refusal(await scrape({ authorization: `Bearer ${TOKEN.slice(0, -1)}x` }))).toEqual([401, "metrics_token_invalid", challenge]);
    expect(await refusal(await scrape({ authorization: `Basic ${btoa(`x:${TOKEN}`)}` }))).toEqual([401, "metrics_token_invalid", challenge]);
    expect(await refusal(await scrape({ authorization: `Bearer ${sellerToken}` }))).toEqual([401, "metrics_token_invalid", challenge]);
    const admin = await w.login("ada");
    expect(await refusal(await admin.call("/metrics"))).toEqual([401, "metrics_token_invalid", challenge]);
    // The seller's token is good where it belongs (this call is then counted, refused for its empty body).
    expect((await w.t.ndc("AirShoppingRQ", "<x/>", { headers: { authorization: `Bearer ${sellerToken}` } })).status).toBe(400);
    // And the metrics token opens no NDC call.
    expect((await w.t.ndc("AirShoppingRQ", "<x/>", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(401);

    const ok = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    const families = parseExposition(await ok.text());
    const clientId = families.get("ndc_client_requests_total")!.samples[0]!.labels.client!;
    expect(value(families, "ndc_client_errors_total", { client: clientId, agency: "METRICS-AG", message: "AirShoppingRQ" })).toBe(1);
    expect(value(families, "ndc_request_errors_total", { message: "AirShoppingRQ", code: "invalid_token" })).toBe(1);
  }, 60_000);

  test("without METRICS_TOKEN /metrics is not served (404); a short token is a configuration error", async () => {
    const t = await startTestGateway({ GATEWAY_MODE: "sandbox" });
    try {
      const res = await t.fetch("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([404, "metrics_not_enabled"]);
    } finally {
      await t.close();
    }
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(ConfigError);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
  }, 60_000);
});
