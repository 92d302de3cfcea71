import { afterAll, beforeAll, expect, test } from "bun:test";
import { book, card, FARE_MINOR, start, type Ctx } from "../orders-http/order-list-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { extrasFor, quoteRQ, reshopExtrasRQ, reshopSeatRQ, seatsFor } from "./add-helpers";
import { bookCancellable, cancelQuoteRQ } from "./cancel-helpers";
import { outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * OrderReshopRS in the seller's language (spec 4.8 rule 1), each of its forms,
 * over HTTP; every answer is XSD-checked by t.ndc (xmllint --nonet).
 */
let c: Ctx;
beforeAll(async () => {
  c = await start();
});
afterAll(() => c.t.close());

const withLangUsage = (xml: string, lang: string) => xml.replace("<cns:UpdateOrder>", `<cns:ResponseParameters><cns:LangUsage><cns:LangCode>${lang}</cns:LangCode></cns:LangUsage></cns:ResponseParameters><cns:UpdateOrder>`);
const languages = (xml: string) => all(blocks(xml, "Processing")[0] ?? "", "LangCode");
const warnings = (xml: string) => blocks(xml, "Warning").map((w) => all(w, "Code")[0]);
const names = (xml: string) => blocks(xml, "ServiceDefinition").map((d) => all(d, "Name")[0]);

function flightOf(key: string) {
  const f = c.t.gw.supply.flight(key)!;
  return { from: f.origin, to: f.destination, date: f.date };
}

const requested = ["fr", "zh", "ja"] as const;

test("extras offer (ServiceCriteria): service names in fr and zh, English with content_language_fallback for ja", async () => {
  const order = await book(c, { tag: "LOC1", payment: [card(FARE_MINOR)] });
  const flight = flightOf(order.journeys[0]!.flightKeys[0]!);
  const seen = new Map<string, string>();
  for (const lang of requested) {
    const r = await c.t.ndc("OrderReshopRQ", withLangUsage(reshopExtrasRQ(order.orderId, flight, "1B58"), lang));
    expect(r.status).toBe(200);
    seen.set(lang, names(r.body)[0]!);
    expect(languages(r.body)).toContain(lang === "ja" ? "en" : lang);
  }
  expect(seen.get("fr")).toBe("Accès au salon");
  expect(seen.get("ja")).toBe("Lounge access");
  const ja = await c.t.ndc("OrderReshopRQ", withLangUsage(reshopExtrasRQ(order.orderId, flight, "1B58"), "ja"));
  expect(languages(ja.body)).toEqual(["en"]);
  expect(warnings(ja.body)).toContain("content_language_fallback");
});

test("seat offer (SeatCriteria): seat descriptions in fr and zh, English with content_language_fallback for ja", async () => {
  const order = await book(c, { tag: "LOC2", payment: [card(FARE_MINOR)] });
  const flight = flightOf(order.journeys[0]!.flightKeys[0]!);
  const { seats } = await seatsFor(c.t, order.orderId);
  const [seatId] = [...seats].find(([, i]) => i.unitMinor > 0)!;
  const descs = new Map<string, string[]>();
  for (const lang of requested) {
    const r = await c.t.ndc("OrderReshopRQ", withLangUsage(reshopSeatRQ(order.orderId, flight, "PAX1", seatId), lang));
    expect(r.status).toBe(200);
    descs.set(lang, all(r.body, "DescText"));
    expect(languages(r.body)).toContain(lang === "ja" ? "en" : lang);
    expect(warnings(r.body)).toContain("content_language_fallback");
  }
  expect(descs.get("fr")).toContain("Siège hublot");
  expect(descs.get("zh")).toContain("靠窗座位");
  expect(descs.get("ja")).toContain("Window seat");
});

test("cancel quote and flight-change offers carry only the gateway's English text: Processing/LangUsage en, no fallback warning, whatever was asked", async () => {
  const { order } = await bookCancellable(c.t, "LOC3", { brand: "CLASSIC" });
  const out = outboundOf(c.t, order);
  for (const lang of requested) {
    const cancel = await c.t.ndc("OrderReshopRQ", withLangUsage(cancelQuoteRQ(order.orderId), lang));
    expect(cancel.status).toBe(200);
    expect(languages(cancel.body)).toEqual(["en"]);
    expect(warnings(cancel.body)).not.toContain("content_language_fallback");
    const change = await c.t.ndc("OrderReshopRQ", withLangUsage(reshopFlightRQ(order.orderId, out.itemIds, out), lang));
    expect(change.status).toBe(200);
    expect(blocks(change.body, "Offer").length).toBeGreaterThan(0);
    expect(languages(change.body)).toEqual(["en"]);
    expect(warnings(change.body)).not.toContain("content_language_fallback");
  }
}, BOOKING_TEST_MS);

test("OrderQuoteRQ's OrderReshopRS carries no airline content (no service definitions): Processing/LangUsage en, no fallback warning", async () => {
  const order = await book(c, { tag: "LOC4", payment: [card(FARE_MINOR)] });
  const listed = await extrasFor(c.t, order.orderId);
  const item = listed.items.find((i) => i.unitMinor > 0)!;
  const body = quoteRQ(order.orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }]).replace("</cns:CorrelationID>", "</cns:CorrelationID><cns:PrimaryLangID>fr</cns:PrimaryLangID>");
  const r = await c.t.ndc("OrderQuoteRQ", body);
  expect(r.status).toBe(200);
  expect(blocks(r.body, "ServiceDefinition")).toEqual([]);
  expect(languages(r.body)).toEqual(["en"]);
  expect(warnings(r.body)).not.toContain("content_language_fallback");
});
