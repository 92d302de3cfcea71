import { createRequest, envelope, isLive, newId, NdcError, readOrderView, selectAll, signXml, verifyWebhook, webhookHeaders, type Discovery, type NdcClient, type Offer, type OrderView, type SigningKey } from "@ndc-gateway/client";
import { validate } from "./xsd";

/**
 * The conformance journey of `seller certify`, one function per step. A step throws to fail,
 * returns a detail line to pass, or returns `notRun(reason)` when the gateway (by its discovery
 * document) or the command line does not allow it. What one step learns (the offer, the order)
 * is kept in `Journey` for the next.
 */
export class NotRun {
  constructor(readonly reason: string) {}
}
export const notRun = (reason: string) => new NotRun(reason);

export interface Journey {
  client: NdcClient;
  discovery?: Discovery;
  schemas: string;
  cardToken: string;
  signingKey?: SigningKey;
  route?: { origin: string; destination: string; date: string };
  offer?: Offer;
  order?: OrderView;
  /** Waits for a pushed notification at most this long. */
  pushTimeoutMs: number;
}

export type Step = { name: string; run: (j: Journey) => Promise<string | NotRun> };

const passenger = { paxId: "PAX1", ptc: "ADT" as const, givenName: "Certify", surname: "TRAVELLER", title: "MR", birthdate: "1980-02-03" };
const ref = (j: Journey) => ({ orderId: j.order!.orderId, ownerCode: j.discovery!.airline.designator });
const needs = (j: Journey, ...messages: string[]) => {
  const missing = messages.filter((m) => !isLive(j.discovery!, m));
  return missing.length ? notRun(`discovery does not list ${missing.join(", ")} as live`) : undefined;
};
const needOrder = (j: Journey) => (j.order ? undefined : notRun("no order: the booking step did not pass"));

