import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { enqueue, type Resolver } from "@ndc/notifications";
import { PRODUCTION_ENV, startTestGateway, type TestGateway } from "../support/gateway";
import { call, otherSeller, sellerWithToken } from "./helpers";

let t: TestGateway;
/** The test gateway's injected clock (t.gw.clock is business time over it). */
const testClock = new ManualClock();
let key: string;
let other: string;
let noGrant: string;
let noScope: string;
const PUBLIC = "93.184.216.34";

beforeAll(async () => {
  t = await startTestGateway({}, testClock);
  key = t.gw.sandbox!.api_key;
  other = await otherSeller(t, "AGY-NOTIF-B", "12345670", "ndc:order ndc:notif:subscribe");
  noGrant = other;
  noScope = await otherSeller(t, "AGY-NOTIF-C", "12345681", "ndc:order");
  // A gateway boot and two sellers registered: on PostgreSQL the boot migrates a fresh database
  // (about a second alone, several on a loaded CI machine), past the default 5 s hook budget.
}, 30_000);
afterAll(() => t.close());

const sub = (apiKey: string, body: unknown) => call(t, "POST", "/notifications/subscriptions", apiKey, body);

test("subscribe: 201 with the secret shown once, stored sealed; list and get never show it", async () => {
  const r = await sub(key, { url: "http://127.0.0.1:9/hooks/", events: ["order.payment_expired"] });
  expect(r.status).toBe(201);
  expect(Object.keys(r.json).sort()).toEqual(["createdAt", "events", "id", "secret", "url"]);
  expect(r.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(r.json.url).toBe("http://127.0.0.1:9/hooks");
  expect(r.headers.get("cache-control")).toBe("no-store");
  const got = await call(t, "GET", `/notifications/subscriptions/${r.json.id}`, key);
  expect(got.status).toBe(200);
  expect(got.json).toEqual({ id: r.json.id, url: r.json.url, events: ["order.payment_expired"], createdAt: r.json.createdAt });
  const list = await call(t, "GET", "/notifications/subscriptions", key);
  expect(list.json.subscriptions.map((s: { id: string }) => s.id)).toContain(r.json.id);
  expect(JSON.stringify(list.json)).not.toContain(r.json.secret);
  // Sealed with the field key: neither the secret nor its key bytes are in the row.
  const row = (await t.gw.store.db.all(`SELECT * FROM notification_subscriptions WHERE subscription_id = '${r.json.id}'`)) as Record<string, unknown>[];
  const raw = JSON.stringify(row);
  expect(raw).not.toContain(r.json.secret);
  expect(raw).not.toContain(r.json.secret.slice(6, 30));
});

test("another seller's id answers exactly like a missing one, on every endpoint", async () => {
  const mine = (await sub(key, { url: "http://localhost:9", events: ["order.payment_expired"] })).json.id;
  for (const [method, suffix] of [["GET", ""], ["DELETE", ""], ["POST", "/rotate-secret"], ["GET", "/deliveries"], ["POST", "/deliveries/msg_x/redeliver"]] as const) {
    const theirs = await call(t, method, `/notifications/subscriptions/${mine}${suffix}`, other);
    const missing = await call(t, method, `/notifications/subscriptions/sub_missing${suffix}`, other);
    expect(theirs.status).toBe(404);
    expect(theirs.json).toEqual(missing.json);
    expect(theirs.json.error).toBe("subscription_not_found");
  }
  expect((await call(t, "GET", "/notifications/subscriptions", other)).json.subscriptions).toEqual([]);
  // Still there for its owner; then deleted (204) and gone.
  expect((await call(t, "GET", `/notifications/subscriptions/${mine}`, key)).status).toBe(200);
  const del = await call(t, "DELETE", `/notifications/subscriptions/${mine}`, key);
  expect(del.status).toBe(204);
  expect((await call(t, "GET", `/notifications/subscriptions/${mine}`, key)).status).toBe(404);
});

test("an unknown event is 400 with the list; accounting.sales_info needs the ndc:accounting grant; the scope is required", async () => {
  const unknown = await sub(key, { url: "http://127.0.0.1:9", events: ["order.payment_expired", "order.teleported"] });
  expect(unknown.status).toBe(400);
  expect(unknown.json.error).toBe("notification_event_unknown");
  for (const e of ["order.payment_expired", "order.changed", "order.closed", "service.delivered", "payment.clearance", "accounting.sales_info"]) expect(unknown.json.error_description).toContain(e);
  expect((await sub(key, { url: "http://127.0.0.1:9", events: [] })).status).toBe(400);
  const denied = await sub(noGrant, { url: "http://127.0.0.1:9", events: ["accounting.sales_info"] });
  expect(denied.status).toBe(403);
  expect(denied.json.error).toBe("insufficient_scope");
  // The sandbox seller holds every seller scope, the accounting grant included.
  expect((await sub(key, { url: "http://127.0.0.1:9", events: ["accounting.sales_info"] })).status).toBe(201);
  const scopeless = await sub(noScope, { url: "http://127.0.0.1:9", events: ["order.payment_expired"] });
  expect(scopeless.status).toBe(403);
  expect(scopeless.json.error).toBe("insufficient_scope");
  const anonymous = await t.fetch("/notifications/subscriptions", { method: "GET" });
  expect(anonymous.status).toBe(401);
  const junk = await t.fetch("/notifications/subscriptions", { method: "POST", headers: { "x-api-key": key }, body: "not json" });
  expect(junk.status).toBe(400);
  expect(((await junk.json()) as { error: string }).error).toBe("request_invalid");
});

test("local mode: http only to 127.0.0.1:<port> or localhost:<port>; loopback, private, link-local and metadata refused", async () => {
  for (const url of ["http://127.0.0.1:8080", "http://localhost:3000/x"]) expect((await sub(key, { url, events: ["order.payment_expired"] })).status).toBe(201);
  for (const url of [
    "http://127.0.0.1", // no port
    "http://127.0.0.2:8080",
    "http://10.0.0.5:8080",
    "https://10.0.0.5",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]:8443",
    "https://[::ffff:192.168.1.1]",
    "https://192.168.0.10",
    "https://127.0.0.1:8443",
    "http://example.com",
    "ftp://example.com",
    "https://user:pw@example.com",
    "not a url",
  ]) {
    const r = await sub(key, { url, events: ["order.payment_expired"] });
    expect({ url, status: r.status, error: r.json.error }).toEqual({ url, status: 400, error: "subscription_url_refused" });
  }
});

