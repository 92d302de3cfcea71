import { afterAll, beforeAll, expect, test } from "bun:test";
import type { ManualClock } from "@ndc/clock";
import type { ALaCartePayload, OfferOwner, OfferRepository } from "@ndc/shopping";
import { CATALOGUE_SERVICES } from "@ndc/supply";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks, day, gateway, saveFlightOffer, serviceListRQ } from "./seat-availability-helpers";

let t: TestGateway;
let clock: ManualClock;
let owner: OfferOwner;
let repo: OfferRepository;
let segs: { out: string[]; back: string[] };
let journeyIds: string[];

beforeAll(async () => {
  ({ t, clock, owner, repo } = await gateway());
  // A long-haul return trip: rides and partner products at both ends.
  const out = t.gw.supply.journeys("LHR", "DXB", day(t, 20))[0]!;
  const back = t.gw.supply.journeys("DXB", "LHR", day(t, 27))[0]!;
  const p = await saveFlightOffer(repo, clock, owner, { offerId: "OFR-SL", journeys: [out, back], pax: [["PAX1", "ADT"], ["PAX2", "ADT"], ["PAX3", "CHD"], ["PAX4", "INF"]] });
  segs = { out: p.journeys[0]!.paxSegmentIds, back: p.journeys[1]!.paxSegmentIds };
  journeyIds = p.journeys.map((j) => j.paxJourneyId);
});
afterAll(() => t.close());

interface Item {
  id: string;
  def: string;
  pax: string[];
  segs: string[];
  journeys: string[];
  taxonomy: string[];
  amount: string;
}

function items(xml: string): Item[] {
  return blocks(xml, "OfferItem").map((i) => ({
    id: all(i, "OfferItemID")[0]!,
    def: all(i, "ServiceDefinitionRefID")[0]!,
    pax: all(i, "PaxRefID"),
    segs: all(i, "PaxSegmentRefID"),
    journeys: all(i, "PaxJourneyRefID"),
    taxonomy: all(i, "TaxonomyCode"),
    amount: /<cns:TotalAmount CurCode="[A-Z]{3}">([^<]+)</.exec(i)![1]!,
  }));
}

const defIds = (xml: string) => all(xml, "ServiceDefinitionID");
const list = (o: Parameters<typeof serviceListRQ>[0] = {}) => t.ndc("ServiceListRQ", serviceListRQ({ offerId: "OFR-SL", ...o }));

test("the full ServiceDefinitionList: RFIC, RFISC, taxonomy code with its codeset path, pictures with captions, bundles", async () => {
  const r = await list();
  expect(r.status).toBe(200);
  const ids = defIds(r.body);
  for (const s of CATALOGUE_SERVICES) expect(ids).toContain(`SD-${s.code}`);
  const lounge = blocks(r.body, "ServiceDefinition").find((d) => d.includes("<cns:ServiceDefinitionID>SD-LNGE<"))!;
  expect(lounge).toContain("<cns:AirlineTaxonomy><cns:DescText>Airport services / Lounge access</cns:DescText><cns:TaxonomyCode>1B58</cns:TaxonomyCode></cns:AirlineTaxonomy>");
  expect(lounge).toContain("<cns:RFIC>E</cns:RFIC><cns:RFISC>0BX</cns:RFISC>");
  expect(lounge).toMatch(/<cns:Desc><cns:DescText>[^<]+<\/cns:DescText><cns:URL>https:\/\/media\.sandbox-airline\.example\/catalogue\/lounge\.jpg<\/cns:URL><\/cns:Desc>/);
  const comfort = blocks(r.body, "ServiceDefinition").find((d) => d.includes("<cns:ServiceDefinitionID>SD-BNDL-COMFORT<"))!;
  expect(all(comfort, "ServiceDefinitionRefID")).toEqual(["SD-BAG1", "SD-PRIO", "SD-MEAL", "SD-MLVG"]);
  expect(comfort).toContain("<cns:MaximumServiceQty>3</cns:MaximumServiceQty>");
  // Unclassified products carry no AirlineTaxonomy.
  const cargoPet = blocks(r.body, "ServiceDefinition").find((d) => d.includes("<cns:ServiceDefinitionID>SD-PETH<"))!;
  expect(cargoPet).not.toContain("AirlineTaxonomy");
  expect(blocks(r.body, "Processing")[0]).toContain("<cns:CurCode>EUR</cns:CurCode>");
});