export const STEPS: Step[] = [
  {
    name: "discovery",
    run: async (j) => {
      const d = await j.client.discovery();
      if (d.version !== "24.4") throw new Error(`version is ${d.version}, not 24.4`);
      if (!d.airline?.designator || !d.tokenUrl || !Array.isArray(d.messages)) throw new Error("airline.designator, tokenUrl and messages are required");
      j.discovery = d;
      return `${d.airline.designator}, mode ${d.mode ?? "?"}, ${d.messages.filter((m) => m.status === "live").length} live messages`;
    },
  },
  {
    name: "token",
    run: async (j) => {
      const t = await j.client.tokens!.get();
      return `scopes ${t.scope}, ${Math.round((t.expiresAt - Date.now()) / 1000)} s`;
    },
  },
  {
    name: "shop",
    run: async (j) => {
      const route = j.route;
      if (!route) throw new Error("discovery lists no sandbox city pairs: give --from and --to");
      const r = await j.client.shop({ ...route, passengers: [{ paxId: "PAX1", ptc: "ADT" }] });
      // A renameable fare when there is one, so the change step can correct a name.
      j.offer = r.offers.find((o) => o.nameChangeAllowed) ?? r.offers[0];
      if (!j.offer) throw new Error(`no offer for ${route.origin}-${route.destination} on ${route.date}`);
      return `${route.origin}-${route.destination} ${route.date}: ${r.offers.length} offers; taking ${j.offer.offerId} (${j.offer.brand ?? "?"})`;
    },
  },
  {
    name: "price",
    run: async (j) => {
      if (!j.offer) return notRun("no offer from the shop step");
      const r = await j.client.price({ offers: [selectAll(j.offer)] });
      return `${r.offer.offerId}: ${r.offer.total?.amount} ${r.offer.total?.currency}`;
    },
  },
  {
    name: "seat map",
    run: async (j) => {
      if (!j.offer) return notRun("no offer from the shop step");
      const r = await j.client.seats({ offerId: j.offer.offerId, ownerCode: j.offer.ownerCode });
      return `${r.seats.filter((s) => s.offerItemId).length} seats for sale of ${r.seats.length}`;
    },
  },
  {
    name: "book held",
    run: async (j) => {
      if (!j.offer) return notRun("no offer from the shop step");
      j.order = await j.client.create({ offers: [selectAll(j.offer)], passengers: [passenger], sign: false });
      if (!j.order.orderId) throw new Error("OrderViewRS without an OrderID");
      return `${j.order.orderId} ${j.order.status}, pay by ${j.order.paymentTimeLimit ?? "?"}`;
    },
  },
  {
    name: "pay",
    run: async (j) => {
      const skip = needOrder(j) ?? needs(j, "OrderChangeRQ");
      if (skip) return skip;
      const total = j.order!.total;
      if (!total) throw new Error("the held order shows no TotalPrice to pay");
      const paid = await j.client.pay({ ...ref(j), payment: { ...total, cardToken: j.cardToken } });
      return `${paid.status}, ${total.amount} ${total.currency} by ${j.cardToken}`;
    },
  },
  {
    name: "retrieve",
    run: async (j) => {
      const skip = needOrder(j) ?? needs(j, "OrderRetrieveRQ");
      if (skip) return skip;
      const o = await j.client.retrieve(ref(j));
      if (o.orderId !== j.order!.orderId) throw new Error(`asked for ${j.order!.orderId}, got ${o.orderId}`);
      return `${o.orderId} ${o.status}`;
    },
  },
  {
    name: "list",
    run: async (j) => {
      const skip = needOrder(j) ?? needs(j, "OrderListRQ");
      if (skip) return skip;
      const since = new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
      const r = await j.client.list({ createdFrom: since });
      if (!r.orders.some((o) => o.orderId === j.order!.orderId)) throw new Error(`${j.order!.orderId} is not in the list of orders created since ${since}`);
      return `${r.orders.length} orders, ${j.order!.orderId} among them`;
    },
  },
  {
    name: "history",
    run: async (j) => {
      const skip = needOrder(j) ?? needs(j, "OrderHistoryRQ");
      if (skip) return skip;
      const h = await j.client.history(ref(j));
      if (!h.changes.length) throw new Error("no change in the order's history");
      return h.changes.map((c) => c.type).join(", ");
    },
  },
  {
    name: "change",
    run: async (j) => {
      const skip = needOrder(j) ?? needs(j, "OrderChangeRQ");
      if (skip) return skip;
      if (!j.offer?.nameChangeAllowed) return notRun("no shopped fare allows a name change");
      const o = await j.client.rename({ ...ref(j), paxId: "PAX1", givenName: "Certified", surname: "TRAVELLER", title: "MR" });
      if (o.passengers.find((p) => p.paxId === "PAX1")?.givenName !== "Certified") throw new Error("the answer does not show the corrected name");
      return `PAX1 renamed, order version ${o.version ?? "?"}`;
    },
  },
  {
    name: "cancel",
    run: async (j) => {
      const skip = needOrder(j) ?? needs(j, "OrderReshopRQ", "OrderChangeRQ");
      if (skip) return skip;
      const r = await j.client.cancel(ref(j));
      if (r.view.status !== "CANCELLED") throw new Error(`status ${r.view.status} after accepting the cancel quote`);
      return `refund ${r.quote.offers[0]?.total?.amount ?? "?"} ${r.quote.offers[0]?.total?.currency ?? ""}, ${r.view.status}`.trim();
    },
  },
  { name: "signed OrderCreate", run: signedOrderCreate },
  { name: "pushed notification", run: pushedNotification },
];

/**
 * Where discovery lists OrderCreateRQ under `signatures.requests.messages`: first a copy changed
 * after signing, which a verifying gateway must refuse (400 or 401), then the unchanged request,
 * which must book. A gateway whose policy for this seller is `none` may book the changed copy
 * only if it says so (`signature_not_checked`), never silently.
 */
