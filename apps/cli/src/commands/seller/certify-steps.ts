import { isLive, selectAll } from "@ndc-gateway/client";
import { notRun, passenger, type Journey, type Step } from "./certify-journey";
import { pushedNotification } from "./certify-push";
import { signedOrderCreate } from "./certify-signed";

const ref = (j: Journey) => ({ orderId: j.order!.orderId, ownerCode: j.discovery!.airline.designator });
const needs = (j: Journey, ...messages: string[]) => {
  const missing = messages.filter((m) => !isLive(j.discovery!, m));
  return missing.length ? notRun(`discovery does not list ${missing.join(", ")} as live`) : undefined;
};
const needOrder = (j: Journey) => (j.order ? undefined : notRun("no order: the booking step did not pass"));

/** The steps of `seller certify`, in the order they run (certify-journey.ts says how a step answers). */
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
      j.order = await j.client.create({ offers: [selectAll(j.offer)], passengers: [passenger] });
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
