import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { T0, orderCreateRQ, orderIdOf, orderRetrieveRQ } from "../orders-http/helpers";
import { paymentRetryRQ } from "../orders-http/order-list-helpers";
import { all, blocks } from "../shopping/shop-requests";
import { shopBrand, BOOKING_TEST_MS } from "./helpers";

/**
 * OrderViewRS answering OrderCreateRQ and OrderChangeRQ in the seller's language (spec 4.8
 * rule 1), over HTTP; every answer is XSD-checked by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, new ManualClock(T0));
});
afterAll(() => t.close());

const stations = (xml: string) => [...new Set(all(xml, "StationName"))].sort();
const languages = (xml: string) => all(blocks(xml, "Processing")[0] ?? "", "LangCode");
const warnings = (xml: string) => blocks(xml, "Warning").map((w) => all(w, "Code")[0]);
const withPrimary = (xml: string, lang: string) => xml.replace("</cns:CorrelationID>", `</cns:CorrelationID><cns:PrimaryLangID>${lang}</cns:PrimaryLangID>`);

let n = 0;
/** OrderCreateRQ for a shopped CLASSIC offer; paid unless `held`; LangUsage (after PaymentFunctions, as 24.4 orders them) and/or PrimaryLangID. */
async function createBody(o: { langUsage?: string[]; primary?: string; held?: boolean }): Promise<{ body: string; totalText: string }> {
  const s = await shopBrand(t, "CLASSIC");
  const payment = o.held ? "" : `<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="${s.currency}">${s.totalText}</cns:Amount><cns:PaymentMethod><cns:PaymentCard><cns:TokenizedCardID>tok_approve_visa</cns:TokenizedCardID></cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
  const rp = o.langUsage ? `<cns:ResponseParameters>${o.langUsage.map((l) => `<cns:LangUsage><cns:LangCode>${l}</cns:LangCode></cns:LangUsage>`).join("")}</cns:ResponseParameters>` : "";
  const body = orderCreateRQ({ shopped: { offerId: s.offerId, itemIds: s.itemIds, totalMinor: 0 }, correlationId: `LOC-${++n}`, trxId: "T1" }).replace("</Request>", `${payment}${rp}</Request>`);
  return { body: o.primary ? withPrimary(body, o.primary) : body, totalText: s.totalText };
}

test("OrderCreateRQ LangUsage fr: the booked order in French; the replay of the same body is the same bytes", async () => {
  const { body } = await createBody({ langUsage: ["fr"] });
  const first = await t.ndc("OrderCreateRQ", body);
  expect(first.status).toBe(200);
  expect(stations(first.body)).toEqual(["Londres Heathrow", "Paris Charles de Gaulle"]);
  expect(languages(first.body)).toEqual(["fr"]);
  expect(warnings(first.body)).not.toContain("content_language_fallback");
  const replay = await t.ndc("OrderCreateRQ", body);
  expect(replay.status).toBe(200);
  expect(replay.body).toBe(first.body);
  // A later default-language read of the same order is English (not the French answer kept for the create).
  const orderId = orderIdOf(first.body);
  const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(stations(read.body)).toEqual(["London Heathrow", "Paris Charles de Gaulle"]);
});

test("OrderCreateRQ PrimaryLangID zh-Hant resolves to zh; an untranslated ja falls back to English with the warning", async () => {
  const zh = await t.ndc("OrderCreateRQ", (await createBody({ primary: "zh-Hant" })).body);
  expect(zh.status).toBe(200);
  expect(stations(zh.body)).toContain("伦敦希思罗");
  // The order's PriceClass (issue 20 item 9) states the brand's benefits, which the zh catalogue
  // deliberately leaves untranslated (docs/supply.md): those are English, and the answer says so.
  expect(languages(zh.body)).toEqual(["en", "zh"]);
  expect(warnings(zh.body)).toContain("content_language_fallback");
  const ja = await t.ndc("OrderCreateRQ", (await createBody({ langUsage: ["ja"] })).body);
  expect(ja.status).toBe(200);
  expect(stations(ja.body)).toEqual(["London Heathrow", "Paris Charles de Gaulle"]);
  expect(languages(ja.body)).toEqual(["en"]);
  expect(warnings(ja.body)).toContain("content_language_fallback");
});

test("OrderChangeRQ (paying a held order) answers in PrimaryLangID: fr French, zh Chinese, ja English with the warning", async () => {
  // zh: the brand's benefits in the order's PriceClass are untranslated in zh (docs/supply.md), so English beside it.
  const expected: Record<string, { station: string; langs: string[]; fallback: boolean }> = {
    fr: { station: "Londres Heathrow", langs: ["fr"], fallback: false },
    zh: { station: "伦敦希思罗", langs: ["en", "zh"], fallback: true },
    ja: { station: "London Heathrow", langs: ["en"], fallback: true },
  };
  for (const [lang, want] of Object.entries(expected)) {
    const { body, totalText } = await createBody({ held: true });
    const created = await t.ndc("OrderCreateRQ", body);
    expect(created.status).toBe(200);
    const orderId = orderIdOf(created.body);
    const paid = await t.ndc("OrderChangeRQ", withPrimary(paymentRetryRQ(orderId, totalText, "tok_approve_visa", { correlationId: `PAY-${lang}` }), lang));
    expect(paid.status).toBe(200);
    expect(paid.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
    expect(stations(paid.body)).toContain(want.station);
    expect(languages(paid.body)).toEqual(want.langs);
    expect(warnings(paid.body).includes("content_language_fallback")).toBe(want.fallback);
  }
}, BOOKING_TEST_MS);
