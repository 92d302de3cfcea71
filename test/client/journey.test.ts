import { afterAll, beforeAll, expect, test } from "bun:test";
import { party, selectAll, type Offer } from "@ndc-gateway/client";
import { sandboxClient, startListeningGateway, travelDate, type ListeningGateway } from "./support";

/**
 * Issue 11 item 6: @ndc-gateway/client against the real gateway over HTTP. Every request the
 * client builds and every answer it reads is checked against its 24.4 XSD by the test's fetch
 * wrapper (support.ts), so each builder and reader below is proved on the wire.
 */
let g: ListeningGateway;
beforeAll(async () => {
  g = await startListeningGateway();
});
afterAll(async () => {
  await g.close();
});

const adult = { paxId: "PAX1", ptc: "ADT" as const, givenName: "Ada", surname: "LOVELACE", title: "MS", birthdate: "1985-12-10" };

async function flexOffer(c: ReturnType<typeof sandboxClient>): Promise<Offer> {
  const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
  const offer = shop.offers.find((o) => o.brand === "FLEX");
  expect(offer?.nameChangeAllowed).toBe(true);
  return offer!;
}

test("the thirteen messages: shop, price, seats, services, create, retrieve, list, history, change, reshop, quote, rules, cancel", async () => {
  const exchanges: { message: string; requestEncoding: string; responseEncoding: string }[] = [];
  const c = sandboxClient(g, { onExchange: (e) => exchanges.push(e) });

  const shop = await c.shop({ origin: "LHR", destination: "CDG", date: travelDate(), passengers: party({ adults: 1 }) });
  expect(shop.offers.length).toBeGreaterThan(3);
  expect(shop.offers.map((o) => o.brand)).toContain("SAVER");
  const offer = shop.offers.find((o) => o.brand === "FLEX")!;
  expect(offer.items[0]!.paxRefIds).toEqual(["PAX1"]);
  expect(Number(offer.total!.amount)).toBeGreaterThan(0);

  const priced = await c.price({ offers: [selectAll(offer)] });
  expect(priced.offer.offerId).toMatch(/^OPR-/);
  expect(priced.offer.total?.currency).toBe("EUR");

  const seats = await c.seats({ offerId: offer.offerId, ownerCode: "XB" });
  const forSale = seats.seats.filter((s) => s.status === "F" && s.offerItemId);
  expect(forSale.length).toBeGreaterThan(10);
  expect(seats.offers[0]!.items.map((i) => i.offerItemId)).toContain(forSale[0]!.offerItemId!);

  const services = await c.services({ offerId: offer.offerId, ownerCode: "XB" });
  expect(services.offers[0]!.items.length).toBeGreaterThan(0);
  expect(services.services.length).toBeGreaterThan(0);

  const held = await c.create({ offers: [selectAll(offer)], passengers: [adult] });
  expect(held.orderId).toMatch(/^ORD-/);
  expect(held.items.every((i) => i.status === "HELD")).toBe(true);
  expect(held.paymentTimeLimit).toBeDefined();
  expect(held.passengers).toEqual([{ paxId: "PAX1", ptc: "ADT", givenName: "Ada", surname: "LOVELACE" }]);

  const ref = { orderId: held.orderId, ownerCode: "XB" };
  const paid = await c.pay({ ...ref, payment: { ...held.total!, cardToken: "tok_approve_visa" } });
  expect(paid.status).toBe("BOOKED");

  expect((await c.retrieve(ref)).status).toBe("BOOKED");
  const list = await c.list({ createdFrom: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, "Z") });
  expect(list.orders.map((o) => o.orderId)).toContain(held.orderId);
  expect(list.warnings.map((w) => w.code)).toContain("order_list_page");
  const history = await c.history(ref);
  expect(history.changes.map((ch) => ch.type)).toEqual(expect.arrayContaining(["ORDER_CREATED", "PAYMENT_AUTHORISED"]));

  const rules = await c.rules(ref);
  expect(rules.rules[0]!.ruleCode).toBe("FLEX");
  expect(rules.penalties.some((p) => p.appliesNow)).toBe(true);

  const renamed = await c.rename({ ...ref, paxId: "PAX1", givenName: "Augusta", surname: "LOVELACE", title: "MS" });
  expect(renamed.passengers[0]!.givenName).toBe("Augusta");

  const extras = await c.reshopServices({ ...ref, taxonomyCode: "1B58", flight: { origin: "LHR", destination: "CDG", date: travelDate() } });
  const extra = extras.offers[0]!;
  expect(extra.items.length).toBeGreaterThan(0);
  const quote = await c.quote({ ...ref, offer: { offerId: extra.offerId, ownerCode: "XB", items: [{ offerItemId: extra.items[0]!, paxRefIds: ["PAX1"], qty: 1 }] } });
  expect(quote.offers[0]!.offerId).toBeTruthy();

  const cancelled = await c.cancel(ref);
  expect(cancelled.quote.offers[0]!.offerId).toMatch(/^CXQ\./);
  expect(cancelled.view.status).toBe("CANCELLED");

  // gzip both ways on every NDC exchange: discovery says the gateway takes gzip bodies.
  expect(exchanges.length).toBe(15); // pay, rename and the cancel acceptance are three OrderChangeRQ; cancel is a reshop then a change
  expect(exchanges.every((e) => e.requestEncoding === "gzip" && e.responseEncoding === "gzip")).toBe(true);
  // One token for the whole journey.
  expect(c.tokens!.fetched).toBe(1);
  expect(c.requests.filter((r) => r === "POST /oauth/token")).toHaveLength(1);
}, 120_000);