test("production: IPv6 forms carrying a refused IPv4 address are refused at subscription and at delivery (issue 19 item 3)", async () => {
  let address = "93.184.216.34";
  const resolve: Resolver = async () => [address];
  const clock = new ManualClock();
  const prod = await startTestGateway({ ...PRODUCTION_ENV, GATEWAY_FIELD_KEY: Buffer.alloc(32, 7).toString("base64") }, clock, undefined, { resolve });
  try {
    const seller = await sellerWithToken(prod, "AGY-NOTIF-P", "12345703", "ndc:notif:subscribe");
    const subscribe = (url: string) => call(prod, "POST", "/notifications/subscriptions", seller.token, { url, events: ["order.payment_expired"] });
    for (const url of [
      "https://[::127.0.0.1]/",
      "https://[64:ff9b::127.0.0.1]/",
      "https://[64:ff9b::a9fe:a9fe]/",
      "https://[2002:7f00:1::]/",
      "https://[2002:a9fe:a9fe::]/",
      "https://[::ffff:169.254.169.254]/",
      "https://[64:ff9b:1::a00:1]/",
      "https://[2001:0:808:808::80ff:fefe]/", // Teredo, client 127.0.1.1
    ]) {
      const r = await subscribe(url);
      expect({ url, status: r.status, error: r.json.error, saysWhy: r.json.error_description.includes("loopback") }).toEqual({ url, status: 400, error: "subscription_url_refused", saysWhy: true });
    }
    // A name that resolves to a public address is accepted; once it resolves to NAT64 of the metadata address, no attempt leaves.
    const ok = await subscribe("https://hooks.example/ndc");
    expect(ok.status).toBe(201);
    await prod.gw.store.write((tx) => enqueue(tx, { event: "order.payment_expired", agencyId: "AGY-NOTIF-P", orderId: "ORD-1", body: "<x/>" }, clock.now()));
    for (const embedded of ["64:ff9b::a9fe:a9fe", "2002:7f00:1::", "::ffff:7f00:1"]) {
      address = embedded;
      await prod.gw.notifications.dispatcher.tick();
      const [d] = (await call(prod, "GET", `/notifications/subscriptions/${ok.json.id}/deliveries`, seller.token)).json.deliveries;
      expect({ embedded, status: d.status, lastError: d.lastError }).toEqual({ embedded, status: "pending", lastError: "subscription_url_refused" });
      // To the next attempt (5 s, then 5 min): within the token's lifetime.
      clock.advance(Date.parse(d.nextAttemptAt) - clock.now());
    }
  } finally {
    await prod.close();
  }
});

