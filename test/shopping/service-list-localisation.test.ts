import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { all, blocks, day, gateway, saveFlightOffer, seatAvailabilityRQ, serviceListRQ } from "./seat-availability-helpers";

let t: TestGateway;

beforeAll(async () => {
  const g = await gateway();
  t = g.t;
  await saveFlightOffer(g.repo, g.clock, g.owner, { offerId: "OFR-LANG", journeys: [t.gw.supply.journeys("LHR", "CDG", day(t, 11))[0]!] });
});
afterAll(() => t.close());

const langs = (xml: string) => all(blocks(xml, "Processing")[0]!, "LangCode");
const warnings = (xml: string) => blocks(xml, "Warning").map((w) => all(w, "Code")[0]);
const definition = (xml: string, id: string) => blocks(xml, "ServiceDefinition").find((d) => d.includes(`<cns:ServiceDefinitionID>${id}<`))!;

test("ServiceList in French: names, partner product names and captions translated; ride text composed in English", async () => {
  const r = await t.ndc("ServiceListRQ", serviceListRQ({ offerId: "OFR-LANG", langUsage: ["fr-CA"] }));
  expect(all(definition(r.body, "SD-LNGE"), "Name")).toEqual(["Accès au salon"]);
  expect(definition(r.body, "SD-LNGE")).toContain("<cns:DescText>Le salon de départ</cns:DescText>");
  expect(all(definition(r.body, "SD-PP-ESIM"), "Name")).toEqual(["eSIM, 5 Go"]);
  expect(definition(r.body, "SD-RD-LHR-RAIL")).toContain("Rail transfer LHR - London Paddington");
  expect(all(r.body, "StationName")).toContain("Londres Heathrow");
  expect(langs(r.body)).toContain("fr");
});

test("zh-Hant resolves to zh; what zh does not translate comes in English with content_language_fallback", async () => {
  const r = await t.ndc("ServiceListRQ", serviceListRQ({ offerId: "OFR-LANG", langUsage: ["zh-Hant"] }));
  expect(r.status).toBe(200);
  expect(langs(r.body)).toEqual(["en", "zh"]);
  expect(warnings(r.body)).toEqual(["content_language_fallback"]);
  expect(blocks(r.body, "Warning")[0]).toContain('Requested language "zh"');
  expect(all(definition(r.body, "SD-LNGE"), "Name")).toEqual(["Lounge access"]);
  const s = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-LANG", langUsage: ["zh-Hans"] }));
  expect(s.body).toContain("<cns:DescText>靠窗座位</cns:DescText>");
  expect(langs(s.body)).toContain("zh");
});

test("an untranslated language falls back to English with the warning; PrimaryLangID is used without LangUsage", async () => {
  const r = await t.ndc("ServiceListRQ", serviceListRQ({ offerId: "OFR-LANG", primaryLang: "ja" }));
  expect(langs(r.body)).toEqual(["en"]);
  expect(warnings(r.body)).toEqual(["content_language_fallback"]);
  const de = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-LANG", primaryLang: "de-AT" }));
  expect(de.body).toContain("<cns:DescText>Fensterplatz</cns:DescText>");
  expect(langs(de.body)).toContain("de");
  const en = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: "OFR-LANG" }));
  expect(langs(en.body)).toEqual(["en"]);
  expect(warnings(en.body)).toEqual([]);
  // The seat definition is composed by the gateway: English whatever was asked.
  expect(all(definition(de.body, "SD-SEAT"), "Name")).toEqual(["Seat reservation"]);
});