test("items per segment or journey and passenger type; lap infants only get what they can use", async () => {
  const r = await list();
  const its = items(r.body);
  const meals = its.filter((i) => i.def === "SD-MEAL");
  // Per flight: every segment of both journeys, for adults (together) and the child.
  expect(meals.length).toBe((segs.out.length + segs.back.length) * 2);
  expect(meals.every((m) => m.segs.length === 1 && m.journeys.length === 0)).toBe(true);
  expect(new Set(meals.map((m) => m.pax.join(",")))).toEqual(new Set(["PAX1,PAX2", "PAX3"]));
  const bags = its.filter((i) => i.def === "SD-BAG1");
  expect(bags.length).toBe(4);
  expect(new Set(bags.map((b) => b.journeys[0]))).toEqual(new Set(journeyIds));
  expect(bags.every((b) => b.taxonomy[0] === "0110")).toBe(true);
  // Long haul prices (LHR-DXB is wide-body).
  expect(bags[0]!.amount).toBe("60.00");
  const infantItems = its.filter((i) => i.pax.includes("PAX4") && i.pax.length === 1);
  expect(new Set(infantItems.map((i) => i.def))).toEqual(new Set(["SD-LNGE", "SD-FTRK"]));
  expect(new Set(its.map((i) => i.id)).size).toBe(its.length);
});

test("rides at the journeys' ends and partner products are listed for an offer", async () => {
  const r = await list();
  const its = items(r.body);
  const defs = new Set(its.map((i) => i.def));
  // LHR (start of the outbound, end of the return) and DXB (the other two ends).
  for (const code of ["RD-LHR-RAIL", "RD-LHR-COACH", "RD-LHR-CAR", "RD-DXB-CAR"]) expect(defs).toContain(`SD-${code}`);
  expect(defs).not.toContain("SD-RD-CDG-RAIL");
  const car = its.filter((i) => i.def === "SD-RD-LHR-CAR");
  expect(car.length).toBe(2); // outbound departure, return arrival
  expect(car[0]!.pax).toEqual(["PAX1", "PAX2", "PAX3", "PAX4"]);
  expect(car[0]!.taxonomy).toEqual(["2CEC"]);
  const rideDef = blocks(r.body, "ServiceDefinition").find((d) => d.includes("<cns:ServiceDefinitionID>SD-RD-LHR-RAIL<"))!;
  expect(rideDef).toContain("Heathrow Express, about 15 minutes");
  for (const code of ["PP-LOUNGE-LHR", "PP-ESIM", "PP-INSURANCE", "PP-TRANSFER-DXB", "PP-SPA-DXB"]) expect(defs).toContain(`SD-${code}`);
  // Sold out from the start; and partner products of other airports are not offered.
  expect(defs).not.toContain("SD-PP-RETAIL");
  expect(defs).not.toContain("SD-PP-FOOD-FCO");
  const esim = its.find((i) => i.def === "SD-PP-ESIM")!;
  expect(esim.journeys).toEqual(journeyIds);
});

test("criteria: a parent taxonomy node selects every node below it, nothing else", async () => {
  const r = await list({ criteria: [{ taxonomy: ["0300"] }] });
  const defs = new Set(items(r.body).map((i) => i.def));
  expect(defs).toEqual(new Set(["SD-PRIO", "SD-LNGE", "SD-FTRK", "SD-PP-LOUNGE-LHR"]));
  const ground = new Set(items((await list({ criteria: [{ taxonomy: ["0400"] }] })).body).map((i) => i.def));
  expect(ground).toEqual(new Set(["SD-RD-LHR-RAIL", "SD-RD-LHR-COACH", "SD-RD-LHR-CAR", "SD-RD-DXB-CAR", "SD-PP-TRANSFER-DXB"]));
});

test("criteria: RFIC and RFISC, partner products included, unclassified products never returned", async () => {
  const byRfic = new Set(items((await list({ criteria: [{ rfic: "E" }] })).body).map((i) => i.def));
  expect(byRfic).toEqual(new Set(["SD-PRIO", "SD-LNGE", "SD-FTRK", "SD-PP-LOUNGE-LHR"]));
  const byRfisc = new Set(items((await list({ criteria: [{ rfisc: ["0CC", "PIN"] }] })).body).map((i) => i.def));
  expect(byRfisc).toEqual(new Set(["SD-BAG1", "SD-PP-INSURANCE"]));
  // PETH (0BS, RFIC C) and CELB (0UN, RFIC G) are sold with no node; PP-SPA-DXB is an unclassified partner category.
  for (const c of [{ rfisc: ["0BS"] }, { rfisc: ["0UN"] }, { rfisc: ["PWL"] }]) {
    const r = await list({ criteria: [c] });
    expect(r.status).toBe(200);
    expect(items(r.body)).toEqual([]);
  }
  const bags = new Set(items((await list({ criteria: [{ rfic: "C" }] })).body).map((i) => i.def));
  expect(bags.has("SD-PETH")).toBe(false);
  expect(bags.has("SD-PETC")).toBe(true);
});

