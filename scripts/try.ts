#!/usr/bin/env bun
/**
 * `npm run try [-- <base-url>]`: the seller's first journey against a running local gateway
 * (`npm start`), printed step by step: token, AirShoppingRQ, OfferPriceRQ, SeatAvailabilityRQ,
 * OrderCreateRQ (flight and a seat, paid with a sandbox card token), OrderRetrieveRQ. Each id
 * is taken from the answer before it, as a seller's system would. Exits 1 at the first step that
 * fails, naming it and the error code the gateway answered.
 *
 * Base URL: the argument, else http://127.0.0.1:$PORT (8080). Credentials: the sandbox seller
 * the gateway wrote to $GATEWAY_DATA_DIR/sandbox-credentials.json (./data) in local mode.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { all, blocks, decimal, firstOffer, minor, totalPrice } from "./try/read";
import { airShoppingRQ, offerPriceRQ, orderCreateRQ, orderRetrieveRQ, seatAvailabilityRQ } from "./try/requests";

const base = (process.argv[2] ?? `http://127.0.0.1:${process.env.PORT || 8080}`).replace(/\/$/, "");
const credsFile = join(process.env.GATEWAY_DATA_DIR || "data", "sandbox-credentials.json");
/** A fresh CorrelationID per run (and TrxID for the booking), so a rerun books again instead of replaying. */
const run = `TRY-${Date.now().toString(36).toUpperCase()}`;

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

async function token(): Promise<string> {
  const c = readCredentials();
  const basic = Buffer.from(`${encodeURIComponent(c.client_id)}:${encodeURIComponent(c.client_secret)}`).toString("base64");
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  }).catch((e: Error) => fail("token", `${base} does not answer (${e.message}); is the gateway running?`));
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string; scope?: string };
  if (res.status !== 200 || !body.access_token) fail("token", `HTTP ${res.status} ${body.error ?? ""}`);
  console.log(`✓ token            POST /oauth/token -> 200, scopes: ${body.scope}`);
  return body.access_token;
}

async function ndc(bearer: string, message: string, xml: string): Promise<string> {
  const res = await fetch(`${base}/24.4/${message}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "content-type": "application/xml", "iata-message-name": `IATA_${message}` },
    body: xml,
  });
  const text = await res.text();
  if (res.status !== 200 || /<(?:cns:)?Error>/.test(text)) {
    fail(message, `HTTP ${res.status} ${all(text, "Code")[0] ?? ""} ${all(text, "DescText")[0] ?? ""}`.trim());
  }
  return text;
}

const step = (name: string, line: string) => console.log(`✓ ${name.padEnd(16)} ${line}`);

const bearer = await token();

// A date a month ahead: always inside the sandbox's 330-day schedule.
const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const shop = await ndc(bearer, "AirShoppingRQ", airShoppingRQ({ from: "LHR", to: "CDG", date, correlationId: `${run}-SHOP` }));
const offer = firstOffer(shop);
step("AirShopping", `LHR-CDG ${date}: ${blocks(shop, "Offer").length} offers; first ${offer.offerId} at ${offer.total} EUR`);

const priced = await ndc(bearer, "OfferPriceRQ", offerPriceRQ({ offer, correlationId: `${run}-PRICE` }));
const pricedTotal = totalPrice(blocks(priced, "PricedOffer")[0] ?? priced);
step("OfferPrice", `${offer.offerId} priced at ${pricedTotal} EUR`);

const seats = await ndc(bearer, "SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: offer.offerId, correlationId: `${run}-SEATS` }));
const seatOffer = blocks(seats, "ALaCarteOffer")[0];
if (!seatOffer) fail("SeatAvailabilityRQ", "no seat offer in the answer");
const seatItem = blocks(seatOffer, "OfferItem")[0]!;
const seat = { offerId: all(seatOffer, "OfferID")[0]!, itemId: all(seatItem, "OfferItemID")[0]!, price: all(seatItem, "TotalAmount")[0]! };
step("SeatAvailability", `${blocks(seatOffer, "OfferItem").length} seats for sale; taking ${seat.itemId} at ${seat.price} EUR`);

// What OrderCreateRQ charges for a direct booking: the shopped offer plus the seat's unit price, a seat being one unit
// (docs/messages/OrderCreateRQ.md, "What an item costs"); OfferPriceRS adds promotions such as a fuel surcharge to its own total.
const amount = decimal(minor(offer.total) + minor(seat.price));
const created = await ndc(
  bearer,
  "OrderCreateRQ",
  orderCreateRQ({ offer, seat, amount, correlationId: `${run}-ORDER`, trxId: `${run}-TRX` }),
);
const orderId = all(created, "OrderID")[0]!;
step("OrderCreate", `order ${orderId} booked and paid ${amount} EUR (card token tok_approve_visa)`);

const read = await ndc(bearer, "OrderRetrieveRQ", orderRetrieveRQ({ orderId, correlationId: `${run}-RETRIEVE` }));
step("OrderRetrieve", `order ${all(read, "OrderID")[0]}: status ${all(read, "StatusCode")[0] ?? "?"}, ${blocks(read, "OrderItem").length} order items`);
console.log(`booked ${orderId}`);
