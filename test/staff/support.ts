import { expect } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { auditChain, totpAt } from "@ndc/staff";
import { staffCommand } from "../../apps/cli/src/commands/staff";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { MAX_ATTEMPTS } from "@ndc/notifications";
import { RECONCILE_MAX_ATTEMPTS } from "@ndc/orders";
import { PspTimeoutError } from "@ndc/payments";
import { orderCreateRQ, orderIdOf, shopOffer, T0 } from "../orders-http/helpers";
import { acceptCancelRQ, bookCancellable, quote } from "../servicing/cancel-helpers";
import { call, startReceiver, type Receiver } from "../notifications/helpers";

/**
 * A test gateway (in process, injected clock) with staff accounts made by the real CLI command
 * on its store, logins through POST /staff/api/session with a real TOTP code, and orders booked
 * over NDC with identity documents.
 */
export interface StaffWorld {
  t: TestGateway;
  clock: ManualClock;
  /** Runs `ndc-gateway staff ...` on the gateway's store; stdin is what is piped in. */
  cli(args: string[], stdin?: string): Promise<{ code: number; out: string[]; err: string[] }>;
  /** Creates an account with the CLI; returns its password and TOTP secret. */
  addStaff(username: string, role: string): Promise<{ password: string; totpSecret: string }>;
  /** Logs in over HTTP (moving the clock to the next TOTP step first: a code is used once). */
  login(username: string): Promise<Session>;
  /** POST /staff/api/session with these credentials (the clock moved to the next TOTP step first); `totp` absent: the right code. */
  attempt(username: string, password: string, totp?: string): Promise<Response>;
  /** Books a paid order for one passenger holding a passport `number`; returns the order id. */
  book(surname: string, number: string): Promise<string>;
}

export interface Session {
  cookie: string;
  csrf: string;
  role: string;
  setCookie: string;
  /** A call with this session's cookie (and its CSRF token unless `csrf` is given, null for none). */
  call(path: string, init?: { method?: string; body?: unknown; csrf?: string | null }): Promise<Response>;
}

/** The four roles' accounts the API tests use, by the name the tests give their sessions. */
const EVERY_ROLE = { agent: ["agnes", "agent"], senior: ["sam", "senior_agent"], supervisor: ["sue", "supervisor"], admin: ["adam", "admin"] } as const;
type RoleSessions = Record<keyof typeof EVERY_ROLE, Session>;

export async function addEveryRole(w: StaffWorld): Promise<void> {
  for (const [name, role] of Object.values(EVERY_ROLE)) await w.addStaff(name, role);
}

/** A fresh session of each of the four (a test that moves the clock hours on would find old ones idle-expired). */
export async function logInEveryRole(w: StaffWorld): Promise<RoleSessions> {
  const sessions: Partial<RoleSessions> = {};
  for (const [key, [name]] of Object.entries(EVERY_ROLE)) sessions[key as keyof RoleSessions] = await w.login(name);
  return sessions as RoleSessions;
}

/**
 * `startAt`: the world's clock at boot, T0 unless a test needs the real now (certificates made by
 * openssl start at the real time); the simulated airline sells from that day, and shopOffer
 * books relative to it.
 */
