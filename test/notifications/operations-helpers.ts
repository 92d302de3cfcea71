import { expect } from "bun:test";
import { verifyWebhook } from "@ndc/notifications";
import type { Clock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { orderCreateRQ, orderIdOf, shopOffer, type Shopped } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { seatAvailabilityRQ } from "../shopping/seat-availability-helpers";
import { call, startReceiver, type Receiver } from "./helpers";

let n = 0;

/** A paid order on LHR-CDG with a seat sold for nothing (an economy centre seat) for its one passenger. */
export async function bookWithFreeSeat(t: TestGateway, tag: string): Promise<{ orderId: string; body: string }> {
  const shopped: Shopped = await shopOffer(t);
  const sa = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: shopped.offerId, currency: "EUR" }));
  const alc = blocks(sa.body, "ALaCarteOffer")[0]!;
  const free = blocks(alc, "OfferItem").find((i) => Number(all(i, "TotalAmount")[0]) === 0);
  expect(free).toBeDefined();
  shopped.seat = { offerId: all(alc, "OfferID")[0]!, itemIds: [all(free!, "OfferItemID")[0]!], priceMinor: 0 };
  const r = await t.ndc(
    "OrderCreateRQ",
    orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "HOPPER", doc: { number: "QZ7731XK0946" } }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: `OPS-${tag}-${++n}`, trxId: "T1" }),
  );
  expect(r.status).toBe(200);
  return { orderId: orderIdOf(r.body), body: r.body };
}

/** The pushes the receiver got for one message, each checked: Standard Webhooks signature with the secret, the 24.4 XSD, no identity document. */
export function pushesOf(rx: Receiver, secret: string, message: string): string[] {
  return rx.requests
    .filter((r) => r.path === `/24.4/${message}`)
    .map((r) => {
      expect(r.headers.get("iata-message-name")).toBe(`IATA_${message}`);
      const h = { id: r.headers.get("webhook-id")!, timestamp: r.headers.get("webhook-timestamp")!, signature: r.headers.get("webhook-signature")! };
      expect(verifyWebhook(secret, h, r.body)).toBe(true);
      assertSchemaValid(r.body);
      expect(r.body).not.toMatch(/IdentityDoc|QZ7731XK0946/);
      // OrderChangeNotifRQ carries the changed order, passengers named as in OrderViewRS (spec 6); the others name none.
      if (message !== "OrderChangeNotifRQ") expect(r.body).not.toContain("HOPPER");
      return r.body;
    });
}

export interface Subscribed {
  t: TestGateway;
  rx: Receiver;
  /** The sandbox seller's API key. */
  key: string;
  /** The subscription's signing secret. */
  secret: string;
  close(): Promise<void>;
}

/** A gateway on `clock` whose sandbox seller subscribed a real receiver on a free local port to `events`. */
export async function subscribedGateway(env: Record<string, string>, clock: Clock, events: string[]): Promise<Subscribed> {
  const t = await startTestGateway({ ORDERS_BACKGROUND_MS: "0", ...env }, clock);
  const key = t.gw.sandbox!.api_key;
  const rx = startReceiver();
  const sub = await call(t, "POST", "/notifications/subscriptions", key, { url: rx.url, events });
  expect(sub.status).toBe(201);
  return {
    t,
    rx,
    key,
    secret: sub.json.secret,
    async close() {
      rx.stop();
      await t.close();
    },
  };
}