test("at most 20 subscriptions per agency: 25 asked at once make 20, the rest are 409 subscription_limit_reached; deleting one makes room (issue 19 item 5)", async () => {
  const capped = await otherSeller(t, "AGY-NOTIF-CAP", "12345714", "ndc:notif:subscribe");
  const neighbour = await otherSeller(t, "AGY-NOTIF-CAP2", "12345725", "ndc:notif:subscribe");
  const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => sub(capped, { url: `http://127.0.0.1:9/hook${i}`, events: ["order.changed"] })));
  const made = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status !== 201);
  expect(made.length).toBe(20);
  for (const r of refused) {
    expect(r.status).toBe(409);
    expect(r.json.error).toBe("subscription_limit_reached");
    expect(r.json.error_description).toContain("at most 20 subscriptions");
    expect(r.json.error_description).toContain("holds 20");
    expect(r.json).not.toHaveProperty("secret");
  }
  const rows = (await t.gw.store.db.all(`SELECT COUNT(*) AS n FROM notification_subscriptions WHERE agency_id = 'AGY-NOTIF-CAP'`)) as { n: number }[];
  expect(rows[0]!.n).toBe(20);
  // The cap is the agency's: another agency subscribes freely.
  expect((await sub(neighbour, { url: "http://127.0.0.1:9", events: ["order.changed"] })).status).toBe(201);
  // Room again after a delete, for one.
  expect((await call(t, "DELETE", `/notifications/subscriptions/${made[0]!.json.id}`, capped)).status).toBe(204);
  expect((await sub(capped, { url: "http://127.0.0.1:9/again", events: ["order.changed"] })).status).toBe(201);
  expect((await sub(capped, { url: "http://127.0.0.1:9/more", events: ["order.changed"] })).status).toBe(409);
});

test("the list is paged: limit and the next cursor walk every subscription once, oldest first; bad limit or cursor is 400 naming it (issue 19 item 5)", async () => {
  const clock = testClock;
  const seller = await otherSeller(t, "AGY-NOTIF-PAGE", "12345736", "ndc:notif:subscribe");
  const ids: string[] = [];
  for (let i = 0; i < 17; i++) {
    // Two share each instant: the cursor orders by creation time, then by id.
    if (i % 2 === 0) clock.advance(1000);
    ids.push((await sub(seller, { url: `http://127.0.0.1:9/p${i}`, events: ["order.closed"] })).json.id);
  }
  const expected = (await t.gw.store.db.all(`SELECT subscription_id AS id FROM notification_subscriptions WHERE agency_id = 'AGY-NOTIF-PAGE' ORDER BY created_at, subscription_id`)) as { id: string }[];
  expect(expected.map((r) => r.id).sort()).toEqual([...ids].sort());
  const seen: string[] = [];
  const sizes: number[] = [];
  const cursors: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 10; pages++) {
    const page = await call(t, "GET", `/notifications/subscriptions?limit=5${after ? `&after=${encodeURIComponent(after)}` : ""}`, seller);
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.json)).not.toContain("whsec_");
    sizes.push(page.json.subscriptions.length);
    seen.push(...page.json.subscriptions.map((s: { id: string }) => s.id));
    after = page.json.next;
    if (!after) break;
    cursors.push(after);
  }
  expect(sizes).toEqual([5, 5, 5, 2]);
  expect(seen).toEqual(expected.map((r) => r.id));
  // Without a limit: a page of 20, so this agency's 17 in one answer, with no next.
  const whole = await call(t, "GET", "/notifications/subscriptions", seller);
  expect(whole.json.subscriptions.length).toBe(17);
  expect(whole.json).not.toHaveProperty("next");
  for (const [query, element] of [
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=ten", "limit"],
    ["after=not-a-cursor", "after"],
    [`after=${Buffer.from("1.x").toString("base64url")}`, "after"],
  ] as const) {
    const r = await call(t, "GET", `/notifications/subscriptions?${query}`, seller);
    expect({ query, status: r.status, error: r.json.error, element: r.json.element }).toEqual({ query, status: 400, error: "request_invalid", element });
  }
  // Another agency's cursor pages only the caller's own rows.
  const foreign = await call(t, "GET", `/notifications/subscriptions?limit=100&after=${encodeURIComponent(cursors[0]!)}`, other);
  expect(foreign.status).toBe(200);
  expect(foreign.json.subscriptions.filter((s: { id: string }) => ids.includes(s.id))).toEqual([]);
});