async function signedOrderCreate(j: Journey): Promise<string | NotRun> {
  const signedMessages = j.discovery?.signatures?.requests?.messages ?? [];
  if (!signedMessages.includes("OrderCreateRQ")) return notRun("discovery lists no signed OrderCreateRQ (signatures.requests.messages)");
  if (!j.signingKey) return notRun("no --key and --cert to sign with");
  if (!j.offer) return notRun("no offer from the shop step");
  const fresh = await j.client.shop({ ...j.route!, passengers: [{ paxId: "PAX1", ptc: "ADT" }] });
  const offer = fresh.offers[0]!;
  const ids = { correlationId: newId("CERT-SIGNED"), trxId: newId("TRX") };
  const xml = signXml(envelope("OrderCreateRQ", { carrier: j.discovery!.airline.designator, ...ids }, createRequest({ offers: [selectAll(offer)], passengers: [passenger] })), j.signingKey);
  const tampered = xml.replace("<cns:GivenName>Certify</cns:GivenName>", "<cns:GivenName>Forged</cns:GivenName>");
  const tamperedIds = { correlationId: newId("CERT-TAMPERED"), trxId: newId("TRX") };
  const outcome = await j.client.send("OrderCreateRQ", tampered, tamperedIds).then(
    (r) => ({ accepted: readOrderView(r.xml) }),
    (e) => ({ refused: e as unknown }),
  );
  if ("accepted" in outcome) {
    // A gateway whose agreement with this seller is `none` books and says it did not check: honest, and shown as such.
    if (outcome.accepted.warnings.some((w) => w.code === "signature_not_checked")) {
      return `policy none: a request changed after signing booked ${outcome.accepted.orderId} with signature_not_checked (the gateway says it did not verify)`;
    }
    throw new Error("a request changed after signing was accepted without signature_not_checked; it must be refused 400 or 401");
  }
  const refusal = outcome.refused;
  if (!(refusal instanceof NdcError) || (refusal.status !== 400 && refusal.status !== 401)) {
    throw new Error(`a request changed after signing was answered ${(refusal as Error).message}; it must be refused 400 or 401`);
  }
  const booked = readOrderView((await j.client.send("OrderCreateRQ", xml, ids)).xml);
  return `changed copy refused ${refusal.status} ${refusal.code}; signed request booked ${booked.orderId}`;
}

/**
 * Where discovery lists `order.payment_expired` and the gateway is local (the only mode whose
 * clock a seller may move): subscribe a receiver on this machine, hold an order, move the sandbox
 * clock past its payment time limit, and check the push's webhook signature and XSD.
 */
async function pushedNotification(j: Journey): Promise<string | NotRun> {
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
    const held = await j.client.create({ offers: [selectAll(fresh.offers[0]!)], passengers: [passenger], sign: false });
    if (!held.paymentTimeLimit) throw new Error("the held order shows no payment time limit");
    want = `>${held.orderId}<`;
    const advanceSeconds = Math.max(60, Math.ceil((Date.parse(held.paymentTimeLimit) - Date.now()) / 1000) + 60);
    const moved = await j.client.json("POST", "/sandbox/clock", { advanceSeconds });
    if (moved.status !== 200) throw new Error(`POST /sandbox/clock answered ${moved.status} ${moved.json?.error ?? ""}`);
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), j.pushTimeoutMs));
    if ((await Promise.race([got, timeout])) === "timeout") throw new Error(`no push within ${j.pushTimeoutMs / 1000} s of moving the clock`);
    const push = pushes.find((p) => p.body.includes(want))!;
    // The gateway's clock moved: judge the timestamp by the clock it now reads.
    const gatewayNow = Date.parse(moved.json.now);
    const wh = verifyWebhook(sub.secret, webhookHeaders(push.headers), push.body, { now: gatewayNow });
    if (!wh.ok) throw new Error(`webhook signature: ${wh.reason}`);
    const xsd = validate(push.body, j.schemas);
    if (!xsd.ok) throw new Error(`the push is not valid against ${xsd.schema}: ${xsd.detail}`);
    return `${xsd.schema.replace(".xsd", "")} for ${held.orderId}: webhook signature valid, XSD valid (clock moved ${advanceSeconds} s)`;
  } finally {
    receiver.stop(true);
    if (subId) await j.client.json("DELETE", `/notifications/subscriptions/${subId}`).catch(() => undefined);
  }
}