test("the token is refreshed before it expires, not after a refusal", async () => {
  let offset = 0;
  const c = sandboxClient(g, { now: () => Date.now() + offset });
  await c.list();
  await c.list();
  expect(c.tokens!.fetched).toBe(1);
  // 1800 s tokens, refreshed 60 s before expiry: at 1745 s the cached one is still used, at 1750 s a new one is fetched.
  offset = 1_735_000;
  await c.list();
  expect(c.tokens!.fetched).toBe(1);
  offset = 1_745_000;
  await c.list();
  expect(c.tokens!.fetched).toBe(2);
  expect(c.requests.filter((r) => r === "POST /oauth/token")).toHaveLength(2);
  // No NDC call was refused on the way: every list went through once.
  expect(c.requests.filter((r) => r === "POST /24.4/OrderListRQ")).toHaveLength(4);
}, 60_000);

test("concurrent first calls share one token request", async () => {
  const c = sandboxClient(g);
  await Promise.all([c.list(), c.list(), c.list(), c.list()]);
  expect(c.requests.filter((r) => r === "POST /oauth/token")).toHaveLength(1);
}, 60_000);

test("an OrderCreateRQ whose answer is lost is sent again with the same CorrelationID and TrxID, and books once", async () => {
  const sent: string[] = [];
  let dropped = false;
  const c = sandboxClient(g);
  const offer = await flexOffer(c);
  const lossy = sandboxClient(g, {
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (url.endsWith("/OrderCreateRQ")) {
        sent.push(Buffer.from(init!.body as Uint8Array).toString("base64"));
        // The gateway booked, then the connection dropped before the answer arrived.
        if (!dropped) {
          dropped = true;
          await res.arrayBuffer();
          throw new TypeError("socket closed");
        }
      }
      return res;
    },
    retry: { baseDelayMs: 10 },
  });
  const order = await lossy.create({ offers: [selectAll(offer)], passengers: [adult] });
  expect(sent).toHaveLength(2);
  expect(sent[1]).toBe(sent[0]!); // the same bytes, so the same CorrelationID and TrxID
  const mine = (await c.list()).orders.filter((o) => o.orderId === order.orderId);
  expect(mine).toHaveLength(1);
  // The seller may also resume by hand with the ids create returned: the same order comes back.
  const again = await c.create({ offers: [selectAll(offer)], passengers: [adult], correlationId: order.correlationId, trxId: order.trxId });
  expect(again.orderId).toBe(order.orderId);
  const all = (await c.list()).orders;
  expect(new Set(all.map((o) => o.orderId)).size).toBe(all.length);
}, 60_000);

test("an NDC refusal is an NdcError with the wire code and the element at fault", async () => {
  const c = sandboxClient(g);
  const err = await c.retrieve({ orderId: "ORD-000000000000", ownerCode: "XB" }).catch((e) => e);
  expect(err.name).toBe("NdcError");
  expect(err.status).toBe(404);
  expect(err.code).toBe("order_not_found");
}, 30_000);
