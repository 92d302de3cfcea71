import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { T0 } from "../orders-http/helpers";
import { all, blocks } from "../shopping/shop-requests";
import { bookBrand } from "./helpers";

/** OrderViewRS on OrderRetrieveRQ in the seller's language (spec 4.8 rule 1), over HTTP, XSD-checked. */
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1", ORDERS_BACKGROUND_MS: "0" }, new ManualClock(T0));
});
afterAll(() => t.close());

function retrieve(orderId: string, o: { langUsage?: string[]; primary?: string }): string {
  const rp = o.langUsage ? `<cns:ResponseParameters>${o.langUsage.map((l) => `<cns:LangUsage><cns:LangCode>${l}</cns:LangCode></cns:LangUsage>`).join("")}</cns:ResponseParameters>` : "";
  const xml = ndcRequest("OrderRetrieveRQ", {
    request: `<cns:OrderValidationFilterCriteria><cns:OrderFilterCriteria><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:OrderFilterCriteria></cns:OrderValidationFilterCriteria>${rp}`,
    correlationId: "loc-1",
  });
  return o.primary ? xml.replace("</cns:CorrelationID>", `</cns:CorrelationID><cns:PrimaryLangID>${o.primary}</cns:PrimaryLangID>`) : xml;
}

/** The distinct station names of the order's segments, sorted. */
const stations = (xml: string) => [...new Set(all(xml, "StationName"))].sort();
const languages = (xml: string) => all(blocks(xml, "Processing")[0] ?? "", "LangCode");
const warnings = (xml: string) => blocks(xml, "Warning").map((w) => all(w, "Code")[0]);

test("LangUsage fr: station names in French, Processing/LangUsage fr, no fallback", async () => {
  const b = await bookBrand(t, "CLASSIC");
  const r = await t.ndc("OrderRetrieveRQ", retrieve(b.orderId, { langUsage: ["fr"] }));
  expect(r.status).toBe(200);
  expect(stations(r.body)).toEqual(["Londres Heathrow", "Paris Charles de Gaulle"]);
  expect(languages(r.body)).toEqual(["fr"]);
  expect(warnings(r.body)).not.toContain("content_language_fallback");
});

test("PrimaryLangID zh-Hant resolves to zh when no LangUsage is sent", async () => {
  const b = await bookBrand(t, "CLASSIC");
  const r = await t.ndc("OrderRetrieveRQ", retrieve(b.orderId, { primary: "zh-Hant" }));
  expect(r.status).toBe(200);
  expect(stations(r.body)).toContain("伦敦希思罗");
  // The brand's benefits in the order's PriceClass are untranslated in zh (docs/supply.md): English beside it.
  expect(languages(r.body)).toEqual(["en", "zh"]);
});

test("an untranslated language answers in English with content_language_fallback; the same order read again in fr is French", async () => {
  const b = await bookBrand(t, "CLASSIC");
  const ja = await t.ndc("OrderRetrieveRQ", retrieve(b.orderId, { langUsage: ["ja"] }));
  expect(stations(ja.body)).toEqual(["London Heathrow", "Paris Charles de Gaulle"]);
  expect(languages(ja.body)).toEqual(["en"]);
  expect(warnings(ja.body)).toContain("content_language_fallback");
  // The encoded view is kept per order: a different language is not served from the English one.
  const fr = await t.ndc("OrderRetrieveRQ", retrieve(b.orderId, { langUsage: ["fr"] }));
  expect(stations(fr.body)).toEqual(["Londres Heathrow", "Paris Charles de Gaulle"]);
  const none = await t.ndc("OrderRetrieveRQ", retrieve(b.orderId, {}));
  expect(stations(none.body)).toEqual(["London Heathrow", "Paris Charles de Gaulle"]);
  expect(languages(none.body)).toEqual(["en"]);
  expect(warnings(none.body)).not.toContain("content_language_fallback");
});