export async function staffWorld(env: Record<string, string> = {}, o: { startAt?: number } = {}): Promise<StaffWorld> {
  const clock = new ManualClock(o.startAt ?? T0);
  const t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ...env }, clock);
  let booked = 0;
  const secrets = new Map<string, { password: string; totpSecret: string }>();
  const cli = async (args: string[], stdin = "") => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await staffCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, stdin: async () => stdin }, { store: t.gw.store, fieldKey: t.gw.orders.ctx.fieldKey, auditChain: auditChain(t.gw.orders.ctx.fieldKey, t.gw.config.staffAuditAnchorFile), clock, issuer: "XB Test" });
    return { code, out, err };
  };
  const world: StaffWorld = {
    t,
    clock,
    cli,
    async addStaff(username, role) {
      const r = await cli(["add", username, "--role", role, "--json"]);
      expect(r.code).toBe(0);
      const line = JSON.parse(r.out[0]!) as { password: string; totpSecret: string };
      secrets.set(username, line);
      return line;
    },
    attempt(username, password, totp) {
      clock.advance(30_000);
      const code = totp ?? totpAt(secrets.get(username)!.totpSecret, clock.now());
      return t.fetch("/staff/api/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username, password, totp: code }) });
    },
    async login(username) {
      const res = await world.attempt(username, secrets.get(username)!.password);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { csrfToken: string; role: string };
      const setCookie = res.headers.get("set-cookie")!;
      const cookie = setCookie.split(";")[0]!;
      return sessionOf(t, cookie, body.csrfToken, body.role, setCookie);
    },
    async book(surname, number) {
      const shopped = await shopOffer(t, { pax: 1 });
      const rq = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname, given: "Alex", doc: { number } }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `STAFF-${++booked}`, trxId: "TRX-1" });
      const res = await t.ndc("OrderCreateRQ", rq);
      if (res.status !== 200) throw new Error(res.body.slice(0, 2000));
      return orderIdOf(res.body);
    },
  };
  return world;
}

export function sessionOf(t: TestGateway, cookie: string, csrf: string, role: string, setCookie = ""): Session {
  return {
    cookie,
    csrf,
    role,
    setCookie,
    call(path, init = {}) {
      const headers: Record<string, string> = { cookie };
      const token = init.csrf === undefined ? csrf : init.csrf;
      if (token !== null) headers["x-csrf-token"] = token;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      return t.fetch(path, { method: init.method ?? "GET", headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
    },
  };
}

/** The one document of an order, as the staff API lists it. */
export async function documentRefOf(s: Session, orderId: string): Promise<string> {
  const res = await s.call(`/staff/api/orders/${orderId}`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { documents: { documentRef: string }[] };
  return body.documents[0]!.documentRef;
}

export const REASON = { reason: "Passenger asked at the desk to confirm passport", category: "passenger_request" };

/**
 * One open reconcile_failed item: a cancellation whose refund the PSP keeps timing out on, past the
 * reconciler's last attempt. `restore` puts the PSP right again.
 */
export async function raiseReconcileFailed(w: StaffWorld, tag: string): Promise<{ orderId: string; operationId: string; restore(): void }> {
  const { orderId } = await bookCancellable(w.t, tag);
  const q = await quote(w.t, orderId);
  const psp = w.t.gw.orders.ctx.payments.psp;
  const refund = psp.refund.bind(psp);
  psp.refund = async () => {
    throw new PspTimeoutError();
  };
  expect((await w.t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId))).status).toBe(200);
  let raised: string[] = [];
  for (let i = 0; i < RECONCILE_MAX_ATTEMPTS; i++) raised = (await w.t.gw.orders.reconcile()).raised;
  expect(raised.length).toBe(1);
  return { orderId, operationId: raised[0]!, restore: () => (psp.refund = refund) };
}

/**
 * One failed notification delivery: a held order's order.payment_expired push to a receiver that
 * answers 500 to every attempt until its schedule runs out (the clock moved past each retry).
 * The caller stops the receiver; `rx.answer` decides later answers.
 */
export async function raiseFailedDelivery(w: StaffWorld): Promise<{ rx: Receiver; orderId: string; subscriptionId: string }> {
  const rx = startReceiver(() => new Response("down", { status: 500 }));
  const key = w.t.gw.sandbox!.api_key;
  const sub = await call(w.t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["order.payment_expired"] });
  expect(sub.status).toBe(201);
  const shopped = await shopOffer(w.t, { pax: 1 });
  const orderId = orderIdOf((await w.t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "Noether" }], correlationId: `STAFF-FD-${new URL(rx.url).port}`, trxId: "TRX-1" }))).body);
  w.clock.advance(25 * 3_600_000);
  expect(await w.t.gw.orders.expireUnpaid()).toEqual([orderId]);
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    await w.t.gw.notifications.dispatcher.tick();
    w.clock.advance(11 * 3_600_000);
  }
  expect(rx.requests.length).toBe(MAX_ATTEMPTS);
  return { rx, orderId, subscriptionId: sub.json.id };
}
