import { selectAll, verifyWebhook, webhookHeaders } from "@ndc-gateway/client";
import { notRun, passenger, type Journey, type NotRun } from "./certify-journey";
import { checkAirlineSignature } from "./airline-signature";
import { validate } from "./xsd";

/**
 * Where discovery lists `order.payment_expired` and the gateway is local (the only mode whose
 * clock a seller may move): subscribe a receiver on this machine, hold an order, move the sandbox
 * clock past its payment time limit, and check the push's webhook signature and XSD.
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
  try {
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
    return `${xsd.schema.replace(".xsd", "")} for ${held.orderId}: webhook signature valid, XSD valid${signed ? ", airline signature verified" : ""} (clock moved ${advanceSeconds} s)`;
  } finally {
    receiver.stop(true);
    if (subId) await j.client.json("DELETE", `/notifications/subscriptions/${subId}`).catch(() => undefined);
  }
}
