import { afterAll, expect, test } from "bun:test";
import { ManualClock, systemClock } from "@ndc/clock";
import { party, selectAll, verifyWebhook, webhookHeaders } from "@ndc-gateway/client";
import { totpAt } from "@ndc/staff";
import { staffCommand } from "../../apps/cli/src/commands/staff";
import { sandboxClient, startListeningGateway, travelDate } from "../client/support";
import { startReceiver } from "../notifications/helpers";
import { startTestGateway } from "../support/gateway";

/**
 * Issue 19 item 22: /sandbox/clock moves business time only. Tokens, staff TOTP codes and
 * sessions, and the webhook-timestamp of pushes stay on real time, which an authenticator app and
 * a Standard Webhooks receiver read too.
 */
const TWO_DAYS = 2 * 86_400;
const closing: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of closing.reverse()) await c();
});

const tokenOf = async (base: string, id: string, secret: string) => {
  const res = await fetch(`${base}/oauth/token`, { method: "POST", headers: { authorization: `Basic ${btoa(`${id}:${secret}`)}`, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
};

test("on the wall clock, two days after the sandbox clock moved: the token works, a real TOTP logs in, and the push verifies on real time", async () => {
  const g = await startListeningGateway();
  closing.push(() => g.close());
  const rx = startReceiver();
  closing.push(() => rx.stop());
  const token = await tokenOf(g.url, g.clientId, g.clientSecret);
  const asSeller = (method: string, path: string, body?: unknown) =>
    fetch(`${g.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

  // A staff account made by the real CLI on the gateway's store, as an operator would.
  const out: string[] = [];
  const io = { out: (l: string) => out.push(l), err: () => {}, env: {}, stdin: async () => "" };
  expect(await staffCommand(["add", "tess", "--role", "agent", "--json"], io, { store: g.gw.store, fieldKey: g.gw.orders.ctx.fieldKey, clock: systemClock, issuer: "XB Test" })).toBe(0);
  const staff = JSON.parse(out[0]!) as { password: string; totpSecret: string };

  const sub = await asSeller("POST", "/notifications/subscriptions", { url: rx.url, events: ["order.payment_expired"] });
  expect(sub.status).toBe(201);
  const secret = ((await sub.json()) as { secret: string }).secret;
  const c = sandboxClient(g);
  const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
  const held = await c.create({ offers: [selectAll(shop.offers[0]!)], passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE", title: "MS" }] });
  expect(Date.parse(held.paymentTimeLimit!)).toBeLessThan(Date.now() + TWO_DAYS * 1000);

  const moved = await asSeller("POST", "/sandbox/clock", { advanceSeconds: TWO_DAYS });
  expect(moved.status).toBe(200);
  const report = (await moved.json()) as { now: string; jobs: Record<string, Record<string, number>> };
  // Business time moved: the held order lapsed and its push went out.
  expect(Date.parse(report.now) - Date.now()).toBeGreaterThan(TWO_DAYS * 1000 - 60_000);
  expect(report.jobs["orders.expire-unpaid"]).toEqual({ cancelled: 1 });

  // The bearer token (30 minutes of real time) is still good.
  expect((await asSeller("GET", "/notifications/subscriptions")).status).toBe(200);

  // A code from a real authenticator (the wall clock's TOTP step) logs in.
  const login = await fetch(`${g.url}/staff/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "tess", password: staff.password, totp: totpAt(staff.totpSecret, Date.now()) }) });
  expect(login.status).toBe(200);
  // And its session is not already idle-expired on the moved clock.
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  expect((await fetch(`${g.url}/staff/api/session`, { headers: { cookie } })).status).toBe(200);

  // The push is stamped with real time and passes the client's Standard Webhooks verifier at its default 300 s.
  expect(rx.requests).toHaveLength(1);
  const push = rx.requests[0]!;
  expect(Math.abs(Number(push.headers.get("webhook-timestamp")) - push.at / 1000)).toBeLessThan(5);
  expect(verifyWebhook(secret, webhookHeaders(push.headers), push.body)).toEqual({ ok: true });
}, 60_000);

test("on an injected clock: a token outlives a two-day sandbox move, then expires after 1800 s of the security clock", async () => {
  const real = new ManualClock();
  const t = await startTestGateway({ GATEWAY_MODE: "local" }, real);
  closing.push(() => t.close());
  const post = (path: string, headers: Record<string, string>, body: string) => t.fetch(path, { method: "POST", headers, body });
  const tokenRes = await post("/oauth/token", { authorization: `Basic ${btoa(`${t.gw.sandbox!.client_id}:${t.gw.sandbox!.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" }, "grant_type=client_credentials");
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  const list = () => t.fetch("/notifications/subscriptions", { headers: { authorization: `Bearer ${token}` } });

  const moved = await post("/sandbox/clock", { authorization: `Bearer ${token}`, "content-type": "application/json" }, JSON.stringify({ advanceSeconds: TWO_DAYS }));
  expect(moved.status).toBe(200);
  // Business time moved two days; the security clock did not.
  expect(((await moved.json()) as { now: string }).now).toBe(new Date(real.now() + TWO_DAYS * 1000).toISOString());
  expect(t.gw.securityClock.now()).toBe(real.now());
  expect((await list()).status).toBe(200);
  real.advance(1799_000);
  expect((await list()).status).toBe(200);
  real.advance(1000);
  const expired = await list();
  expect(expired.status).toBe(401);
  expect(((await expired.json()) as { error: string }).error).toBe("invalid_token");
}, 30_000);
