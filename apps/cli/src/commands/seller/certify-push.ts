import { selectAll, verifyWebhook, webhookHeaders } from "@ndc-gateway/client";
import { notRun, passenger, type Journey, type NotRun } from "./certify-journey";
import { checkAirlineSignature } from "./airline-signature";
import { validate } from "./xsd";

/**
 * Where discovery lists `order.payment_expired` and the gateway is local (the only mode whose
 * clock a seller may move): subscribe a receiver on this machine, hold an order, move the
 * seller's own sandbox clock past its payment time limit, and check the push's webhook signature
 * and XSD. Certify leaves the seller's sandbox as it found it: the subscription is deleted and the
 * clock put back to the offset it had (GET /sandbox/clock before, `offsetSeconds` after); a clean-up
 * that fails fails the step, so nothing is left behind unseen.
 */
export async function pushedNotification(j: Journey): Promise<string | NotRun> {
  const d = j.discovery!;
  if (!d.notifications?.events?.includes("order.payment_expired")) return notRun("discovery lists no order.payment_expired notifications");
  if (d.mode !== "local") return notRun(`needs a local gateway (the sandbox clock moves only there); this one is ${d.mode ?? "?"}`);
  if (!j.offer) return notRun("no offer from the shop step");
  const pushes: { headers: Headers; body: string }[] = [];
  // Other held orders may expire with ours: wait for the push that names ours.
  let want = "\u0000";
  let arrived: () => void = () => {};
  const got = new Promise<void>((r) => (arrived = r));
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = await req.text();
      pushes.push({ headers: req.headers, body });
      if (body.includes(want)) arrived();
      return new Response(null, { status: 204 });
    },
  });
  let subId: string | undefined;
  let clockFound: number | undefined;
  let passed = false;
  try {
    const found = await j.client.json("GET", "/sandbox/clock");
    if (found.status !== 200 || typeof found.json?.offsetSeconds !== "number") throw new Error(`GET /sandbox/clock answered ${found.status} ${found.json?.error ?? ""}`);
    clockFound = found.json.offsetSeconds;
    const sub = await j.client.subscribe(`http://127.0.0.1:${receiver.port}`, ["order.payment_expired"]);
    subId = sub.id;
    const fresh = await j.client.shop({ ...j.route!, passengers: [{ paxId: "PAX1", ptc: "ADT" }] });
    const held = await j.client.create({ offers: [selectAll(fresh.offers[0]!)], passengers: [passenger] });
    if (!held.paymentTimeLimit) throw new Error("the held order shows no payment time limit");
    want = `>${held.orderId}<`;
    // Measured on the gateway's clock (the order's creation time), which an earlier move may have put ahead of ours.
    const gatewayNow = Date.parse(held.createdAt ?? new Date().toISOString());
    const advanceSeconds = Math.max(60, Math.ceil((Date.parse(held.paymentTimeLimit) - gatewayNow) / 1000) + 60);
    const moved = await j.client.json("POST", "/sandbox/clock", { advanceSeconds });
    if (moved.status !== 200) throw new Error(`POST /sandbox/clock answered ${moved.status} ${moved.json?.error ?? ""}`);
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), j.pushTimeoutMs));
    if ((await Promise.race([got, timeout])) === "timeout") throw new Error(`no push within ${j.pushTimeoutMs / 1000} s of moving the clock`);
    const push = pushes.find((p) => p.body.includes(want))!;
    // Judged by this machine's clock, as any receiver does: the gateway stamps pushes with real time, not its moved sandbox clock.
    const wh = verifyWebhook(sub.secret, webhookHeaders(push.headers), push.body);
    if (!wh.ok) throw new Error(`webhook signature: ${wh.reason}`);
    const xsd = validate(push.body, j.schemas);
    if (!xsd.ok) throw new Error(`the push is not valid against ${xsd.schema}: ${xsd.detail}`);
    const signed = checkAirlineSignature(push.body, d);
    if (typeof signed === "string") throw new Error(signed);
    passed = true;
    return `${xsd.schema.replace(".xsd", "")} for ${held.orderId}: webhook signature valid, XSD valid${signed ? ", airline signature verified" : ""} (clock moved ${advanceSeconds} s, then put back)`;
  } finally {
    receiver.stop(true);
    const left = await cleanUp(j, subId, clockFound);
    // Reported when the step would otherwise pass; a failure already under way keeps its own reason.
    if (left && passed) throw new Error(left);
  }
}

/** Deletes the subscription and puts the clock back; what could not be undone, or null. */
async function cleanUp(j: Journey, subId: string | undefined, clockFound: number | undefined): Promise<string | null> {
  const problems: string[] = [];
  if (subId) {
    const r = await j.client.json("DELETE", `/notifications/subscriptions/${subId}`).catch((e: Error) => ({ status: 0, json: { error: e.message } }));
    if (r.status !== 204 && r.status !== 404) problems.push(`subscription ${subId} not deleted (${r.status} ${r.json?.error ?? ""})`);
  }
  if (clockFound !== undefined) {
    const r = await j.client.json("POST", "/sandbox/clock", { offsetSeconds: clockFound }).catch((e: Error) => ({ status: 0, json: { error: e.message } }));
    if (r.status !== 200) problems.push(`sandbox clock not put back to ${clockFound} s (${r.status} ${r.json?.error ?? ""})`);
  }
  return problems.length ? problems.join("; ") : null;
}