test("criteria: an exclusion removes what it names and keeps unclassified products", async () => {
  const r = await list({ criteria: [{ include: false, rfic: "G" }] });
  const defs = new Set(items(r.body).map((i) => i.def));
  for (const gone of ["SD-MEAL", "SD-MLVG", "SD-WIFI"]) expect(defs.has(gone)).toBe(false);
  for (const kept of ["SD-CELB", "SD-PETH", "SD-PP-SPA-DXB", "SD-BNDL-COMFORT", "SD-BAG1"]) expect(defs.has(kept)).toBe(true);
  // The bundle still refers to the meals, so their definitions stay listed (without items).
  expect(defIds(r.body)).toContain("SD-MEAL");
});

test("ids are stable across calls, the list is stored, and a narrower list keeps earlier items orderable", async () => {
  const a = await list({ correlationId: "SAME" });
  const b = await list({ correlationId: "SAME" });
  expect(b.body).toBe(a.body);
  const alc = all(blocks(a.body, "ALaCarteOffer")[0]!, "OfferID")[0]!;
  const narrow = await list({ criteria: [{ taxonomy: ["1B58"] }] });
  expect(all(blocks(narrow.body, "ALaCarteOffer")[0]!, "OfferID")[0]).toBe(alc);
  const lounge = items(narrow.body).map((i) => i.id);
  expect(items(a.body).map((i) => i.id)).toEqual(expect.arrayContaining(lounge));
  const stored = await repo.resolve<ALaCartePayload>(alc, owner);
  expect(stored.source).toBe("service_list");
  expect(stored.payload.flightOfferId).toBe("OFR-SL");
  expect(stored.payload.items.map((i) => i.offerItemId).sort()).toEqual(items(a.body).map((i) => i.id).sort());
  expect(stored.payload.items.every((i) => Number.isInteger(i.totalMinor))).toBe(true);
});

test("another currency: prices converted exactly, under an a-la-carte offer of its own", async () => {
  const eur = await list();
  const gbp = await list({ currency: "GBP" });
  expect(all(blocks(gbp.body, "ALaCarteOffer")[0]!, "OfferID")[0]).not.toBe(all(blocks(eur.body, "ALaCarteOffer")[0]!, "OfferID")[0]);
  const bag = items(gbp.body).find((i) => i.def === "SD-BAG1")!;
  expect(bag.amount).toBe("50.52"); // 60.00 EUR x 0.8420
  expect(gbp.body).toContain('CurCode="GBP"');
  expect(gbp.body).not.toContain('CurCode="EUR"');
});

// The booked-order form for real orders: test/orders-http/service-list-order.test.ts.
test("the booked-order form answers a missing order 404 order_not_found, identical for every OrderID", async () => {
  const a = await t.ndc("ServiceListRQ", serviceListRQ({ orderId: "ORD-LOOKS-REAL", correlationId: "C-ORD" }));
  const b = await t.ndc("ServiceListRQ", serviceListRQ({ orderId: "nonsense", correlationId: "C-ORD" }));
  expect(a.status).toBe(404);
  expect(errorCode(a.body)).toBe("order_not_found");
  expect(b.status).toBe(a.status);
  expect(b.body).toBe(a.body);
  expect([...b.headers.keys()].sort()).toEqual([...a.headers.keys()].sort());
});

test("unknown, expired and another seller's offers are refused", async () => {
  const unknown = await list({ offerId: "OFR-NOPE" });
  expect(unknown.status).toBe(404);
  expect(errorCode(unknown.body)).toBe("offer_not_found");
  const j = t.gw.supply.journeys("LHR", "CDG", day(t, 3))[0]!;
  await saveFlightOffer(repo, clock, owner, { offerId: "OFR-SL-OTHER", journeys: [j], owner: { clientId: "x", agencyId: "OTHER" } });
  expect(errorCode((await list({ offerId: "OFR-SL-OTHER" })).body)).toBe("offer_not_found");
  await saveFlightOffer(repo, clock, owner, { offerId: "OFR-SL-OLD", journeys: [j], ttlMs: 10 });
  clock.advance(10);
  const old = await list({ offerId: "OFR-SL-OLD" });
  expect(old.status).toBe(410);
  expect(errorCode(old.body)).toBe("offer_expired");
});
