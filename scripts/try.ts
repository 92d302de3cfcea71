#!/usr/bin/env bun
/**
 * `npm run try [-- <base-url>]`: the seller's first journey against a running local gateway
 * (`npm start`), printed step by step: token, AirShoppingRQ, OfferPriceRQ, SeatAvailabilityRQ,
 * OrderCreateRQ (flight and a seat, paid with a sandbox card token), OrderRetrieveRQ. Each id
 * is taken from the answer before it, as a seller's system would, through @ndc-gateway/client
 * (docs/seller-toolkit.md). Exits 1 at the first step that fails, naming it and the error code
 * the gateway answered.
 *
 * Base URL: the argument, else http://127.0.0.1:$PORT (8080). Credentials: the sandbox seller
 * the gateway wrote to $GATEWAY_DATA_DIR/sandbox-credentials.json (./data) in local mode.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NdcClient, NdcError, party, selectAll } from "@ndc-gateway/client";

const base = (process.argv[2] ?? `http://127.0.0.1:${process.env.PORT || 8080}`).replace(/\/$/, "");
const credsFile = join(process.env.GATEWAY_DATA_DIR || "data", "sandbox-credentials.json");

function fail(step: string, detail: string): never {
  console.error(`✗ ${step}: ${detail}`);
  process.exit(1);
}

function readCredentials(): { client_id: string; client_secret: string } {
  try {
    return JSON.parse(readFileSync(credsFile, "utf8"));
  } catch {
    fail("credentials", `cannot read ${credsFile}; start the gateway in local mode first (npm start)`);
  }
}

/** Runs one step; an NDC refusal or a gateway that does not answer ends the journey with its reason. */
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof NdcError) fail(name, `HTTP ${e.status} ${e.code} ${e.message.split(": ").slice(2).join(": ")}`.trim());
    fail(name, `${(e as Error).message}; is the gateway running at ${base}?`);
  }
}

const line = (name: string, text: string) => console.log(`✓ ${name.padEnd(16)} ${text}`);

const creds = readCredentials();
const ndc = new NdcClient({ baseUrl: base, clientId: creds.client_id, clientSecret: creds.client_secret, retry: { attempts: 2 } });
const token = await step("token", () => ndc.tokens!.get());
line("token", `POST /oauth/token -> 200, scopes: ${token.scope}`);

// A date a month ahead: always inside the sandbox's 330-day schedule.
const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const shop = await step("AirShoppingRQ", () => ndc.shop({ origin: "LHR", destination: "CDG", date, passengers: party({ adults: 1 }), currency: "EUR" }));
const offer = shop.offers[0] ?? fail("AirShoppingRQ", "no offer in the answer");
line("AirShopping", `LHR-CDG ${date}: ${shop.offers.length} offers; first ${offer.offerId} at ${offer.total?.amount} EUR`);

const priced = await step("OfferPriceRQ", () => ndc.price({ offers: [selectAll(offer)], currency: "EUR" }));
line("OfferPrice", `${offer.offerId} priced at ${priced.offer.total?.amount} EUR`);

const seats = await step("SeatAvailabilityRQ", () => ndc.seats({ offerId: offer.offerId, ownerCode: offer.ownerCode, currency: "EUR" }));
const seatOffer = seats.offers[0] ?? fail("SeatAvailabilityRQ", "no seat offer in the answer");
const seat = seatOffer.items[0]!;
line("SeatAvailability", `${seatOffer.items.length} seats for sale; taking ${seat.offerItemId} at ${seat.price?.amount} EUR`);

// What OrderCreateRQ charges for a direct booking: the shopped offer plus the seat's unit price, a seat being one unit
// (docs/messages/OrderCreateRQ.md, "What an item costs"); OfferPriceRS adds promotions such as a fuel surcharge to its own total.
const amount = decimal(minor(offer.total!.amount) + minor(seat.price!.amount));
const created = await step("OrderCreateRQ", () =>
  ndc.create({
    offers: [selectAll(offer), { offerId: seatOffer.offerId, ownerCode: seatOffer.ownerCode, items: [{ offerItemId: seat.offerItemId, paxRefIds: ["PAX1"] }] }],
    passengers: [{ paxId: "PAX1", ptc: "ADT", givenName: "Sandbox", surname: "TRAVELLER", title: "MR", birthdate: "1980-02-03" }],
    payment: { amount, currency: "EUR", cardToken: "tok_approve_visa" },
  }),
);
line("OrderCreate", `order ${created.orderId} booked and paid ${amount} EUR (card token tok_approve_visa)`);

const read = await step("OrderRetrieveRQ", () => ndc.retrieve({ orderId: created.orderId, ownerCode: created.ownerCode || offer.ownerCode }));
line("OrderRetrieve", `order ${read.orderId}: status ${read.status || "?"}, ${read.items.length} order items`);
console.log(`booked ${created.orderId}`);

/** Amounts as integer minor units, never binary floats: "143.50" -> 14350. */
function minor(a: string): number {
  const [units, cents = ""] = a.split(".");
  return Number(units) * 100 + Number(cents.padEnd(2, "0").slice(0, 2));
}

function decimal(m: number): string {
  return `${Math.trunc(m / 100)}.${String(m % 100).padStart(2, "0")}`;
}
